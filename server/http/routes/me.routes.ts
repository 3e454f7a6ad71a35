import { meResponse } from '../../contracts/users.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

export const meRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/me',
    tag: 'User and accounts',
    summary: 'The signed-in user',
    response: meResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => {
      const u = auth.user;
      const zone = s.settings.userZone(u.id);
      return {
        success: true,
        uuid: u.id,
        email: u.email,
        nickname: u.nickname,
        avatar_url: u.avatarUrl,
        timezone: zone,
        credits_balance: s.credits.balance(u.id).balance,
        locale: u.locale,
        created_at: u.createdAt,
      };
    },
  }),
];
