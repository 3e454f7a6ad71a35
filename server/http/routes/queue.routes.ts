import * as c from '../../contracts/queue.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Scheduling';

export const queueRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/queue',
    tag,
    summary: "Add a draft to a social set's queue: schedule it in the next free slot",
    description:
      "The set: socialSetId, else the draft's, else the default set. Targets: the draft's selected accounts, " +
      "else the set's. Answers like POST /microblog/schedule plus `slot` (the slot's instant and its wall " +
      "time in the set's zone). A set with no slots, or with every slot of the next two years taken, is 400 " +
      'naming socialSetId. The post goes out at the slot; applyJitter: true spreads each entry within 3 ' +
      'minutes of it. A target the draft was already published to is 409 ALREADY_PUBLISHED unless force: ' +
      "true. With dryRun: true answers the plan of POST /microblog/schedule's dry run plus `slot`, and " +
      'schedules nothing.',
    body: c.queueAddBody,
    response: c.queueAddResponse,
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'SPEND_CAP_REACHED', 'ALREADY_PUBLISHED'],
    handler: async ({ auth, body }) => ({ success: true, ...(await s.queue.add(auth.user.id, body)) }),
  }),
  defineRoute({
    method: 'get',
    path: '/microblog/queue',
    tag,
    summary: "A set's coming slots, each with its draft or null",
    query: c.queueListQuery,
    response: c.queueListResponse,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, query }) => ({ success: true, ...s.queue.list(auth.user.id, query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/microblog/queue/move',
    tag,
    summary: 'Move a queued draft to another slot (swapping with the draft there, if any)',
    description:
      'toSlot is the `at` of a coming slot of the set (GET /microblog/queue). A draft already in that slot ' +
      "takes the moved draft's old slot. Each entry keeps its own jitter around the new slot.",
    body: c.queueMoveBody,
    response: c.queueMoveResponse,
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, body }) => ({ success: true, ...s.queue.move(auth.user.id, body) }),
  }),
];
