import * as c from '../../contracts/schedule.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Scheduling';

export const scheduleRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/schedule',
    tag,
    summary: 'Schedule a draft: one queue entry per target account',
    description:
      "Targets: targetAccounts, else accountUuid (+ platform, default microblog), else the draft's selected " +
      'accounts, else its social set. scheduledFor must be in the future. applyJitter (default true) gives ' +
      'each entry its own uniform offset in [-180 s, +180 s], never in the past. Scheduling again moves the ' +
      'pending entry of that draft and account. Credits are charged when the post fires. A target the draft ' +
      'was already published to is 409 ALREADY_PUBLISHED naming it, unless force: true, which posts again (a ' +
      'new publication, charged and shown in history like any other).',
    body: c.scheduleBody,
    response: c.scheduleResponse,
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'SPEND_CAP_REACHED', 'ALREADY_PUBLISHED'],
    handler: async ({ auth, body }) => ({ success: true, ...(await s.scheduling.schedule(auth.user.id, body)) }),
  }),
  defineRoute({
    method: 'get',
    path: '/microblog/schedule',
    tag,
    summary: 'Pending schedule entries, soonest first',
    response: c.scheduleListResponse,
    errors: [],
    handler: ({ auth }) => ({ success: true, schedules: s.scheduling.list(auth.user.id) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/microblog/schedule',
    tag,
    summary: "Cancel a draft's pending entries, or one account's (entries already publishing finish)",
    description:
      "With accountId only that account's entry is cancelled and the draft stays scheduled on its other " +
      'networks; it returns to draft once nothing of it is pending.',
    query: c.cancelQuery,
    response: c.cancelResponse,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, query }) => {
      const n = s.scheduling.cancel(auth.user.id, query.draftId, query.accountId);
      return { success: true, message: `Cancelled ${n} scheduled post(s)`, cancelled: n };
    },
  }),
];
