/**
 * What a user writes: drafts with their posts (`tweets`) and per-network texts, templates and the
 * media library.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { socialSets, users } from './users.js';

export const templates = sqliteTable(
  'templates',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    headPlain: text('head_plain').notNull().default(''),
    tailPlain: text('tail_plain').notNull().default(''),
    headHtml: text('head_html').notNull().default(''),
    tailHtml: text('tail_html').notNull().default(''),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('templates_user_idx').on(t.userId)],
);

export const drafts = sqliteTable(
  'drafts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    /** Post options as JSON (docs/decisions.md §11); null = none. */
    options: text('options'),
  },
  (t) => [index('drafts_user_created_idx').on(t.userId, t.createdAt)],
);

export const tweets = sqliteTable(
  'tweets',
  {
    id: text('id').primaryKey(),
    draftId: text('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: text('content').notNull(),
    plainText: text('plain_text').notNull(),
    /** JSON array of {mediaId, altText?}. */
    media: text('media').notNull().default('[]'),
  },
  (t) => [index('tweets_draft_pos_idx').on(t.draftId, t.position)],
);

export const platformContents = sqliteTable(
  'platform_contents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    draftId: text('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    content: text('content').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('platform_contents_draft_platform_unique').on(t.draftId, t.platform)],
);

export const media = sqliteTable(
  'media',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    type: text('type').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    altText: text('alt_text').notNull().default(''),
    createdAt: text('created_at').notNull(),
    /** Shown by LinkedIn for documents and videos; the uploaded file's name unless given. */
    title: text('title').notNull().default(''),
    /** JSON array of {lang, vtt}. */
    captions: text('captions').notNull().default('[]'),
    /** Videos: the movie header's duration. */
    durationMs: integer('duration_ms'),
    /** Documents: the PDF's page count. */
    pages: integer('pages'),
  },
  (t) => [index('media_user_idx').on(t.userId)],
);
