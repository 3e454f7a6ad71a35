import * as c from '../../contracts/credits.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'Credits';

export const creditRoutes = (s: Services) => [
  defineRoute({
    method: 'post', path: '/credits', tag, bodyType: 'none', summary: 'Current balance and when this month\'s credits expire',
    description: 'The monthly grant (default 1000) is credited on the first look in a month and expires at the end of that month in the user\'s time zone. xSpend: X\'s pay-per-use spend this month, what is scheduled for the rest of it, and the cap.',
    response: c.creditsResponse, errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, ...s.credits.outlook(auth.user.id), xSpend: s.publishing.xSpend.figures(auth.user.id) }),
  }),
  defineRoute({
    method: 'get', path: '/credits', tag, summary: 'The same as POST /credits, for readers that GET (with xSpend)',
    description: 'The monthly grant (default 1000) is credited on the first look in a month and expires at the end of that month in the user\'s time zone. xSpend: X\'s pay-per-use spend this month, what is scheduled for the rest of it, and the cap.',
    response: c.creditsResponse, errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({ success: true, ...s.credits.outlook(auth.user.id), xSpend: s.publishing.xSpend.figures(auth.user.id) }),
  }),
  defineRoute({
    method: 'get', path: '/credits/usage', tag, summary: 'Ledger records, newest first, paged',
    description: 'trans_type is one of grant, publish, refund, adjustment. A bare end_date includes that whole day.',
    query: c.usageQuery, response: c.usageResponse, errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: ({ auth, query }) => ({ success: true, ...s.credits.usage(auth.user.id, query) }),
  }),
];
