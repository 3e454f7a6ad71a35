/**
 * Credits are an append-only ledger; the balance is always its sum. The monthly grant is
 * written lazily, the first time credits are looked at in a new month, and what is left of the
 * previous grant then expires through an `adjustment` record.
 */
import { creditsWarningText } from '../../../text/status-text.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { UntilChanged } from '../../db/change-token.js';
import type { CreditsRepo, LedgerFilter, LedgerRow as Row } from '../../db/repos/credits.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import type { UsersRepo } from '../../db/repos/users-keys.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { EventsService } from '../events/events.service.js';
import { currentMonth, safeTimeZone } from './months.js';

export type TransType = 'grant' | 'publish' | 'refund' | 'adjustment';

export const PUBLISH_COST = 10;

export interface UsageFilter {
  page: number;
  limit: number;
  start_date?: string;
  end_date?: string;
  trans_type?: TransType;
}

export class CreditsService {
  /** Balances, kept while the database is unchanged (every charge, refund or grant moves it). */
  private readonly sums: UntilChanged<string, number>;
  private readonly ledger: CreditsRepo;
  private readonly tx: Transactions;
  /** Per user, the ledger's sum up to a committed row id (see ledgerSum). */
  private readonly bases = new Map<string, { total: number; upto: number }>();
  /**
   * The month whose grant each user is known to have (grants are never deleted), so reading the
   * balance, which GET /me does on every call, is no write transaction once the month's grant is in.
   */
  private readonly granted = new Map<string, { period: string; expiresAt: string }>();

  constructor(private readonly deps: Deps, private readonly repos: { credits: CreditsRepo; users: UsersRepo; tx: Transactions }, private readonly events: EventsService) {
    this.ledger = repos.credits;
    this.tx = repos.tx;
    this.sums = repos.tx.untilChanged(10_000);
  }

  /**
   * The balance against what is scheduled: each pending entry costs one publish when it fires,
   * and one that fires short of credits fails. The UI warns from this before that happens.
   */
  outlook(userId: string, timezone?: string) {
    const { balance, expiresAt } = this.balance(userId, timezone);
    const n = this.ledger.scheduledCount(userId);
    const covers = Math.floor(Math.max(0, balance) / PUBLISH_COST);
    return { balance, expiresAt, scheduled: { posts: n, credits: n * PUBLISH_COST }, covers, warning: creditsWarningText({ balance, costPerPost: PUBLISH_COST, scheduledPosts: n }) };
  }

  private sum(userId: string): number {
    return this.sums.get(userId, () => this.ledgerSum(userId));
  }

  /**
   * The ledger's sum for a user. The ledger is append-only and its ids only grow (AUTOINCREMENT,
   * one writer at a time), so the sum of the rows up to a committed id never changes: it is kept
   * per user and only the rows after it are added up, by id range. Without it every charge (and,
   * while publishing writes, every GET /me) summed the user's whole history: ~1 ms at 15,000 rows,
   * twice per scheduled post. The kept part is taken only outside a transaction, so a rollback
   * cannot leave rows in it that are not there.
   */
  private ledgerSum(userId: string): number {
    const base = this.bases.get(userId);
    if (!base) {
      const full = this.ledger.fullSum(userId);
      if (!this.tx.active) this.bases.set(userId, full);
      return full.total;
    }
    const tail = this.ledger.tailSum(userId, base.upto);
    if (tail.n >= 64 && tail.upto !== null && !this.tx.active) this.bases.set(userId, { total: base.total + tail.total, upto: tail.upto });
    return base.total + tail.total;
  }

  private insert(row: Omit<Row, 'id' | 'createdAt' | 'transNo' | 'period' | 'expiredAt' | 'orderNo' | 'sourceType' | 'sourceDetail'> & Partial<Row>): Row {
    const full = {
      transNo: row.transNo ?? `T${this.deps.clock.now()}${this.deps.ids.token(6)}`,
      createdAt: nowIso(this.deps.clock),
      orderNo: null, sourceType: null, sourceDetail: '', period: null, expiredAt: null,
      ...row,
    };
    // Every ledger row moves the balance: its event goes in the same transaction as the row.
    return this.tx.run(() => {
      const inserted = this.ledger.insert(full);
      this.events.record(row.userId, 'credits.changed', { balance: this.ledgerSum(row.userId), change: row.credits, reason: row.transType });
      return inserted;
    });
  }

  /**
   * Writes this month's grant if it is missing, expiring the last one's remainder first. Callers
   * that hold the user's row pass its time zone, which saves looking it up.
   */
  ensureGrant(userId: string, timezone?: string): { expiresAt: string } {
    const tz = timezone ?? this.repos.users.timezone(userId);
    if (tz === undefined) throw new HeraldError('NOT_FOUND', 'User not found');
    const now = this.deps.clock.now();
    const { period, endsAt } = currentMonth(now, safeTimeZone(tz));
    const known = this.granted.get(userId);
    if (known?.period === period) return { expiresAt: known.expiresAt };
    const outer = this.tx.active;
    const expiresAt = new Date(endsAt).toISOString();
    const result = this.tx.run(() => {
      const existing = this.ledger.grant(userId, period);
      if (existing) return { expiresAt: existing.expiredAt ?? expiresAt };
      const previous = this.ledger.lastGrant(userId);
      if (previous && previous.expiredAt && Date.parse(previous.expiredAt) <= now) {
        const left = Math.min(this.sum(userId), previous.credits);
        if (left > 0) {
          this.insert({ userId, transType: 'adjustment', credits: -left, transNo: `EXP-${previous.transNo}`, orderNo: previous.transNo, sourceDetail: `Unused credits of ${previous.period} expired` });
        }
      }
      this.insert({
        userId, transType: 'grant', credits: this.deps.config.monthlyCredits, transNo: `G-${userId.slice(0, 8)}-${period}`,
        period, expiredAt: expiresAt, sourceDetail: `Monthly credits for ${period}`,
      });
      return { expiresAt };
    });
    // Inside a caller's transaction the grant may still be rolled back with it: remember the
    // month only when this call ran on its own.
    if (!outer) {
      if (this.granted.size >= 10_000) this.granted.clear();
      this.granted.set(userId, { period, expiresAt: result.expiresAt });
    }
    return result;
  }

  balance(userId: string, timezone?: string): { balance: number; expiresAt: string } {
    const { expiresAt } = this.ensureGrant(userId, timezone);
    return { balance: this.sum(userId), expiresAt };
  }

  /**
   * Reserves `amount` in one transaction, or throws INSUFFICIENT_CREDITS and writes nothing.
   * Call inside the caller's transaction when the reservation goes with other writes.
   */
  charge(userId: string, amount: number, info: { orderNo?: string; sourceType?: string; sourceDetail?: string; transType?: TransType } = {}): Row {
    this.ensureGrant(userId);
    // A savepoint inside the caller's transaction, if any.
    return this.tx.run(() => {
      const balance = this.sum(userId);
      if (balance < amount) {
        throw new HeraldError('INSUFFICIENT_CREDITS', `This needs ${amount} credits and ${balance} are left`);
      }
      return this.insert({ userId, transType: info.transType ?? 'publish', credits: -amount, orderNo: info.orderNo ?? null, sourceType: info.sourceType ?? null, sourceDetail: info.sourceDetail ?? '' });
    });
  }

  refund(userId: string, amount: number, info: { orderNo?: string; sourceType?: string; sourceDetail?: string } = {}): Row {
    return this.insert({ userId, transType: 'refund', credits: amount, orderNo: info.orderNo ?? null, sourceType: info.sourceType ?? null, sourceDetail: info.sourceDetail ?? '' });
  }

  adjust(userId: string, amount: number, detail: string): Row {
    return this.insert({ userId, transType: 'adjustment', credits: amount, sourceDetail: detail });
  }

  usage(userId: string, f: UsageFilter) {
    this.ensureGrant(userId);
    const filter: LedgerFilter = {};
    if (f.trans_type) filter.transType = f.trans_type;
    if (f.start_date) filter.from = new Date(f.start_date).toISOString();
    if (f.end_date) {
      // A bare date means "through the end of that day".
      const end = /^\d{4}-\d{2}-\d{2}$/.test(f.end_date) ? Date.parse(f.end_date) + 86_400_000 : Date.parse(f.end_date) + 1;
      filter.to = new Date(end).toISOString();
    }
    const { total, rows } = this.ledger.page(userId, filter, f.limit, (f.page - 1) * f.limit);
    return {
      records: rows.map((r) => ({
        id: r.id, trans_no: r.transNo, trans_type: r.transType as TransType, credits: r.credits, order_no: r.orderNo,
        source_type: r.sourceType, source_detail: r.sourceDetail, expired_at: r.expiredAt, created_at: r.createdAt,
      })),
      pagination: { total, page: f.page, limit: f.limit, hasMore: f.page * f.limit < total },
    };
  }
}
