/**
 * Getting posts out: the outbox (publications and their parts), the scheduler's queue, posts to
 * withdraw from a network, and the usage the quota gate counts.
 */
import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { drafts } from './content.js';
import { users } from './users.js';

/** The outbox: one publication per (draft, account). */
export const publications = sqliteTable(
  'publications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    draftId: text('draft_id').references(() => drafts.id, { onDelete: 'set null' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    url: text('url'),
    data: text('data'),
    jobId: text('job_id'),
    /** JSON of the network options this publication was asked with (community, visibility, ...). */
    options: text('options').notNull().default('{}'),
    /** What started it: `now`, `schedule` or `api` (single-network endpoints). */
    origin: text('origin').notNull().default('now'),
    scheduledFor: text('scheduled_for'),
    publishedAt: text('published_at'),
    /** Taken down on its network through Herald (DELETE /microblog/publications/:id). */
    deletedAt: text('deleted_at'),
    /** Last edited on its network through Herald (PUT /microblog/publications/:id). */
    editedAt: text('edited_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('publications_draft_idx').on(t.draftId),
    index('publications_job_idx').on(t.jobId),
    index('publications_user_idx').on(t.userId),
  ],
);

/** One row per post of a thread; `sending` is committed before the network call. */
export const publicationParts = sqliteTable(
  'publication_parts',
  {
    id: text('id').primaryKey(),
    publicationId: text('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    status: text('status').notNull().default('pending'),
    /** The exact text and media sent, frozen when the publication is planned. */
    text: text('text').notNull().default(''),
    media: text('media').notNull().default('[]'),
    networkId: text('network_id'),
    networkCid: text('network_cid'),
    url: text('url'),
    idempotencyKey: text('idempotency_key').notNull(),
    error: text('error'),
    sentAt: text('sent_at'),
  },
  (t) => [uniqueIndex('publication_parts_pub_pos_unique').on(t.publicationId, t.position)],
);

export const scheduleEntries = sqliteTable(
  'schedule_entries',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    draftId: text('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    /** Real fire time (jitter applied), epoch milliseconds. */
    fireAt: integer('fire_at').notNull(),
    requestedAt: integer('requested_at').notNull(),
    priority: integer('priority').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    status: text('status').notNull().default('pending'),
    nextAttemptAt: integer('next_attempt_at'),
    /** When the scheduler should next look at it: fire_at, or the retry time. */
    dueAt: integer('due_at').notNull(),
    lastError: text('last_error'),
    /** What a pending entry waits for before its next attempt (docs/decisions.md §6): null, storage, network, ... */
    waitingFor: text('waiting_for'),
    /** Set when the queue placed it: the social set whose slot (requested_at) it holds. */
    queueSetId: text('queue_set_id'),
    /**
     * Handed off (docs/decisions.md §14): the network's id of the post it holds to publish itself (Mastodon's
     * ScheduledStatus).
     */
    networkScheduledId: text('network_scheduled_id'),
    /**
     * The instant the network holds it for; differs from fire_at once rescheduled in Herald until the network is told.
     */
    handedOffFor: integer('handed_off_for'),
    /**
     * Why the entry fires locally although it could have been handed off (a thread, the network
     * refused), shown in progress.
     */
    handOffNote: text('hand_off_note'),
    /**
     * Scheduled with `force` (docs/decisions.md §22): posts again to an account the draft was already
     * published to.
     */
    force: integer('force', { mode: 'boolean' }).notNull().default(false),
    /** The first post's text instead of the draft's (an evergreen repeat's variant for X, which refuses a repeat). */
    firstText: text('first_text'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('schedule_queue_idx').on(t.queueSetId, t.status, t.requestedAt),
    index('schedule_due_idx').on(t.status, t.dueAt),
    index('schedule_draft_idx').on(t.draftId),
    uniqueIndex('schedule_one_pending_unique')
      .on(t.draftId, t.accountId)
      .where(sql`status = 'pending'`),
    // The hand-off's look-ups stay cheap with 10,000 entries queued (hand-off.repo.ts): entries not yet
    // handed off nor kept local, by network and time; and the few handed off.
    index('schedule_hand_off_idx')
      .on(t.platform, t.fireAt)
      .where(sql`status = 'pending' AND network_scheduled_id IS NULL AND hand_off_note IS NULL`),
    index('schedule_handed_off_idx')
      .on(t.networkScheduledId)
      .where(sql`network_scheduled_id IS NOT NULL`),
  ],
);

/**
 * Posts scheduled on a network whose entry was cancelled in Herald: withdrawn from the network
 * (Mastodon: DELETE /api/v1/scheduled_statuses/:id), tried again until the network confirms.
 */
export const networkWithdrawals = sqliteTable('network_withdrawals', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  accountId: text('account_id').notNull(),
  platform: text('platform').notNull(),
  networkScheduledId: text('network_scheduled_id').notNull(),
  lastError: text('last_error'),
  createdAt: text('created_at').notNull(),
});

/**
 * Every request a post made on a network, written when its part is sent, in the same
 * transaction: what the quota gate counts in a network's rolling windows (per account and per
 * network), and what X charged for it (`cost_usd`, the price in force when it was sent, for the
 * month's spend). `kind` is `post` (a thread's first post) or `reply` (its later posts).
 * `at` is epoch milliseconds (range-scanned by window).
 */
export const postUsage = sqliteTable(
  'post_usage',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    partId: text('part_id'),
    kind: text('kind').notNull().default('post'),
    costUsd: real('cost_usd').notNull().default(0),
    at: integer('at').notNull(),
  },
  (t) => [
    index('post_usage_account_idx').on(t.accountId, t.at),
    index('post_usage_platform_idx').on(t.platform, t.at),
    index('post_usage_user_idx').on(t.userId, t.platform, t.at),
  ],
);
