/**
 * Settings → Networks (docs/decisions.md §18): the install's apps at X, Threads, LinkedIn and the identity
 * provider. Anyone signed in sees which source is in force; only the owner changes or tests them.
 */
import * as c from '../../contracts/networks.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Networks';

export const networkRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/networks',
    tag,
    summary: 'The network apps: configured or not, which source is in force, the redirect URI to register',
    response: c.networksResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: () => ({ success: true, networks: s.networkApps.list() }),
  }),
  defineRoute({
    method: 'put',
    path: '/networks/:platform',
    tag,
    summary: "Save a network app's client id and secret in the secret store (owner only)",
    description: 'Takes effect at once. Environment variables still win; `source` says which is in force.',
    params: c.networkParams,
    body: c.setNetworkBody,
    response: c.networkResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED', 'INVALID_API_KEY'],
    handler: async ({ auth, params, body }) => ({
      success: true,
      network: await s.networkApps.set(auth.user.id, params.platform, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/networks/:platform',
    tag,
    summary: 'Remove a network app saved in Herald (owner only)',
    params: c.networkParams,
    response: c.networkResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED', 'INVALID_API_KEY'],
    handler: async ({ auth, params }) => ({
      success: true,
      network: await s.networkApps.remove(auth.user.id, params.platform),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/networks/:platform/test',
    tag,
    bodyType: 'none',
    summary: 'Check the app in force against the network (owner only)',
    description:
      '`ok` false with a message naming what is wrong: the client id or secret, or a redirect URI the ' +
      'network will refuse.',
    params: c.networkParams,
    response: c.networkTestResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED', 'INVALID_API_KEY'],
    handler: async ({ auth, params }) => ({
      success: true,
      ...(await s.networkApps.test(auth.user.id, params.platform)),
    }),
  }),
];
