import * as c from '../../contracts/accounts.js';
import { idParam, messageResponse } from '../../contracts/common.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'User and accounts';

export const accountRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/accounts',
    tag,
    summary: 'All connected accounts across networks',
    response: c.accountListResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, accounts: s.accounts.list(auth.user.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/accounts/:id',
    tag,
    summary: 'One connected account',
    params: idParam,
    response: c.accountResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: ({ auth, params }) => ({ success: true, account: s.accounts.get(auth.user.id, params.id) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/accounts/:id',
    tag,
    summary: 'Unbind an account: removed from every set, tokens deleted from the secret store',
    params: idParam,
    response: messageResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ auth, params }) => {
      await s.accounts.remove(auth.user.id, params.id);
      return { success: true, message: 'Account removed' };
    },
  }),
];
