/**
 * The credit ledger: append-only, so rows are inserted and read, never updated or deleted. The
 * sums run on every GET /me and every charge; they are prepared once.
 */
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../connection.js';
import type { creditLedger } from '../schema.js';
import { lazyStatements } from './statements.js';

/** source_type of the adjustments a change of the monthly grant writes (they expire with the grant). */
export const GRANT_CHANGE = 'grant_change';

export type LedgerRow = typeof creditLedger.$inferSelect;
export type NewLedgerRow = Omit<LedgerRow, 'id'>;

export interface LedgerFilter {
  transType?: string;
  /** ISO instants: createdAt ≥ from, createdAt < to. */
  from?: string;
  to?: string;
}

const COLUMNS = `id, user_id AS userId, trans_no AS transNo, trans_type AS transType, credits, order_no AS orderNo,
    source_type AS sourceType,
  source_detail AS sourceDetail, period, expired_at AS expiredAt, created_at AS createdAt`;

export class CreditsRepo {
  private readonly s;
  /** One pair of statements per combination of filters, each with a plain plan. */
  private readonly pages = new Map<string, { count: Statement; page: Statement }>();

  constructor(private readonly sqlite: Sqlite) {
    this.s = lazyStatements({
      fullSum: () =>
        sqlite.prepare(
          'SELECT COALESCE(SUM(credits), 0) AS total, COALESCE(MAX(id), 0) AS upto FROM credit_ledger WHERE ' +
            'user_id = ?',
        ),
      // `+user_id`: the id range, not a user index (which would visit every row of the user's).
      tailSum: () =>
        sqlite.prepare(
          'SELECT COALESCE(SUM(credits), 0) AS total, MAX(id) AS upto, COUNT(*) AS n FROM credit_ledger ' +
            'WHERE id > ? AND +user_id = ?',
        ),
      insert: () =>
        sqlite.prepare(`INSERT INTO credit_ledger (user_id, trans_no, trans_type, credits, order_no, source_type,
                source_detail, period, expired_at, created_at)
        VALUES (@userId, @transNo, @transType, @credits, @orderNo, @sourceType, @sourceDetail, @period, @expiredAt,
                @createdAt) RETURNING ${COLUMNS}`),
      grant: () =>
        sqlite.prepare(
          `SELECT ${COLUMNS} FROM credit_ledger WHERE user_id = ? AND trans_type = 'grant' AND period = ?`,
        ),
      lastGrant: () =>
        sqlite.prepare(
          `SELECT ${COLUMNS} FROM credit_ledger WHERE user_id = ? AND trans_type = 'grant' ORDER BY id DESC`,
        ),
      // The schedule's pending entries, each a charge to come (read for the credit outlook).
      scheduled: () =>
        sqlite
          .prepare("SELECT COUNT(*) FROM schedule_entries WHERE user_id = ? AND status IN ('pending', 'claimed')")
          .pluck(),
      // `except`: a draft scheduled again replaces its own entries, so they are not counted twice.
      scheduledBefore: () =>
        sqlite
          .prepare(
            `SELECT COUNT(*) FROM schedule_entries
        WHERE user_id = @userId AND status IN ('pending', 'claimed') AND fire_at >= @from AND fire_at < @to
        AND draft_id IS NOT @except`,
          )
          .pluck(),
      // A grant's changes name it in order_no (a period on them would collide with the one-per-period index).
      // The largest rowid: at least as many as the entries there are now, found without a count.
      entriesBound: () => sqlite.prepare('SELECT COALESCE(MAX(rowid), 0) FROM schedule_entries').pluck(),
      grantChanges: () =>
        sqlite
          .prepare(
            `SELECT COALESCE(SUM(credits), 0) FROM credit_ledger
        WHERE user_id = ? AND order_no = ? AND trans_type = 'adjustment' AND source_type = '${GRANT_CHANGE}'`,
          )
          .pluck(),
      grantedUsers: () =>
        sqlite.prepare("SELECT user_id FROM credit_ledger WHERE trans_type = 'grant' AND period = ?").pluck(),
    });
  }

  /** The user's whole ledger: its sum and its last row id. */
  fullSum(userId: string): { total: number; upto: number } {
    return this.s.fullSum.get(userId) as { total: number; upto: number };
  }

  /** The user's rows after row `afterId`: their sum, last id (null if none) and count. */
  tailSum(userId: string, afterId: number): { total: number; upto: number | null; n: number } {
    return this.s.tailSum.get(afterId, userId) as { total: number; upto: number | null; n: number };
  }

  insert(row: NewLedgerRow): LedgerRow {
    return this.s.insert.get(row) as LedgerRow;
  }

  /** The user's grant for this month (YYYY-MM), if written. */
  grant(userId: string, period: string): LedgerRow | undefined {
    return this.s.grant.get(userId, period) as LedgerRow | undefined;
  }

  lastGrant(userId: string): LedgerRow | undefined {
    return this.s.lastGrant.get(userId) as LedgerRow | undefined;
  }

  /** Entries of the schedule still to fire for this user. */
  scheduledCount(userId: string): number {
    return this.s.scheduled.get(userId) as number;
  }

  /** Entries still to fire in [from, to) (ms), other than draft `except`'s. */
  scheduledBetween(userId: string, from: number, to: number, except: string | null = null): number {
    return this.s.scheduledBefore.get({ userId, from, to, except }) as number;
  }

  /** A bound on how many schedule entries there are (of every user and state), in O(log n). */
  entriesBound(): number {
    return this.s.entriesBound.get() as number;
  }

  /** What changes of the monthly grant added to (or took from) the grant whose trans_no is `grantNo`. */
  grantChanges(userId: string, grantNo: string): number {
    return this.s.grantChanges.get(userId, grantNo) as number;
  }

  /** The users whose grant for `period` is written. */
  grantedUsers(period: string): string[] {
    return this.s.grantedUsers.all(period) as string[];
  }

  /** One page of the user's ledger, newest first, and how many rows match in all. */
  page(userId: string, f: LedgerFilter, limit: number, offset: number): { total: number; rows: LedgerRow[] } {
    const terms = ['user_id = @userId'];
    if (f.transType !== undefined) terms.push('trans_type = @transType');
    if (f.from !== undefined) terms.push('created_at >= @from');
    if (f.to !== undefined) terms.push('created_at < @to');
    const where = terms.join(' AND ');
    let stmts = this.pages.get(where);
    if (!stmts) {
      stmts = {
        count: this.sqlite.prepare(`SELECT COUNT(*) FROM credit_ledger WHERE ${where}`).pluck(),
        page: this.sqlite.prepare(
          `SELECT ${COLUMNS} FROM credit_ledger WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET
                        @offset`,
        ),
      };
      this.pages.set(where, stmts);
    }
    const params: Record<string, unknown> = { userId };
    if (f.transType !== undefined) params.transType = f.transType;
    if (f.from !== undefined) params.from = f.from;
    if (f.to !== undefined) params.to = f.to;
    return {
      total: stmts.count.get(params) as number,
      rows: stmts.page.all({ ...params, limit, offset }) as LedgerRow[],
    };
  }
}
