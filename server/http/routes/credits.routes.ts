import * as c from '../../contracts/credits.js';
import type { Services } from '../../domain/services.js';
import { defineRoute } from '../route.js';

const tag = 'Credits';

const OUTLOOK =
  "The monthly grant (setting monthlyCredits, default 10,000: the owner's own posting budget) " +
  "is credited on the first look in a month and expires at the end of that month in the user's zone (the " +
  'setting timeZone); ' +
  'reserved: what the posts scheduled before then will take. ' +
  "xSpend: X's pay-per-use spend this month, what is scheduled for the rest of it, and the cap.";

export const creditRoutes = (s: Services) => [
  defineRoute({
    method: 'post',
    path: '/credits',
    tag,
    bodyType: 'none',
    summary: "Current balance and when this month's credits expire",
    description: OUTLOOK,
    response: c.creditsResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({
      success: true,
      ...s.credits.outlook(auth.user.id),
      xSpend: s.xSpend.figures(auth.user.id),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/credits',
    tag,
    summary: 'The same as POST /credits, for readers that GET (with xSpend)',
    description: OUTLOOK,
    response: c.creditsResponse,
    errors: ['INVALID_API_KEY', 'RATE_LIMITED'],
    handler: ({ auth }) => ({
      success: true,
      ...s.credits.outlook(auth.user.id),
      xSpend: s.xSpend.figures(auth.user.id),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/credits/adjust',
    tag,
    summary: 'Add or remove credits (owner only); answers like POST /credits',
    description:
      "Credits are the owner's own posting budget: a positive amount adds, a negative one removes, " +
      'as one `adjustment` record. ' +
      "A result below 0 is 400 INVALID_INPUT and nothing is written; another user's key is 403 UNAUTHORIZED.",
    body: c.adjustBody,
    response: c.creditsResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'UNAUTHORIZED', 'RATE_LIMITED'],
    handler: ({ auth, body }) => ({
      success: true,
      ...s.credits.ownerAdjust(auth.user.id, body.amount, body.note),
      xSpend: s.xSpend.figures(auth.user.id),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/credits/usage',
    tag,
    summary: 'Ledger records, newest first, paged',
    description: 'trans_type is one of grant, publish, refund, adjustment. A bare end_date includes that whole day.',
    query: c.usageQuery,
    response: c.usageResponse,
    errors: ['INVALID_API_KEY', 'INVALID_INPUT', 'RATE_LIMITED'],
    handler: ({ auth, query }) => ({ success: true, ...s.credits.usage(auth.user.id, query) }),
  }),
];
