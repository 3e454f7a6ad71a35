/**
 * The whole SQLite schema (drizzle). Every row that belongs to someone carries `user_id`, and
 * every repo query filters by it: users never see each other's data.
 *
 * Timestamps are ISO 8601 strings from `Date#toISOString()` (fixed width, so they sort as text),
 * except scheduler times, which are integer milliseconds because the queue is ordered and
 * range-scanned by them.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  passwordHash: text('password_hash'),
  nickname: text('nickname').notNull().default(''),
  avatarUrl: text('avatar_url').notNull().default(''),
  timezone: text('timezone').notNull().default('UTC'),
  locale: text('locale').notNull().default('en'),
  provider: text('provider').notNull().default('password'),
  defaultTier: text('default_tier').notNull().default('pro'),
  createdAt: text('created_at').notNull(),
}, (t) => [uniqueIndex('users_email_unique').on(t.email)]);

export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  keyHash: text('key_hash').notNull(),
  preview: text('preview').notNull(),
  status: text('status').notNull().default('created'),
  tier: text('tier').notNull(),
  lastUsed: text('last_used'),
  createdAt: text('created_at').notNull(),
  /** ISO instant after which the key answers TOKEN_EXPIRED; null never expires. */
  expiresAt: text('expires_at'),
  /** A sign-in session's key: its expiry moves forward as it is used (auth.service.ts). */
  sliding: integer('sliding', { mode: 'boolean' }).notNull().default(false),
}, (t) => [uniqueIndex('api_keys_hash_unique').on(t.keyHash), index('api_keys_user_idx').on(t.userId)]);

export const socialSets = sqliteTable('social_sets', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
  createdAt: text('created_at').notNull(),
  /** IANA zone the set's times are entered and shown in; null (sets made before zones) = the system's. */
  timeZone: text('time_zone'),
  /** Weekly queue slots, JSON `[{day: 1-7, time: "HH:MM"}]` in the set's zone, sorted. */
  slots: text('slots').notNull().default('[]'),
}, (t) => [index('social_sets_user_idx').on(t.userId)]);

export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  platform: text('platform').notNull(),
  platformUserId: text('platform_user_id').notNull(),
  username: text('username').notNull(),
  displayName: text('display_name').notNull().default(''),
  avatar: text('avatar').notNull().default(''),
  status: text('status').notNull().default('active'),
  followersCount: integer('followers_count').notNull().default(0),
  followingCount: integer('following_count').notNull().default(0),
  /** The account's own server where the network is decentralised (Mastodon instance, Bluesky PDS). */
  serverUrl: text('server_url'),
  /** Non-secret network facts (instance limits, person URN, ...) as JSON. Never tokens. */
  meta: text('meta').notNull().default('{}'),
  createdAt: text('created_at').notNull(),
}, (t) => [
  index('accounts_user_idx').on(t.userId),
  uniqueIndex('accounts_user_platform_uid_unique').on(t.userId, t.platform, t.platformUserId),
]);

export const socialSetAccounts = sqliteTable('social_set_accounts', {
  socialSetId: text('social_set_id').notNull().references(() => socialSets.id, { onDelete: 'cascade' }),
  accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  position: integer('position').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.socialSetId, t.accountId] }), index('ssa_account_idx').on(t.accountId)]);

export const templates = sqliteTable('templates', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  headPlain: text('head_plain').notNull().default(''),
  tailPlain: text('tail_plain').notNull().default(''),
  headHtml: text('head_html').notNull().default(''),
  tailHtml: text('tail_html').notNull().default(''),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
}, (t) => [index('templates_user_idx').on(t.userId)]);

/** Append-only: rows are never updated or deleted, so the balance is always the ledger's sum. */
export const creditLedger = sqliteTable('credit_ledger', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  transNo: text('trans_no').notNull(),
  transType: text('trans_type').notNull(),
  credits: integer('credits').notNull(),
  orderNo: text('order_no'),
  sourceType: text('source_type'),
  sourceDetail: text('source_detail').notNull().default(''),
  /** For a monthly grant: the month it belongs to (YYYY-MM in the user's time zone). */
  period: text('period'),
  expiredAt: text('expired_at'),
  createdAt: text('created_at').notNull(),
}, (t) => [
  index('credit_ledger_user_created_idx').on(t.userId, t.createdAt),
  uniqueIndex('credit_ledger_trans_no_unique').on(t.transNo),
  uniqueIndex('credit_ledger_grant_period_unique').on(t.userId, t.transType, t.period),
]);

export const drafts = sqliteTable('drafts', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  status: text('status').notNull().default('draft'),
  scheduledFor: text('scheduled_for'),
  socialSetId: text('social_set_id').references(() => socialSets.id, { onDelete: 'set null' }),
  selectedAccountIds: text('selected_account_ids').notNull().default('[]'),
  templateId: text('template_id'),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
  /** BCP 47 tag of the posts; null = the setting `defaultLanguage` (docs/decisions.md §16). */
  language: text('language'),
  /** The link card: null = the first URL of the first post, 'false' = none, else JSON `{url}`. */
  linkCard: text('link_card'),
}, (t) => [index('drafts_user_created_idx').on(t.userId, t.createdAt)]);

export const tweets = sqliteTable('tweets', {
  id: text('id').primaryKey(),
  draftId: text('draft_id').notNull().references(() => drafts.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  content: text('content').notNull(),
  plainText: text('plain_text').notNull(),
  /** JSON array of {mediaId, altText?}. */
  media: text('media').notNull().default('[]'),
}, (t) => [index('tweets_draft_pos_idx').on(t.draftId, t.position)]);

export const platformContents = sqliteTable('platform_contents', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  draftId: text('draft_id').notNull().references(() => drafts.id, { onDelete: 'cascade' }),
  platform: text('platform').notNull(),
  content: text('content').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
}, (t) => [uniqueIndex('platform_contents_draft_platform_unique').on(t.draftId, t.platform)]);

export const media = sqliteTable('media', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  type: text('type').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  width: integer('width'),
  height: integer('height'),
  altText: text('alt_text').notNull().default(''),
  createdAt: text('created_at').notNull(),
}, (t) => [index('media_user_idx').on(t.userId)]);

/** The outbox: one publication per (draft, account). */
export const publications = sqliteTable('publications', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
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
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
}, (t) => [
  index('publications_draft_idx').on(t.draftId),
  index('publications_job_idx').on(t.jobId),
  index('publications_user_idx').on(t.userId),
]);

/** One row per post of a thread; `sending` is committed before the network call. */
export const publicationParts = sqliteTable('publication_parts', {
  id: text('id').primaryKey(),
  publicationId: text('publication_id').notNull().references(() => publications.id, { onDelete: 'cascade' }),
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
}, (t) => [uniqueIndex('publication_parts_pub_pos_unique').on(t.publicationId, t.position)]);

export const scheduleEntries = sqliteTable('schedule_entries', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  draftId: text('draft_id').notNull().references(() => drafts.id, { onDelete: 'cascade' }),
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
  /** Handed off (docs/decisions.md §14): the network's id of the post it holds to publish itself (Mastodon's ScheduledStatus). */
  networkScheduledId: text('network_scheduled_id'),
  /** The instant the network holds it for; differs from fire_at once rescheduled in Herald until the network is told. */
  handedOffFor: integer('handed_off_for'),
  /** Why the entry fires locally although it could have been handed off (a thread, the network refused), shown in progress. */
  handOffNote: text('hand_off_note'),
  /** Scheduled with `force` (docs/decisions.md §22): posts again to an account the draft was already published to. */
  force: integer('force', { mode: 'boolean' }).notNull().default(false),
  createdAt: text('created_at').notNull(),
}, (t) => [
  index('schedule_queue_idx').on(t.queueSetId, t.status, t.requestedAt),
  index('schedule_due_idx').on(t.status, t.dueAt),
  index('schedule_draft_idx').on(t.draftId),
  uniqueIndex('schedule_one_pending_unique').on(t.draftId, t.accountId).where(sql`status = 'pending'`),
  // The hand-off's look-ups stay cheap with 10,000 entries queued (hand-off.repo.ts): entries not yet
  // handed off nor kept local, by network and time; and the few handed off.
  index('schedule_hand_off_idx').on(t.platform, t.fireAt).where(sql`status = 'pending' AND network_scheduled_id IS NULL AND hand_off_note IS NULL`),
  index('schedule_handed_off_idx').on(t.networkScheduledId).where(sql`network_scheduled_id IS NOT NULL`),
]);

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

/** OAuth flow state: single use, short-lived. Only a hash of the state is stored. */
export const oauthStates = sqliteTable('oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  purpose: text('purpose').notNull(),
  data: text('data').notNull().default('{}'),
  expiresAt: text('expires_at').notNull(),
  usedAt: text('used_at'),
  createdAt: text('created_at').notNull(),
});

/**
 * Idempotency keys (docs/decisions.md §10): one row per user and `Idempotency-Key`, kept 24 h. `fingerprint`
 * is a SHA-256 of method, path and body (never the body itself); while the first request runs the
 * row is `running` with its `owner` (process id and server instance), then `done` with the
 * answer to replay. Times are epoch milliseconds (range-scanned by the purge).
 */
export const idempotencyKeys = sqliteTable('idempotency_keys', {
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  fingerprint: text('fingerprint').notNull(),
  state: text('state').notNull().default('running'),
  owner: text('owner').notNull(),
  status: integer('status'),
  contentType: text('content_type'),
  body: text('body'),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.userId, t.key] }),
  index('idempotency_keys_expires_idx').on(t.expiresAt),
]);

/**
 * The event stream (GET /events): one row per state change of a post and per credits change,
 * written in the same transaction as the change. Ids only grow (AUTOINCREMENT), so a client
 * resumes after the last id it saw; rows are kept 7 days.
 */
export const events = sqliteTable('events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  /** JSON of the event's data, `at` included. */
  data: text('data').notNull(),
  /** Epoch milliseconds (the purge range-scans it). */
  createdAt: integer('created_at').notNull(),
}, (t) => [index('events_user_idx').on(t.userId, t.id), index('events_created_idx').on(t.createdAt)]);

/**
 * Every request a post made on a network, written when its part is sent, in the same
 * transaction: what the quota gate counts in a network's rolling windows (per account and per
 * network), and what X charged for it (`cost_usd`, the price in force when it was sent, for the
 * month's spend). `kind` is `post` (a thread's first post) or `reply` (its later posts).
 * `at` is epoch milliseconds (range-scanned by window).
 */
export const postUsage = sqliteTable('post_usage', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  accountId: text('account_id').notNull(),
  platform: text('platform').notNull(),
  partId: text('part_id'),
  kind: text('kind').notNull().default('post'),
  costUsd: real('cost_usd').notNull().default(0),
  at: integer('at').notNull(),
}, (t) => [
  index('post_usage_account_idx').on(t.accountId, t.at),
  index('post_usage_platform_idx').on(t.platform, t.at),
  index('post_usage_user_idx').on(t.userId, t.platform, t.at),
]);
