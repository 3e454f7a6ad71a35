import * as c from '../../contracts/after-publish.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Analytics';

export const analyticsRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/analytics/posts',
    tag,
    summary: 'Published posts with their latest counts (likes, reposts, replies, quotes, impressions)',
    description:
      'Newest first. Counts a network does not report are null; `tracking` says whether Herald still reads ' +
      'the post (`tracking`), has done its 30-day read (`done`), the post was deleted (`deleted`) or cannot be ' +
      'read (`unavailable`, with `reason`).',
    query: c.analyticsQuery,
    response: c.analyticsPostsResponse,
    handler: ({ auth, query }) => s.analytics.posts(auth.user.id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/export',
    tag,
    summary: 'The metrics as CSV (one row per post, or per read with history=true)',
    description:
      'Columns: publicationId, platform, account, url, publishedAt, deletedAt, title, at, likes, ' +
      'reposts, replies, quotes, impressions; an empty count is one the network does not report.',
    query: c.analyticsCsvQuery,
    responseType: 'text/csv',
    handler: ({ auth, query, res }) => {
      const { history, ...filter } = query;
      const text = s.analytics.csv(auth.user.id, filter, history === 'true');
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="herald-metrics.csv"');
      res.end(text);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/posts/:publicationId',
    tag,
    summary: "One published post's counts and every read of them (history)",
    params: c.analyticsParams,
    response: c.analyticsPostResponse,
    errors: ['NOT_FOUND'],
    handler: ({ auth, params }) => s.analytics.post(auth.user.id, params.publicationId),
  }),
  defineRoute({
    method: 'post',
    path: '/analytics/refresh',
    tag,
    summary: 'Read the counts again now (all published posts, or the ones named)',
    description: 'Answers 202 at once; the reads run in the background at the collector’s pace.',
    body: c.refreshBody,
    response: c.refreshResponse,
    status: 202,
    handler: ({ auth, body }) => s.analytics.refresh(auth.user.id, body.publicationIds),
  }),
];
