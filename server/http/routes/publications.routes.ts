import * as c from '../../contracts/after-publish.js';
import * as p from '../../contracts/publishing.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Publishing';

export const publicationRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/microblog/publications',
    tag,
    summary: 'Published posts and every other publication (the history), each with its id',
    description:
      'The history’s rows, newest first; `deletedAt` and `editedAt` say what was taken down or edited ' +
      'through Herald.',
    query: p.historyQuery,
    response: p.historyResponse,
    handler: ({ auth, query }) => ({ success: true, publications: s.publishing.history(auth.user.id, query) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/microblog/publications/:id',
    tag,
    summary: 'Delete a published post on its network (and the later parts of its thread Herald sent)',
    description:
      'Later parts go first. A part the network no longer holds is reported as `gone`, not as a failure; ' +
      'deleting again answers the first deletion.',
    params: c.publicationParams,
    response: c.deletePublicationResponse,
    errors: ['NOT_FOUND', 'INVALID_INPUT', 'NOT_SUPPORTED', 'TOKEN_EXPIRED', 'RATE_LIMITED', 'PLATFORM_ERROR'],
    handler: ({ auth, params }) => s.publications.delete(auth.user.id, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/microblog/publications/:id',
    tag,
    summary: 'Edit a published post’s text on its network (Mastodon, LinkedIn)',
    description: 'Networks that cannot edit answer 409 NOT_SUPPORTED naming what they allow instead.',
    params: c.publicationParams,
    body: c.editPublicationBody,
    response: c.editPublicationResponse,
    errors: ['NOT_FOUND', 'INVALID_INPUT', 'NOT_SUPPORTED', 'TOKEN_EXPIRED', 'RATE_LIMITED', 'PLATFORM_ERROR'],
    handler: ({ auth, params, body }) => s.publications.edit(auth.user.id, params.id, body.text),
  }),
];
