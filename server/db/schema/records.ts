/**
 * Bookkeeping around requests: the credit ledger, OAuth flow state, idempotency keys and the
 * event stream clients resume from.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users.js';

/** Append-only: rows are never updated or deleted, so the balance is always the ledger's sum. */
export const creditLedger = sqliteTable(
  'credit_ledger',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
  },
  (t) => [
    index('credit_ledger_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('credit_ledger_trans_no_unique').on(t.transNo),
    uniqueIndex('credit_ledger_grant_period_unique').on(t.userId, t.transType, t.period),
  ],
);

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
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state').notNull().default('running'),
    owner: text('owner').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * The event stream (GET /events): one row per state change of a post and per credits change,
 * written in the same transaction as the change. Ids only grow (AUTOINCREMENT), so a client
 * resumes after the last id it saw; rows are kept 7 days.
 */
export const events = sqliteTable(
  'events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** JSON of the event's data, `at` included. */
    data: text('data').notNull(),
    /** Epoch milliseconds (the purge range-scans it). */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('events_user_idx').on(t.userId, t.id), index('events_created_idx').on(t.createdAt)],
);
