/**
 * Connected network accounts (public facts only; tokens live in the secret store) and the
 * single-use OAuth states of the flows that connect them or sign users in.
 */
import type { Sqlite } from '../connection.js';
import type { accounts } from '../schema.js';
import { ACCOUNT_COLUMNS } from './columns.js';
import { lazyStatements } from './statements.js';

export type AccountRow = typeof accounts.$inferSelect;

/** What a network tells about an account, written on connect and on every reconnect. */
export type AccountProfile = Pick<
  AccountRow,
  'username' | 'displayName' | 'avatar' | 'status' | 'followersCount' | 'followingCount' | 'serverUrl' | 'meta'
>;

/** The columns of an AccountRow, for every statement that answers whole accounts. */

export class AccountsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      listOf: () => sqlite.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? ORDER BY created_at, id`),
      own: () => sqlite.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ? AND user_id = ?`),
      byId: () => sqlite.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`),
      // Lists of ids go in as one JSON parameter (json_each): one statement for any number of them.
      ownMany: () =>
        sqlite.prepare(
          `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
        ),
      ownIds: () =>
        sqlite.prepare('SELECT id FROM accounts WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))').pluck(),
      find: () =>
        sqlite.prepare(
          `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND platform = ? AND platform_user_id = ?`,
        ),
      firstOwner: () =>
        sqlite
          .prepare(
            'SELECT user_id FROM accounts WHERE platform = ? AND platform_user_id = ? ORDER BY created_at, id LIMIT 1',
          )
          .pluck(),
      insert: () =>
        sqlite.prepare(`INSERT INTO accounts (id, user_id, platform, platform_user_id, username, display_name, avatar,
                status, followers_count,
        following_count, server_url, meta, created_at) VALUES (@id, @userId, @platform, @platformUserId, @username,
                @displayName, @avatar, @status,
        @followersCount, @followingCount, @serverUrl, @meta, @createdAt)`),
      setProfile: () =>
        sqlite.prepare(`UPDATE accounts SET username = @username, display_name = @displayName, avatar = @avatar, status
                = @status,
        followers_count = @followersCount, following_count = @followingCount, server_url = @serverUrl, meta = @meta
                WHERE id = @id`),
      setCounts: () =>
        sqlite.prepare(`UPDATE accounts SET followers_count = @followersCount, following_count = @followingCount,
                display_name = @displayName,
        avatar = @avatar WHERE id = @id`),
      setStatus: () => sqlite.prepare('UPDATE accounts SET status = ? WHERE id = ?'),
      all: () => sqlite.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY created_at, id`),
      setMetaKey: () =>
        sqlite.prepare(
          "UPDATE accounts SET meta = json_set(CASE WHEN json_valid(meta) THEN meta ELSE '{}' END, '$.' || " +
            '@key, json(@value)) WHERE id = @id',
        ),
      delete: () => sqlite.prepare('DELETE FROM accounts WHERE id = ?'),
    });
  }

  /** Oldest first. */
  listOf(userId: string): AccountRow[] {
    return this.s.listOf.all(userId) as AccountRow[];
  }

  own(userId: string, id: string): AccountRow | undefined {
    return this.s.own.get(id, userId) as AccountRow | undefined;
  }

  byId(id: string): AccountRow | undefined {
    return this.s.byId.get(id) as AccountRow | undefined;
  }

  /** The user's accounts among `ids`, in no particular order. */
  ownMany(userId: string, ids: string[]): AccountRow[] {
    return this.s.ownMany.all(userId, JSON.stringify(ids)) as AccountRow[];
  }

  /** The ids among `ids` that are the user's accounts, in no particular order. */
  ownIds(userId: string, ids: string[]): string[] {
    return this.s.ownIds.all(userId, JSON.stringify(ids)) as string[];
  }

  /** The user's connection of this network account, if any. */
  find(userId: string, platform: string, platformUserId: string): AccountRow | undefined {
    return this.s.find.get(userId, platform, platformUserId) as AccountRow | undefined;
  }

  /** The user who connected this network account first. */
  firstOwner(platform: string, platformUserId: string): string | undefined {
    return this.s.firstOwner.get(platform, platformUserId) as string | undefined;
  }

  insert(row: AccountRow): void {
    this.s.insert.run(row);
  }

  setProfile(id: string, profile: AccountProfile): void {
    this.s.setProfile.run({ ...profile, id });
  }

  setCounts(id: string, c: Pick<AccountRow, 'followersCount' | 'followingCount' | 'displayName' | 'avatar'>): void {
    this.s.setCounts.run({
      followersCount: c.followersCount,
      followingCount: c.followingCount,
      displayName: c.displayName,
      avatar: c.avatar,
      id,
    });
  }

  setStatus(id: string, status: string): void {
    this.s.setStatus.run(status, id);
  }

  /** Every account of every user (the daily credential check). */
  all(): AccountRow[] {
    return this.s.all.all() as AccountRow[];
  }

  /** Sets one public fact in `meta` (`token`: expiry and renewal facts; `rateLimitedUntil`), leaving the others. */
  setMetaFact(id: string, key: 'token' | 'rateLimitedUntil', value: unknown): void {
    this.s.setMetaKey.run({ id, key, value: JSON.stringify(value) });
  }

  /** Gone from every social set too (foreign keys). */
  delete(id: string): void {
    this.s.delete.run(id);
  }
}

/** OAuth flow states, stored as hashes: single use, short-lived. */
export class OAuthStatesRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      insert: () =>
        sqlite.prepare(
          'INSERT INTO oauth_states (state_hash, purpose, data, expires_at, created_at) VALUES (?, ?, ?, ?, ?)',
        ),
      // One statement checks and burns the state, so two callbacks with it cannot both pass.
      consume: () =>
        sqlite
          .prepare(
            'UPDATE oauth_states SET used_at = ? WHERE state_hash = ? AND purpose = ? AND used_at IS NULL ' +
              'AND expires_at > ? RETURNING data',
          )
          .pluck(),
      purge: () => sqlite.prepare('DELETE FROM oauth_states WHERE expires_at < ?'),
    });
  }

  insert(row: { stateHash: string; purpose: string; data: string; expiresAt: string; createdAt: string }): void {
    this.s.insert.run(row.stateHash, row.purpose, row.data, row.expiresAt, row.createdAt);
  }

  /** Marks the state used at `now` and answers its data, or undefined if unknown, used or expired. */
  consume(stateHash: string, purpose: string, now: string): string | undefined {
    return this.s.consume.get(now, stateHash, purpose, now) as string | undefined;
  }

  /** Forgets states that expired before `before`. */
  purge(before: string): void {
    this.s.purge.run(before);
  }
}
