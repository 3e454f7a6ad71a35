import * as c from '../../contracts/alerts.js';
import { idParam, messageResponse } from '../../contracts/common.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'Alerts';

export const alertRoutes = (s: Services) => [
  defineRoute({
    method: 'get',
    path: '/alerts',
    tag,
    summary: "The user's alert destinations, each with its last delivery",
    response: c.alertsResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, alerts: s.alerts.list(auth.user.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/alerts',
    tag,
    summary: 'Add an alert destination by URL',
    description:
      'The URL and the secret go to the secret store; answers show the URL with its credentials masked. ' +
      'An unknown scheme or a URL missing a part is 400 INVALID_INPUT naming what is missing. Only events ' +
      'after this call are alerted; each is sent once, retried with backoff when the destination fails.',
    body: c.alertBody,
    response: c.alertResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: async ({ auth, body }) => ({ success: true, alert: await s.alerts.create(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/alerts/:id',
    tag,
    summary: 'Remove an alert destination (and its secret)',
    params: idParam,
    response: messageResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ auth, params }) => {
      await s.alerts.remove(auth.user.id, params.id);
      return { success: true, message: 'Alert removed' };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/alerts/:id/test',
    tag,
    summary: 'Send a test message now',
    description: 'Answers the alert with the test as its last delivery (status `sent`, or `failed` with the reason).',
    params: idParam,
    bodyType: 'none',
    response: c.alertResponse,
    errors: ['INVALID_API_KEY', 'NOT_FOUND', 'RATE_LIMITED'],
    handler: async ({ auth, params }) => ({ success: true, alert: await s.alerts.test(auth.user.id, params.id) }),
  }),
];
