import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { dateTimeInput, platformSchema, successTrue, timestamp } from './common.js';

export const analyticsParams = lazySchema(() => z.object({ publicationId: z.string().min(1).max(200) }));
export const publicationParams = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));

export const deletePublicationResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    id: z.string(),
    deletedAt: timestamp,
    /** Each part Herald sent, last first: `deleted` by this call, or `gone` (the network no longer held it). */
    parts: z.array(z.object({ position: z.number().int(), outcome: z.enum(['deleted', 'gone']) })),
    message: z.string(),
  }),
);

export const editPublicationBody = lazySchema(() =>
  z.object({ text: z.string().trim().min(1).max(10_000).describe('the new text of the post') }),
);

export const editPublicationResponse = lazySchema(() =>
  z.object({ success: successTrue, id: z.string(), editedAt: timestamp, text: z.string(), message: z.string() }),
);

/** Counts a network does not report are null. */
export const metricValues = lazySchema(() =>
  z.object({
    likes: z.number().int().nullable(),
    reposts: z.number().int().nullable(),
    replies: z.number().int().nullable(),
    quotes: z.number().int().nullable(),
    impressions: z.number().int().nullable(),
  }),
);

export const analyticsQuery = lazySchema(() =>
  z.object({
    from: dateTimeInput.optional().describe('published at or after this instant'),
    to: dateTimeInput.optional().describe('published before this instant'),
    platform: platformSchema.optional(),
    accountId: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  }),
);

const analyticsPost = lazySchema(() =>
  z.object({
    publicationId: z.string(),
    draftId: z.string().nullable(),
    draftTitle: z.string().nullable(),
    excerpt: z.string().nullable().describe("the start of the post's text as sent (up to 200 characters)"),
    accountId: z.string(),
    username: z.string().nullable(),
    platform: platformSchema,
    url: z.string().nullable(),
    publishedAt: timestamp,
    deletedAt: timestamp.nullable(),
    /** `tracking`, `done` (the 30-day read is in), `deleted`, `unavailable` (see `reason`) or `waiting`. */
    tracking: z.string(),
    reason: z.string().nullable(),
    metrics: metricValues,
    /** When the counts were read; null before the first read. */
    fetchedAt: timestamp.nullable(),
  }),
);

export const analyticsCsvQuery = lazySchema(() =>
  built(analyticsQuery).extend({
    history: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: one row per read (the time series); default: one row per post, its latest counts'),
  }),
);

export const analyticsPostsResponse = lazySchema(() =>
  z.object({ success: successTrue, posts: z.array(analyticsPost) }),
);

export const analyticsPostResponse = lazySchema(() =>
  built(analyticsPost).extend({
    success: successTrue,
    history: z.array(z.object({ at: timestamp, metrics: metricValues })),
  }),
);

export const refreshBody = lazySchema(() =>
  z.object({ publicationIds: z.array(z.string().min(1).max(200)).max(10_000).optional() }),
);

export const refreshResponse = lazySchema(() =>
  z.object({ success: successTrue, queued: z.number().int(), message: z.string() }),
);
