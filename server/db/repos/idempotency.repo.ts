/** Idempotency keys: the first answer to a request, per user and key (docs/decisions.md §10). */
import type { Sqlite } from '../connection.js';
import type { idempotencyKeys } from '../schema.js';
import { lazyStatements } from './statements.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

const COLUMNS = `user_id AS userId, key, fingerprint, state, owner, status, content_type AS contentType, body,
  created_at AS createdAt, expires_at AS expiresAt`;

export class IdempotencyRepo {
  private readonly s;

  constructor(private readonly sqlite: Sqlite) {
    this.s = lazyStatements({
      get: () => sqlite.prepare(`SELECT ${COLUMNS} FROM idempotency_keys WHERE user_id = ? AND key = ?`),
      insert: () =>
        sqlite.prepare(`INSERT INTO idempotency_keys (user_id, key, fingerprint, state, owner, created_at, expires_at)
        VALUES (@userId, @key, @fingerprint, 'running', @owner, @createdAt, @expiresAt)`),
      remove: () => sqlite.prepare('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?'),
      // Only the row this request holds: a request that lost its row (expired, taken over) writes nothing.
      complete: () =>
        sqlite.prepare(`UPDATE idempotency_keys SET state = 'done', status = @status, content_type = @contentType, body
                = @body
        WHERE user_id = @userId AND key = @key AND owner = @owner AND created_at = @createdAt AND state = 'running'`),
      release: () =>
        sqlite.prepare(
          `DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND owner = ? AND created_at = ? AND state =
                        'running'`,
        ),
      purge: () => sqlite.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?'),
    });
  }

  get(userId: string, key: string): IdempotencyRow | undefined {
    return this.s.get.get(userId, key) as IdempotencyRow | undefined;
  }

  /**
   * Looks the key up and, through `decide`, keeps, replaces or claims it, all under the write lock:
   * two processes on one data folder cannot both claim a key.
   */
  claim<T>(
    userId: string,
    key: string,
    decide: (row: IdempotencyRow | undefined) => {
      replace?: boolean;
      insert?: Pick<IdempotencyRow, 'fingerprint' | 'owner' | 'createdAt' | 'expiresAt'>;
      result: T;
    },
  ): T {
    return this.sqlite
      .transaction(() => {
        const row = this.get(userId, key);
        const d = decide(row);
        if (d.replace && row) this.s.remove.run(userId, key);
        if (d.insert) this.s.insert.run({ userId, key, ...d.insert });
        return d.result;
      })
      .immediate();
  }

  complete(row: {
    userId: string;
    key: string;
    owner: string;
    createdAt: number;
    status: number;
    contentType: string | null;
    body: string;
  }): boolean {
    return this.s.complete.run(row).changes > 0;
  }

  release(userId: string, key: string, owner: string, createdAt: number): void {
    this.s.release.run(userId, key, owner, createdAt);
  }

  /** Removes every row expired at `now`; answers how many. */
  purge(now: number): number {
    return this.s.purge.run(now).changes;
  }
}
