/**
 * Fires scheduled posts. The queue lives in SQLite (schedule_entries, indexed by status and fire
 * time); node-schedule arms a single wake-up for the earliest due entry, re-armed whenever the
 * queue changes, and a periodic sweep backs it up. When it wakes, every due entry is claimed in
 * batches (an atomic UPDATE … RETURNING, so two wake-ups never fire one entry twice) and
 * published: in order per account, in parallel across accounts.
 *
 * Late entries: one late by at most the grace period is published at once; a later one becomes
 * `missed`, not published and not charged. Failures worth retrying (network, 5xx, 429) come back
 * after about 1 and 5 minutes (or the network's reset time), at most 3 attempts in all.
 */
import { createRequire } from 'node:module';
import type schedule from 'node-schedule';
import type { Deps } from '../context.js';
import type { PublishService, TargetResult } from '../domain/publishing/publish.service.js';
import { ENTRY_COLS, type EntryRow, type ScheduleService } from '../domain/scheduling/schedule.service.js';
import { SchedulerLock } from './scheduler-lock.js';

/** Arms one wake-up at an instant of the injected clock. */
export interface Waker {
  arm(at: number, fn: () => void): void;
  cancel(): void;
}

/** Loaded on first use: an empty queue never pays for node-schedule (and luxon) at start-up. */
let nodeSchedule: typeof schedule | undefined;
const loadNodeSchedule = () => (nodeSchedule ??= createRequire(import.meta.url)('node-schedule') as typeof schedule);

/** node-schedule, translating the injected clock's instant into wall time. */
export function nodeScheduleWaker(clock: { now(): number }): Waker {
  let job: schedule.Job | null = null;
  return {
    arm(at, fn) {
      job?.cancel();
      const schedule = loadNodeSchedule();
      const delay = Math.max(0, at - clock.now());
      // node-schedule handles dates past setTimeout's 24.8-day limit.
      job = schedule.scheduleJob(new Date(Date.now() + Math.max(delay, 1)), fn);
      if (!job) setImmediate(fn); // the date was already past
    },
    cancel() {
      job?.cancel();
      job = null;
    },
  };
}

export interface SchedulerOptions {
  waker?: Waker;
  /** Backup sweep interval, ms (default 20 s). */
  sweepMs?: number;
  batchSize?: number;
  /** Backoff before attempt 2 and 3, ms. */
  backoffMs?: number[];
}

export const MAX_ATTEMPTS = 3;

export class Scheduler {
  readonly lock: SchedulerLock;
  private readonly waker: Waker;
  private readonly sweepMs: number;
  private readonly batchSize: number;
  private readonly backoff: number[];
  private sweepTimer: NodeJS.Timeout | undefined;
  private firing: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Dispatches in flight, so stop() can wait for them. */
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly stmts;

  constructor(private readonly deps: Deps, private readonly publishing: PublishService, private readonly queue: ScheduleService, opts: SchedulerOptions = {}) {
    this.lock = new SchedulerLock(deps.config.dataDir);
    this.waker = opts.waker ?? nodeScheduleWaker(deps.clock);
    this.sweepMs = opts.sweepMs ?? 20_000;
    this.batchSize = opts.batchSize ?? 200;
    this.backoff = opts.backoffMs ?? [60_000, 300_000, 900_000];
    const db = deps.sqlite;
    this.stmts = {
      earliest: db.prepare("SELECT MIN(due_at) AS at FROM schedule_entries WHERE status = 'pending'"),
      claim: db.prepare(`UPDATE schedule_entries SET status = 'claimed' WHERE id IN (
          SELECT id FROM schedule_entries WHERE status = 'pending' AND due_at <= ?
          ORDER BY due_at, priority DESC LIMIT ?)
        RETURNING ${ENTRY_COLS}`),
      unclaim: db.prepare("UPDATE schedule_entries SET status = 'pending' WHERE status = 'claimed'"),
      done: db.prepare("UPDATE schedule_entries SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = NULL WHERE id = ?"),
      retry: db.prepare("UPDATE schedule_entries SET status = 'pending', attempts = attempts + 1, last_error = @error, next_attempt_at = @at, due_at = @at WHERE id = @id"),
      missed: db.prepare("UPDATE schedule_entries SET status = 'missed', last_error = ? WHERE id = ?"),
      draftBack: db.prepare(`UPDATE drafts SET status = 'draft', scheduled_for = NULL, updated_at = ? WHERE id = ? AND status = 'scheduled'
        AND NOT EXISTS (SELECT 1 FROM schedule_entries WHERE draft_id = drafts.id AND status IN ('pending', 'claimed'))`),
    };
    queue.onChange = () => this.rearm();
  }

  get active(): boolean {
    return !this.stopped && this.lock.held;
  }

  /**
   * Takes the folder's lock (or keeps trying from the sweep), resumes publications a crash
   * interrupted, and arms the first wake-up.
   */
  async start(): Promise<void> {
    this.stopped = false;
    this.sweepTimer = setInterval(() => { void this.tick(); }, this.sweepMs);
    this.sweepTimer.unref();
    await this.tick();
  }

  private takeOver(): boolean {
    if (this.lock.held) return true;
    if (!this.lock.tryAcquire()) return false;
    // Entries a killed process had claimed were never published by it: the outbox says what
    // went out, so they go back to the queue and publishing resumes where it stopped.
    this.stmts.unclaim.run();
    const resumed = this.publishing.resumeInterrupted().catch((err) => this.deps.log.error('Herald could not resume interrupted publishing', err));
    this.track(resumed);
    return true;
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
    return p;
  }

  rearm(): void {
    if (!this.active) return;
    const { at } = this.stmts.earliest.get() as { at: number | null };
    if (at === null) this.waker.cancel();
    else this.waker.arm(at, () => { void this.tick(); });
  }

  /** Fires everything due now. Safe to call at any time, from any number of places. */
  tick(): Promise<void> {
    if (this.stopped || !this.takeOver()) return Promise.resolve();
    if (this.firing) {
      this.again = true;
      return this.firing;
    }
    this.firing = (async () => {
      try {
        do {
          this.again = false;
          await this.fireDue();
        } while (this.again && !this.stopped);
      } finally {
        this.firing = undefined;
        this.rearm();
      }
    })();
    return this.firing;
  }

  private async fireDue(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = this.deps.clock.now();
      const batch = this.stmts.claim.all(now, this.batchSize) as EntryRow[];
      if (batch.length === 0) return;
      const byAccount = new Map<string, EntryRow[]>();
      for (const e of batch) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
      await Promise.all([...byAccount.values()].map((entries) => this.track((async () => {
        for (const e of entries) await this.dispatch(e);
      })())));
    }
  }

  private async dispatch(e: EntryRow): Promise<void> {
    const now = this.deps.clock.now();
    const lateBy = now - e.fireAt;
    if (e.attempts === 0 && lateBy > this.deps.config.graceMs) {
      this.stmts.missed.run(`Missed: Herald was not running at ${new Date(e.fireAt).toISOString()} (${Math.round(lateBy / 60_000)} min late)`, e.id);
      this.stmts.draftBack.run(new Date(now).toISOString(), e.draftId);
      return;
    }
    let result: TargetResult | undefined;
    let error: string | undefined;
    let retryAfter: number | undefined;
    try {
      const r = await this.publishing.publishDraft(e.userId, { draftId: e.draftId, targetAccounts: [{ accountId: e.accountId, platform: e.platform }], origin: 'schedule' });
      result = r.results[0];
    } catch (err) {
      // Refused before anything was sent (credits, validation, account gone): not retried.
      error = (err as Error).message;
    }
    if (result?.success) {
      this.stmts.done.run('done', null, e.id);
      return;
    }
    error ??= result?.error?.message ?? 'Publishing failed';
    const attempt = e.attempts + 1;
    if (result?.retry && attempt < MAX_ATTEMPTS) {
      const base = now + this.backoff[Math.min(attempt - 1, this.backoff.length - 1)];
      retryAfter = Math.max(base, result.retry.after ?? 0);
      this.stmts.retry.run({ error, at: retryAfter, id: e.id });
      return;
    }
    this.stmts.done.run(result?.status === 'needs_review' ? 'needs_review' : 'failed', error, e.id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.waker.cancel();
    await this.firing;
    await Promise.allSettled([...this.inflight]);
    this.lock.release();
  }
}
