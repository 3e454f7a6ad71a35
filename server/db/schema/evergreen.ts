/**
 * Evergreen drafts (docs/decisions.md, Evergreen): a draft's repeat settings beside it (its own
 * table, so the drafts' rows stay as they are), and each fill of a queue slot. A fill's slot is
 * unique per set: a fill turned back into an empty slot stays `cleared`, so the slot is not
 * filled again.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { drafts } from './content.js';
import { users } from './users.js';

export const evergreenDrafts = sqliteTable(
  'evergreen_drafts',
  {
    draftId: text('draft_id')
      .primaryKey()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    minDaysBetween: integer('min_days_between').notNull().default(30),
    /** null: no end. */
    maxRepeats: integer('max_repeats'),
    /** JSON array of alternative texts. */
    variants: text('variants').notNull().default('[]'),
    /** Why the last look could not fill with it (no network left that takes it), else null. */
    stalled: text('stalled'),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('evergreen_drafts_user_idx').on(t.userId)],
);

export const evergreenFills = sqliteTable(
  'evergreen_fills',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    draftId: text('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    setId: text('set_id').notNull(),
    /** The slot's instant, epoch ms. */
    slotAt: integer('slot_at').notNull(),
    /** queued (it holds the slot, or fired from it), cleared (turned back into an empty slot). */
    status: text('status').notNull().default('queued'),
    /** JSON [{accountId, platform, reason}] of networks skipped for this repeat. */
    skipped: text('skipped').notNull().default('[]'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('evergreen_fills_slot_unique').on(t.setId, t.slotAt),
    index('evergreen_fills_draft_idx').on(t.draftId),
  ],
);
