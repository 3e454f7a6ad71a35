/**
 * Settings → Media relay (docs/decisions.md §11): anyone signed in sees whether a relay is set up;
 * only the owner changes, removes or tests it.
 */
import * as c from '../../contracts/media-relay.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Media relay';

export const mediaRelayRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/media-relay',
    tag,
    summary: 'The media relay Threads fetches uploaded media from (never its secret), or null',
    response: c.mediaRelayResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: () => ({ success: true, relay: s.mediaRelay.view() }),
  }),
  defineRoute({
    method: 'put',
    path: '/media-relay',
    tag,
    summary: 'Set up the media relay: an S3-compatible bucket (owner only)',
    description:
      'The secret access key goes to the secret store and is never answered back. Herald puts each ' +
      'uploaded file there just before a Threads post needs it and deletes it once Threads has it.',
    body: c.setMediaRelayBody,
    response: c.mediaRelayResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED', 'INVALID_API_KEY'],
    handler: async ({ auth, body }) => ({ success: true, relay: await s.mediaRelay.set(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/media-relay',
    tag,
    summary: 'Remove the media relay and its secret (owner only)',
    response: c.mediaRelayResponse,
    errors: ['UNAUTHORIZED', 'INVALID_API_KEY'],
    handler: async ({ auth }) => {
      await s.mediaRelay.remove(auth.user.id);
      return { success: true, relay: null };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/media-relay/test',
    tag,
    bodyType: 'none',
    summary: 'Put, fetch back and delete a small file in the relay (owner only)',
    description: '`ok` false with a message naming the step that failed (put, fetch or delete) and why.',
    response: c.mediaRelayTestResponse,
    errors: ['UNAUTHORIZED', 'INVALID_API_KEY'],
    handler: async ({ auth }) => ({ success: true, ...(await s.mediaRelay.test(auth.user.id)) }),
  }),
];
