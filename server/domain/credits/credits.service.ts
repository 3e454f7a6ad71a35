/**
 * Credits are an append-only ledger; the balance is always its sum. They are the owner's own
 * posting budget: the owner sets the monthly grant and adds or removes credits at will. The
 * grant is written lazily, the first time credits are looked at in a new month (months in the
 * user's zone, the setting `timeZone`), and what is left of the previous grant then expires
 * through an `adjustment` record.
 */
import { creditsShortText, creditsWarningText } from '../../../text/status-text.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { UntilChanged } from '../../db/change-token.js';
import { GRANT_CHANGE, type CreditsRepo, type LedgerFilter } from '../../db/repos/credits.repo.js';
import type { LedgerRow as Row } from '../../db/repos/credits.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import type { UsersRepo } from '../../db/repos/users-keys.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { EventsService } from '../events/events.service.js';
import { currentMonth, monthWindow, safeTimeZone } from './months.js';

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

  constructor(
    private readonly deps: Deps,
    private readonly repos: { credits: CreditsRepo; users: UsersRepo; tx: Transactions },
    private readonly events: EventsService,
  ) {
    this.ledger = repos.credits;
    this.tx = repos.tx;
    this.sums = repos.tx.untilChanged(10_000);
  }

  /**
   * The balance against what is scheduled: each pending entry costs one publish when it fires,
   * and one that fires short of credits fails. The UI warns from this before that happens.
   */
  outlook(userId: string) {
    const { balance, expiresAt } = this.balance(userId);
    const n = this.ledger.scheduledCount(userId);
    const covers = Math.floor(Math.max(0, balance) / PUBLISH_COST);
    // What the posts due before the month ends will take from this balance (later ones are paid from later grants).
    const reserved = this.ledger.scheduledBetween(userId, 0, Date.parse(expiresAt)) * PUBLISH_COST;
    return {
      balance,
      expiresAt,
      timeZone: this.zone(),
      monthlyCredits: this.deps.config.monthlyCredits,
      reserved,
      scheduled: { posts: n, credits: n * PUBLISH_COST },
      covers,
      warning: creditsWarningText({ balance, costPerPost: PUBLISH_COST, scheduledPosts: n }),
    };
  }

  /**
   * The user's zone, which the credit month follows: the setting `timeZone` (an unknown zone, which the
   * settings refuse, would be UTC).
   */
  zone(): string {
    return safeTimeZone(this.deps.config.timeZone);
  }

  /**
   * A warning when entries firing at `times` would find too few credits in their month: what that
   * month has (this month: the balance; a later one: its grant and what carries over) less what
   * the posts already scheduled in it reserve (`except`: a draft scheduled again, whose own
   * entries are replaced). Null when they fit.
   */
  shortfall(userId: string, times: number[], except: string | null = null): string | null {
    if (times.length === 0) return null;
    const zone = this.zone();
    const { balance, expiresAt } = this.balance(userId);
    const monthEnd = Date.parse(expiresAt);
    const reservedIn = (from: number, to: number) =>
      this.ledger.scheduledBetween(userId, from, to, except) * PUBLISH_COST;
    let thisMonth: number | undefined;
    const reservedNow = () => (thisMonth ??= reservedIn(0, monthEnd));
    // Only the grant's part of a balance expires at the month's end: credits added on top carry over.
    const carry = () => {
      const grant = this.ledger.lastGrant(userId);
      const granted = grant ? grant.credits + this.ledger.grantChanges(userId, grant.transNo) : 0;
      return Math.max(0, balance - reservedNow() - granted);
    };
    // Counting a month's entries reads every entry of the schedule (~40 ms at 100,000): first the
    // bound of every entry the table ever held, reserved, which needs no count; only when even that
    // could fall short are the month's entries counted.
    const most = this.ledger.entriesBound() * PUBLISH_COST;
    const months = new Map<string, { posts: number; startsAt: number; endsAt: number }>();
    for (const at of times) {
      const w = at < monthEnd ? { period: '', startsAt: 0, endsAt: monthEnd } : monthWindow(at, zone);
      const m = months.get(w.period) ?? { posts: 0, startsAt: w.startsAt, endsAt: w.endsAt };
      m.posts += 1;
      months.set(w.period, m);
    }
    for (const [period, m] of months) {
      const current = period === '';
      const need = m.posts * PUBLISH_COST;
      if ((current ? balance : this.deps.config.monthlyCredits) - most >= need) continue;
      const reserved = current ? reservedNow() : reservedIn(m.startsAt, m.endsAt);
      const available = current ? balance : this.deps.config.monthlyCredits + carry();
      if (available - reserved >= need) continue;
      const month = current
        ? 'this month'
        : new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'long', year: 'numeric' }).format(m.startsAt);
      return creditsShortText({ posts: m.posts, need, available, reserved, month });
    }
    return null;
  }

  private sum(userId: string): number {
    return this.sums.get(userId, () => this.ledgerSum(userId));
  }

  /**
   * The ledger's sum for a user. The ledger is append-only and its ids only grow (AUTOINCREMENT,
   * one writer at a time), so the sum of the rows up to a committed id never changes: it is kept
   * per user and only the rows after it are added up, by id range. Without it every charge (and,
   * while publishing writes, every GET /me) summed the user's whole history, twice per scheduled
   * post, growing with the ledger (figures: README, Performance). The kept part is taken only
   * outside a transaction, so a rollback cannot leave rows in it that are not there.
   */
  private ledgerSum(userId: string): number {
    const base = this.bases.get(userId);
    if (!base) {
      const full = this.ledger.fullSum(userId);
      if (!this.tx.active) this.bases.set(userId, full);
      return full.total;
    }
    const tail = this.ledger.tailSum(userId, base.upto);
    if (tail.n >= 64 && tail.upto !== null && !this.tx.active)
      this.bases.set(userId, { total: base.total + tail.total, upto: tail.upto });
    return base.total + tail.total;
  }

  private insert(
    row: Omit<
      Row,
      'id' | 'createdAt' | 'transNo' | 'period' | 'expiredAt' | 'orderNo' | 'sourceType' | 'sourceDetail'
    > &
      Partial<Row>,
  ): Row {
    const full = {
      transNo: row.transNo ?? `T${this.deps.clock.now()}${this.deps.ids.token(6)}`,
      createdAt: nowIso(this.deps.clock),
      orderNo: null,
      sourceType: null,
      sourceDetail: '',
      period: null,
      expiredAt: null,
      ...row,
    };
    // Every ledger row moves the balance: its event goes in the same transaction as the row.
    return this.tx.run(() => {
      const inserted = this.ledger.insert(full);
      this.events.record(row.userId, 'credits.changed', {
        balance: this.ledgerSum(row.userId),
        change: row.credits,
        reason: row.transType,
      });
      return inserted;
    });
  }

  /**
   * Writes this month's grant if it is missing, expiring the last one's remainder first (the
   * grant's part of the balance, changes of the grant included; credits added on top carry over).
   */
  ensureGrant(userId: string): { expiresAt: string } {
    const zone = this.zone();
    const now = this.deps.clock.now();
    const { period, endsAt } = currentMonth(now, zone);
    const expiresAt = new Date(endsAt).toISOString();
    const known = this.granted.get(userId);
    if (known?.period === period && known.expiresAt === expiresAt) return { expiresAt };
    if (this.repos.users.timezone(userId) === undefined) throw new HeraldError('NOT_FOUND', 'User not found');
    const outer = this.tx.active;
    this.tx.run(() => {
      if (this.ledger.grant(userId, period)) return;
      const previous = this.ledger.lastGrant(userId);
      if (previous && previous.expiredAt && Date.parse(previous.expiredAt) <= now) {
        const granted = previous.credits + this.ledger.grantChanges(userId, previous.transNo);
        const left = Math.min(this.sum(userId), granted);
        if (left > 0) {
          this.insert({
            userId,
            transType: 'adjustment',
            credits: -left,
            transNo: `EXP-${previous.transNo}`,
            orderNo: previous.transNo,
            sourceDetail: `Unused credits of ${previous.period} expired`,
          });
        }
      }
      this.insert({
        userId,
        transType: 'grant',
        credits: this.deps.config.monthlyCredits,
        transNo: `G-${userId.slice(0, 8)}-${period}`,
        period,
        expiredAt: expiresAt,
        sourceDetail: `Monthly credits for ${period}`,
      });
    });
    // Inside a caller's transaction the grant may still be rolled back with it: remember the
    // month only when this call ran on its own.
    if (!outer) {
      if (this.granted.size >= 10_000) this.granted.clear();
      this.granted.set(userId, { period, expiresAt });
    }
    return { expiresAt };
  }

  /**
   * The monthly grant was changed (from `from` to `to`): every month already granted gets the
   * difference at once, as an `adjustment` that expires with the grant. A lower grant takes no
   * more than the balance, which never goes below zero.
   */
  grantChanged(from: number, to: number): void {
    const { period } = currentMonth(this.deps.clock.now(), this.zone());
    this.tx.run(() => {
      for (const userId of this.ledger.grantedUsers(period)) {
        const grant = this.ledger.grant(userId, period)!;
        const granted = grant.credits + this.ledger.grantChanges(userId, grant.transNo);
        const diff = Math.max(to - granted, -this.sum(userId));
        if (diff === 0) continue;
        this.insert({
          userId,
          transType: 'adjustment',
          credits: diff,
          orderNo: grant.transNo,
          sourceType: GRANT_CHANGE,
          sourceDetail: `Monthly grant changed from ${from} to ${to} credits`,
        });
      }
    });
  }

  /**
   * The owner adds (or, below zero, removes) credits. Only the owner: the credits are the owner's
   * budget. A result below zero is refused and nothing is written.
   */
  ownerAdjust(userId: string, amount: number, note?: string) {
    if (this.repos.users.ownerId() !== userId) {
      throw new HeraldError('UNAUTHORIZED', 'Only the owner of this install can add or remove credits');
    }
    this.ensureGrant(userId);
    this.tx.run(() => {
      const balance = this.sum(userId);
      if (balance + amount < 0) {
        const why =
          `Removing ${-amount} credits would leave ${balance + amount}; ` +
          `the balance is ${balance} and cannot go below 0`;
        throw new HeraldError('INVALID_INPUT', why, {
          details: [{ path: 'body.amount', message: `at least ${-balance}` }],
        });
      }
      const detail = note?.trim() || (amount >= 0 ? 'Added by the owner' : 'Removed by the owner');
      this.insert({
        userId,
        transType: 'adjustment',
        credits: amount,
        sourceType: 'owner',
        sourceDetail: detail.slice(0, 300),
      });
    });
    return this.outlook(userId);
  }

  balance(userId: string): { balance: number; expiresAt: string } {
    const { expiresAt } = this.ensureGrant(userId);
    return { balance: this.sum(userId), expiresAt };
  }

  /**
   * Reserves `amount` in one transaction, or throws INSUFFICIENT_CREDITS and writes nothing.
   * Call inside the caller's transaction when the reservation goes with other writes.
   */
  charge(
    userId: string,
    amount: number,
    info: { orderNo?: string; sourceType?: string; sourceDetail?: string; transType?: TransType } = {},
  ): Row {
    this.ensureGrant(userId);
    // A savepoint inside the caller's transaction, if any.
    return this.tx.run(() => {
      const balance = this.sum(userId);
      if (balance < amount) {
        throw new HeraldError('INSUFFICIENT_CREDITS', `This needs ${amount} credits and ${balance} are left`);
      }
      return this.insert({
        userId,
        transType: info.transType ?? 'publish',
        credits: -amount,
        orderNo: info.orderNo ?? null,
        sourceType: info.sourceType ?? null,
        sourceDetail: info.sourceDetail ?? '',
      });
    });
  }

  refund(
    userId: string,
    amount: number,
    info: { orderNo?: string; sourceType?: string; sourceDetail?: string } = {},
  ): Row {
    return this.insert({
      userId,
      transType: 'refund',
      credits: amount,
      orderNo: info.orderNo ?? null,
      sourceType: info.sourceType ?? null,
      sourceDetail: info.sourceDetail ?? '',
    });
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
      const end = /^\d{4}-\d{2}-\d{2}$/.test(f.end_date)
        ? Date.parse(f.end_date) + 86_400_000
        : Date.parse(f.end_date) + 1;
      filter.to = new Date(end).toISOString();
    }
    const { total, rows } = this.ledger.page(userId, filter, f.limit, (f.page - 1) * f.limit);
    return {
      records: rows.map((r) => ({
        id: r.id,
        trans_no: r.transNo,
        trans_type: r.transType as TransType,
        credits: r.credits,
        order_no: r.orderNo,
        source_type: r.sourceType,
        source_detail: r.sourceDetail,
        expired_at: r.expiredAt,
        created_at: r.createdAt,
      })),
      pagination: { total, page: f.page, limit: f.limit, hasMore: f.page * f.limit < total },
    };
  }
}
