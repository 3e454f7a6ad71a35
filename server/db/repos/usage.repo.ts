/**
 * Requests posts made on the networks (post_usage): one row per part sent, written in the
 * transaction that marks the part sent. The quota gate counts them in rolling windows; X's rows
 * carry what the request cost, summed for the month's spend.
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface UsageRow {
  userId: string;
  accountId: string;
  platform: string;
  partId: string | null;
  /** `read`: an X metrics read (priced, in the spend; never counted against posting caps). */
  kind: 'post' | 'reply' | 'read';
  costUsd: number;
  at: number;
}

export class UsageRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      insert: () =>
        db.prepare(`INSERT INTO post_usage (user_id, account_id, platform, part_id, kind, cost_usd, at)
        VALUES (@userId, @accountId, @platform, @partId, @kind, @costUsd, @at)`),
      // The gate counts a window (an index range) and, only when it is full, reads the times in
      // it: reading 10,000 times of X's per-app day before every post cost the scheduler dearly.
      accountCount: () =>
        db
          .prepare(
            "SELECT COUNT(*) FROM post_usage WHERE account_id = ? AND at > ? AND kind != 'read' AND (? IS " +
              'NULL OR kind = ?)',
          )
          .pluck(),
      platformCount: () =>
        db.prepare("SELECT COUNT(*) FROM post_usage WHERE platform = ? AND at > ? AND kind != 'read'").pluck(),
      accountTimes: () =>
        db
          .prepare(
            "SELECT at FROM post_usage WHERE account_id = ? AND at > ? AND kind != 'read' AND (? IS NULL OR " +
              'kind = ?) ORDER BY at',
          )
          .pluck(),
      platformTimes: () =>
        db.prepare("SELECT at FROM post_usage WHERE platform = ? AND at > ? AND kind != 'read' ORDER BY at").pluck(),
      spend: () =>
        db
          .prepare(
            'SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM post_usage WHERE user_id = ? AND platform = ? AND ' +
              'at >= ? AND at < ?',
          )
          .pluck(),
    });
  }

  record(row: UsageRow): void {
    this.s.insert.run(row);
  }

  /** How many requests the account made after `since` (only `kind` when given). */
  accountCount(accountId: string, since: number, kind?: 'post' | 'reply'): number {
    return this.s.accountCount.get(accountId, since, kind ?? null, kind ?? null) as number;
  }

  /** How many requests every account of this install made to the network after `since`. */
  platformCount(platform: string, since: number): number {
    return this.s.platformCount.get(platform, since) as number;
  }

  /** When each request of the account after `since` was made (only `kind` when given), oldest first. */
  accountTimes(accountId: string, since: number, kind?: 'post' | 'reply'): number[] {
    return this.s.accountTimes.all(accountId, since, kind ?? null, kind ?? null) as number[];
  }

  /** When each request to the network after `since` was made (every account of this install), oldest first. */
  platformTimes(platform: string, since: number): number[] {
    return this.s.platformTimes.all(platform, since) as number[];
  }

  /** What the user's requests to `platform` in [from, to) cost, USD. */
  spend(userId: string, platform: string, from: number, to: number): number {
    return this.s.spend.get(userId, platform, from, to) as number;
  }
}
