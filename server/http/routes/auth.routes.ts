import * as c from '../../contracts/auth.js';
import { messageResponse } from '../../contracts/common.js';
import { KEY_WARNING } from '../../domain/auth/auth.service.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

export const authRoutes = (s: Services) => [
  defineRoute({
    method: 'post', path: '/auth/login', tag: 'Sign-in and keys', auth: false,
    summary: 'Sign in with e-mail and password; issues a new key named "Default API Key"',
    description: 'Repeated failures for one e-mail are slowed down. Existing users only: there is no registration.',
    body: c.loginBody, response: c.loginResponse, errors: ['INVALID_INPUT', 'USER_NOT_FOUND', 'INVALID_CREDENTIALS'],
    handler: async ({ body }) => {
      const { user, key } = await s.auth.login(body.email, body.password);
      return {
        success: true,
        user: { uuid: user.id, email: user.email },
        apiKey: { key: key.key, name: key.name, createdAt: key.createdAt, lastUsed: key.lastUsed },
        warning: KEY_WARNING,
      };
    },
  }),
  defineRoute({
    method: 'get', path: '/auth/api-keys', tag: 'Sign-in and keys', summary: 'List your API keys (masked)',
    response: c.apiKeyListResponse, errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, apiKeys: s.auth.listKeys(auth.user.id) }),
  }),
  defineRoute({
    method: 'post', path: '/auth/api-keys', tag: 'Sign-in and keys', summary: 'Create an API key; the full key is in this answer only',
    description: 'Optional `tier` (free 100/h, pro 1000/h, enterprise configurable); default is the user\'s tier.',
    body: c.createKeyBody, response: c.createKeyResponse, errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: ({ auth, body }) => {
      const key = s.auth.createKey(auth.user, body.name, body.tier);
      return {
        success: true,
        apiKey: { id: key.id, key: key.key, keyPreview: key.keyPreview, name: key.name, tier: key.tier, status: key.status, createdAt: key.createdAt },
        warning: KEY_WARNING,
      };
    },
  }),
  defineRoute({
    method: 'delete', path: '/auth/api-keys/:keyId', tag: 'Sign-in and keys', summary: 'Delete an API key; it stops working at once',
    params: c.keyIdParam, response: messageResponse, errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => {
      s.auth.deleteKey(auth.user.id, params.keyId);
      return { success: true, message: 'API key deleted' };
    },
  }),
];
