/**
 * After publishing: what each network says about a published post over time, and when Herald
 * reads it next. A publication stays the unit (an evergreen repeat is a new publication with its
 * own series).
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { publications } from './publishing.js';

/** One read of a post's counts; a count the network does not report is null. `at` is epoch ms. */
export const postMetrics = sqliteTable(
  'post_metrics',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    publicationId: text('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    at: integer('at').notNull(),
    likes: integer('likes'),
    reposts: integer('reposts'),
    replies: integer('replies'),
    quotes: integer('quotes'),
    impressions: integer('impressions'),
  },
  (t) => [index('post_metrics_pub_idx').on(t.publicationId, t.at)],
);

/**
 * The collector's plan for one publication: the next scheduled read (`next_at`, epoch ms, null
 * once the 30-day read is done or the post is gone), how many of the planned reads are done, and
 * why the last read failed. `state`: `tracking`, `done`, `deleted` (gone on the network: no more
 * reads) or `unavailable` (the account cannot read it: `last_error` says why).
 */
export const metricTracks = sqliteTable(
  'metric_tracks',
  {
    publicationId: text('publication_id')
      .primaryKey()
      .references(() => publications.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    platform: text('platform').notNull(),
    state: text('state').notNull().default('tracking'),
    step: integer('step').notNull().default(0),
    nextAt: integer('next_at'),
    lastError: text('last_error'),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [index('metric_tracks_due_idx').on(t.nextAt)],
);
