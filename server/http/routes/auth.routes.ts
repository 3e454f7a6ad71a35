import * as c from '../../contracts/auth.js';
import { messageResponse } from '../../contracts/common.js';
import { KEY_WARNING } from '../../domain/auth/auth.service.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

export const authRoutes = (s: Services) => [
  defineRoute({
    method: 'post',
    path: '/auth/login',
    tag: 'Sign-in and keys',
    auth: false,
    summary: 'Sign in with e-mail and password; issues a new key named "Default API Key"',
    description:
      'Existing users only: there is no registration. Failed attempts are counted per e-mail and per client ' +
      '(remote address) before the password is checked, so parallel guesses are throttled like serial ones: ' +
      'over the limit, 429 RATE_LIMITED with Retry-After. An unknown e-mail costs the same hashing time as a ' +
      'wrong password.',
    body: c.loginBody,
    response: c.loginResponse,
    errors: ['INVALID_INPUT', 'USER_NOT_FOUND', 'INVALID_CREDENTIALS', 'RATE_LIMITED'],
    handler: async ({ body, req }) => {
      const { user, key } = await s.auth.login(body.email, body.password, clientOf(req.socket.remoteAddress), {
        session: body.session,
      });
      return {
        success: true,
        user: { uuid: user.id, email: user.email },
        apiKey: {
          key: key.key,
          name: key.name,
          createdAt: key.createdAt,
          lastUsed: key.lastUsed,
          expiresAt: key.expiresAt,
        },
        warning: KEY_WARNING,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/api-keys',
    tag: 'Sign-in and keys',
    summary: 'List your API keys (masked)',
    response: c.apiKeyListResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, apiKeys: s.auth.listKeys(auth.user.id, auth.keyId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/api-keys',
    tag: 'Sign-in and keys',
    summary: 'Create an API key; the full key is in this answer only',
    description:
      "Optional `tier` (free 100/h, pro 1000/h, enterprise configurable), at most the calling key's tier " +
      "(else 403 UNAUTHORIZED); default is the user's tier, capped at the caller's. Optional `expiresAt`; a " +
      'key with a fixed expiry creates none that outlives it. One user holds at most 100 keys (sign-in ' +
      'session keys aside).',
    body: c.createKeyBody,
    response: c.createKeyResponse,
    errors: ['INVALID_API_KEY', 'TOKEN_EXPIRED', 'INVALID_INPUT', 'UNAUTHORIZED', 'RATE_LIMITED'],
    handler: ({ auth, body }) => {
      const key = s.auth.createKey(auth, body.name, body.tier, body.expiresAt);
      return {
        success: true,
        apiKey: {
          id: key.id,
          key: key.key,
          keyPreview: key.keyPreview,
          name: key.name,
          tier: key.tier,
          status: key.status,
          createdAt: key.createdAt,
          expiresAt: key.expiresAt,
        },
        warning: KEY_WARNING,
      };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/api-keys/:keyId',
    tag: 'Sign-in and keys',
    summary: 'Delete an API key; it stops working at once',
    params: c.keyIdParam,
    response: messageResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => {
      s.auth.deleteKey(auth.user.id, params.keyId);
      return { success: true, message: 'API key deleted' };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    tag: 'Sign-in and keys',
    summary: 'Sign out: revokes the calling key at once',
    response: messageResponse,
    errors: ['INVALID_API_KEY', 'TOKEN_EXPIRED', 'RATE_LIMITED'],
    handler: ({ auth }) => {
      s.auth.logout(auth);
      return { success: true, message: 'Signed out; this key no longer works' };
    },
  }),
];

/** The client a sign-in attempt is counted against: its address, IPv4-mapped IPv6 as IPv4. */
const clientOf = (address: string | undefined) => (address ?? 'unknown').replace(/^::ffff:/, '');
