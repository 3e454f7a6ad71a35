import { messageResponse } from '../../contracts/common.js';
import * as c from '../../contracts/social-sets.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'Social sets';

export const socialSetRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/social-sets',
    tag,
    summary: 'List social sets with their accounts',
    response: c.setListResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, socialSets: s.socialSets.list(auth.user.id) }),
  }),
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/social-sets',
    tag,
    summary: 'Create a social set',
    description: 'The first set a user creates becomes the default.',
    body: c.createSetBody,
    response: c.setResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: ({ auth, body }) => ({ success: true, socialSet: s.socialSets.create(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'put',
    path: '/social-sets',
    tag,
    summary: 'Rename a set, replace its accounts or make it the default',
    body: c.updateSetBody,
    response: c.setResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, body }) => ({ success: true, socialSet: s.socialSets.update(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/social-sets',
    tag,
    summary: 'Delete a social set (drafts are kept)',
    description:
      'Drafts in the set keep existing with socialSetId null; if it was the default, the oldest remaining ' +
      'set becomes default.',
    body: c.deleteSetBody,
    response: messageResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, body }) => {
      s.socialSets.delete(auth.user.id, body.id);
      return { success: true, message: 'Social set deleted' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/social-sets/:id/slots',
    tag,
    summary: "The set's weekly queue slots, in its time zone",
    params: c.slotsParams,
    response: c.slotsResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => ({ success: true, ...s.socialSets.slots(auth.user.id, params.id) }),
  }),
  defineRoute({
    method: 'put',
    path: '/social-sets/:id/slots',
    tag,
    summary: "Replace the set's weekly queue slots",
    description:
      'Slots are `{day: 1-7 (ISO, Monday = 1), time: "HH:MM"}` in the set\'s time zone. A time that is not a ' +
      'time of day (25:00) or two slots less than 6 minutes apart (their ±3 min jitter windows would cross) ' +
      'is 400 INVALID_INPUT naming the slot. Drafts already queued keep their times.',
    params: c.slotsParams,
    body: c.putSlotsBody,
    response: c.slotsResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params, body }) => ({
      success: true,
      ...s.socialSets.setSlots(auth.user.id, params.id, body.slots),
    }),
  }),
];
