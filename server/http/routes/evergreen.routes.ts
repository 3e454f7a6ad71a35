import * as c from '../../contracts/evergreen.js';
import { idParam } from '../../contracts/common.js';
import type { Services } from '../../domain/services.js';
import { parseUtc } from '../../domain/scheduling/schedule.service.js';
import { defineRoute } from '../route.js';

const tag = 'Queue';

export const evergreenRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/microblog/drafts/:id/evergreen',
    tag,
    summary: "A draft's evergreen settings, repeats and last publication",
    params: idParam,
    response: c.evergreenResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND'],
    handler: ({ auth, params }) => ({ success: true, evergreen: s.evergreen.get(auth.user.id, params.id) }),
  }),
  defineRoute({
    method: 'put',
    path: '/microblog/drafts/:id/evergreen',
    tag,
    summary: 'Mark a draft evergreen (or not)',
    description:
      "A free slot of its social set's queue in the next 24 hours takes the due evergreen draft published " +
      'longest ago ("due": minDaysBetween days since its last publication); each repeat is a new publication. ' +
      'X gets the first of the text and the variants it was not sent before, else it is left out with the reason.',
    params: idParam,
    body: c.evergreenBody,
    response: c.evergreenResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, params, body }) => ({ success: true, evergreen: s.evergreen.put(auth.user.id, params.id, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/microblog/queue/evergreen/fill',
    tag,
    summary: 'Fill the free slots of the next 24 hours with due evergreen drafts now',
    description: 'Herald does this by itself every 15 minutes; answers what it filled.',
    bodyType: 'none',
    response: c.fillResponse,
    errors: ['INVALID_API_KEY'],
    handler: async () => ({ success: true, filled: await s.queue.fillEvergreen() }),
  }),
  defineRoute({
    method: 'delete',
    path: '/microblog/queue/evergreen',
    tag,
    summary: 'Turn an evergreen fill back into an empty slot (it is not filled again)',
    query: c.clearQuery,
    response: c.clearResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, query }) => ({
      success: true,
      ...s.evergreen.clear(auth.user.id, query.socialSetId, parseUtc(query.slot)),
    }),
  }),
];
