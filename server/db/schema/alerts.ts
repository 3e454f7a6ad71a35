/**
 * Alerts (docs/decisions.md, Alerts): where a user's alerts go, what was sent to each, and the
 * upkeep notices already told. The destination's URL and HMAC key live in the secret store; the
 * row keeps only the URL with its credentials masked.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users.js';

export const alerts = sqliteTable(
  'alerts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ntfy, gotify, telegram, discord, matrix, generic. */
    kind: text('kind').notNull(),
    /** The URL as shown: credentials masked. */
    shownUrl: text('shown_url').notNull(),
    /** JSON array of event types. */
    events: text('events').notNull(),
    hasSecret: integer('has_secret').notNull().default(0),
    /** The newest event id already turned into deliveries (only events after the alert's creation are sent). */
    seenEventId: integer('seen_event_id').notNull().default(0),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('alerts_user_idx').on(t.userId)],
);

/**
 * One row per alert and event: the unique pair is what keeps an event from being sent twice, also
 * by two servers on one data folder. A sender claims a row by setting `claimed_until` in one
 * UPDATE; times are epoch milliseconds. event_id is null for a test message.
 */
export const alertDeliveries = sqliteTable(
  'alert_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    alertId: text('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    eventId: integer('event_id'),
    eventType: text('event_type').notNull(),
    /** JSON of what is sent. */
    payload: text('payload').notNull(),
    /** pending, sent, failed (given up after the last retry). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: integer('next_at').notNull(),
    claimedUntil: integer('claimed_until'),
    lastError: text('last_error'),
    /** When the last attempt ended. */
    doneAt: integer('done_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('alert_deliveries_event_unique').on(t.alertId, t.eventId),
    index('alert_deliveries_due_idx').on(t.status, t.nextAt),
  ],
);

/** Upkeep notices told once (a credits month running low, an account's expiry, an API version's end). */
export const alertNotices = sqliteTable(
  'alert_notices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
