/**
 * Users and their API keys. The key lookup runs on every keyed request and byId on most, so all
 * statements are prepared once here (a drizzle query built per call costs more than the lookup).
 */
import type { Sqlite } from '../connection.js';
import type { apiKeys, users } from '../schema.js';
import { lazyStatements } from './statements.js';

export type UserRow = typeof users.$inferSelect;
export type KeyRow = typeof apiKeys.$inferSelect;

/** A key with its user, as the key lookup answers it (`sliding` is SQLite's 0 or 1). */
export type KeyLookupRow = UserRow & {
  keyId: string;
  tier: string;
  status: string;
  lastUsed: string | null;
  expiresAt: string | null;
  sliding: number;
};

/** The columns of a UserRow (`u` is the users table's alias). */
const USER_COLUMNS = `u.id, u.email, u.password_hash AS passwordHash, u.nickname, u.avatar_url AS avatarUrl, u.timezone,
    u.locale,
  u.provider, u.default_tier AS defaultTier, u.created_at AS createdAt`;
const KEY_COLUMNS = `id, user_id AS userId, name, key_hash AS keyHash, preview, status, tier, last_used AS lastUsed,
    created_at AS createdAt,
  expires_at AS expiresAt, sliding`;

export class UsersRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      count: () => sqlite.prepare('SELECT COUNT(*) FROM users').pluck(),
      byId: () => sqlite.prepare(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`),
      byEmail: () => sqlite.prepare(`SELECT ${USER_COLUMNS} FROM users u WHERE u.email = ?`),
      owner: () => sqlite.prepare('SELECT id FROM users ORDER BY created_at, id LIMIT 1').pluck(),
      timezone: () => sqlite.prepare('SELECT timezone FROM users WHERE id = ?').pluck(),
      setTimezoneAll: () => sqlite.prepare('UPDATE users SET timezone = ?'),
      insert: () =>
        sqlite.prepare(`INSERT INTO users (id, email, password_hash, nickname, avatar_url, timezone, locale, provider,
                default_tier, created_at)
        VALUES (@id, @email, @passwordHash, @nickname, @avatarUrl, @timezone, @locale, @provider, @defaultTier,
                @createdAt)`),
      rehash: () => sqlite.prepare('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?'),
    });
  }

  count(): number {
    return this.s.count.get() as number;
  }

  byId(id: string): UserRow | undefined {
    return this.s.byId.get(id) as UserRow | undefined;
  }

  /** `email` as stored (normalised by the caller). */
  byEmail(email: string): UserRow | undefined {
    return this.s.byEmail.get(email) as UserRow | undefined;
  }

  /** The install's owner: its first user. */
  ownerId(): string | undefined {
    return this.s.owner.get() as string | undefined;
  }

  timezone(id: string): string | undefined {
    return this.s.timezone.get(id) as string | undefined;
  }

  /** The zone column of every user (the install has one zone setting). */
  setTimezoneAll(zone: string): void {
    this.s.setTimezoneAll.run(zone);
  }

  insert(row: UserRow): void {
    this.s.insert.run(row);
  }

  /** Replaces the hash only if it is still `old` (the password was not changed meanwhile). */
  replacePasswordHash(id: string, old: string, next: string): void {
    this.s.rehash.run(next, id, old);
  }
}

export class KeysRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      // The key and its user in one statement.
      lookup: () =>
        sqlite.prepare(`SELECT k.id AS keyId, k.tier AS tier, k.status AS status, k.last_used AS lastUsed, k.expires_at
                AS expiresAt,
        k.sliding AS sliding, ${USER_COLUMNS} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`),
      touch: () => sqlite.prepare("UPDATE api_keys SET last_used = ?, status = 'active' WHERE id = ?"),
      extend: () => sqlite.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?'),
      insert: () =>
        sqlite.prepare(`INSERT INTO api_keys (id, user_id, name, key_hash, preview, status, tier, last_used, created_at,
                expires_at, sliding)
        VALUES (@id, @userId, @name, @keyHash, @preview, @status, @tier, @lastUsed, @createdAt, @expiresAt, @sliding)`),
      dropExpiredSessions: () =>
        sqlite.prepare(
          'DELETE FROM api_keys WHERE user_id = ? AND sliding = 1 AND expires_at IS NOT NULL AND expires_at <= ?',
        ),
      countLasting: () => sqlite.prepare('SELECT COUNT(*) FROM api_keys WHERE user_id = ? AND sliding = 0').pluck(),
      listOf: () => sqlite.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = ? ORDER BY created_at DESC`),
      delete: () => sqlite.prepare('DELETE FROM api_keys WHERE id = ? AND user_id = ?'),
    });
  }

  lookup(keyHash: string): KeyLookupRow | undefined {
    return this.s.lookup.get(keyHash) as KeyLookupRow | undefined;
  }

  touch(id: string, lastUsed: string): void {
    this.s.touch.run(lastUsed, id);
  }

  extend(id: string, expiresAt: string): void {
    this.s.extend.run(expiresAt, id);
  }

  insert(row: KeyRow): void {
    this.s.insert.run({ ...row, sliding: row.sliding ? 1 : 0 });
  }

  /** Removes the user's sign-in sessions that expired at or before `at`. */
  dropExpiredSessions(userId: string, at: string): void {
    this.s.dropExpiredSessions.run(userId, at);
  }

  /** Keys that are not sign-in sessions. */
  countLasting(userId: string): number {
    return this.s.countLasting.get(userId) as number;
  }

  /** Newest first. */
  listOf(userId: string): KeyRow[] {
    return (this.s.listOf.all(userId) as (Omit<KeyRow, 'sliding'> & { sliding: number })[]).map((k) => ({
      ...k,
      sliding: k.sliding === 1,
    }));
  }

  /** Answers whether a key was deleted. */
  delete(userId: string, id: string): boolean {
    return this.s.delete.run(id, userId).changes > 0;
  }
}
