import { linkPreviewQuery, linkPreviewResponse } from '../../contracts/link-cards.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

export const linkCardRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get', path: '/link-preview', tag: 'Drafts', summary: 'The link card of a page: title, description, image and site name',
    description: 'Herald fetches the page through its address policy (public addresses only unless HERALD_ALLOW_PRIVATE_ADDRESSES; checked after DNS and on every redirect), reads at most 1 MiB of its head within 5 s, and keeps the answer for an hour. A page that cannot be read answers card: null; an address the policy refuses answers 400 INVALID_INPUT.',
    query: linkPreviewQuery, response: linkPreviewResponse, errors: ['INVALID_INPUT'],
    handler: async ({ query }) => ({ success: true, card: await s.linkCards.preview(query.url) }),
  }),
];
