import { linkImageQuery, linkPreviewQuery, linkPreviewResponse } from '../../contracts/link-cards.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

export const linkCardRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/link-preview',
    tag: 'Drafts',
    summary: 'The link card of a page: title, description, image and site name',
    description:
      'Herald fetches the page through its address policy (public addresses only unless ' +
      'HERALD_ALLOW_PRIVATE_ADDRESSES; checked after DNS and on every redirect), reads at most 1 MiB of its ' +
      'head within 5 s, and keeps the answer for an hour. A page that cannot be read answers card: null; an ' +
      'address the policy refuses answers 400 INVALID_INPUT.',
    query: linkPreviewQuery,
    response: linkPreviewResponse,
    errors: ['INVALID_INPUT'],
    handler: async ({ query }) => ({ success: true, card: await s.linkCards.preview(query.url) }),
  }),
  defineRoute({
    method: 'get',
    path: '/link-preview/image',
    tag: 'Drafts',
    summary: "The image of a page's link card (its bytes), for showing the card",
    description:
      "Only the image the page's card names, fetched through the same address policy (PNG, JPEG, WebP or " +
      'GIF, checked by its bytes, at most 10 MB); 404 when the page has no card image that can be read. ' +
      'Served with nosniff and a CSP that allows nothing.',
    query: linkImageQuery,
    responseType: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
    handler: async ({ query, res }) => {
      const { bytes, mime } = await s.linkCards.cardImage(query.url);
      res.setHeader('Content-Type', mime);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.status(200).end(bytes);
      return undefined;
    },
  }),
];
