/**
 * Who owns what: users, their API keys, their connected network accounts and the social sets that
 * group those accounts. Every other table hangs off `users.id`.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable(
  'users',
  {
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
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
  },
  (t) => [uniqueIndex('api_keys_hash_unique').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

export const socialSets = sqliteTable(
  'social_sets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    createdAt: text('created_at').notNull(),
    /** IANA zone the set's times are entered and shown in; null (sets made before zones) = the system's. */
    timeZone: text('time_zone'),
    /** Weekly queue slots, JSON `[{day: 1-7, time: "HH:MM"}]` in the set's zone, sorted. */
    slots: text('slots').notNull().default('[]'),
  },
  (t) => [index('social_sets_user_idx').on(t.userId)],
);

export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
  },
  (t) => [
    index('accounts_user_idx').on(t.userId),
    uniqueIndex('accounts_user_platform_uid_unique').on(t.userId, t.platform, t.platformUserId),
  ],
);

export const socialSetAccounts = sqliteTable(
  'social_set_accounts',
  {
    socialSetId: text('social_set_id')
      .notNull()
      .references(() => socialSets.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.socialSetId, t.accountId] }), index('ssa_account_idx').on(t.accountId)],
);
