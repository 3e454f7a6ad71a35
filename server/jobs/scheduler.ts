/**
 * Fires scheduled posts. The queue lives in SQLite (schedule_entries, indexed by status and fire
 * time); node-schedule arms a single wake-up for the earliest due entry, re-armed whenever the
 * queue changes, and a periodic sweep backs it up. When it wakes, every due entry is claimed in
 * batches (an atomic UPDATE … RETURNING, so two wake-ups never fire one entry twice), its
 * publication begun at once (planned and charged, the whole batch in one relaxed transaction), and
 * handed to its account's queue, which sends: in order per account, in parallel across accounts.
 * Claiming never waits for a network, so one slow network does not make the others' posts late,
 * and a post queued behind its account's earlier ones is already started when it fell due.
 *
 * Late entries: one late by at most the grace period is published at once; a later one becomes
 * `missed`, not published and not charged (a retry too, late from the instant it was due).
 * Failures worth retrying (network, 5xx, 429) come back after about 1 and 5 minutes (or the
 * network's reset time), at most 3 attempts in all. A full disk is no attempt at all: the entry
 * stays pending, uncharged, waiting for storage, and is tried again every few seconds until the
 * disk has room (see waitForStorage).
 */
import { createRequire } from 'node:module';
import type schedule from 'node-schedule';
import type { Deps } from '../domain/deps.js';
import { draftStatusOf, type PublishService, type Started, type TargetResult } from '../domain/publishing/publish.service.js';
import { commitsFor, type Commits } from '../db/commits.js';
import { ENTRY_COLS, type EntryRow, type ScheduleService } from '../domain/scheduling/schedule.service.js';
import { crashPoint } from '../core/crash.js';
import { HeraldError, isStorageFull } from '../core/errors.js';
import type { Platform } from '../core/config.js';
import { NETWORK_LABELS as NETWORK_NAMES } from '../../text/counting.js';
import { targetStatusText, type TargetState } from '../../text/status-text.js';
import { SchedulerLock } from './scheduler-lock.js';

/** Arms one wake-up at an instant of the injected clock. */
export interface Waker {
  arm(at: number, fn: () => void): void;
  cancel(): void;
}

/** Loaded on first use: an empty queue never pays for node-schedule (and luxon) at start-up. */
let nodeSchedule: typeof schedule | undefined;
const loadNodeSchedule = () => (nodeSchedule ??= createRequire(import.meta.url)('node-schedule') as typeof schedule);

/** How often the waker compares the wall clock with the monotonic one (see nodeScheduleWaker). */
const CLOCK_WATCH_MS = 1_000;

/**
 * node-schedule, translating the injected clock's instant into wall time. Its timer counts
 * monotonic time, so when the wall clock jumps (NTP, a person setting the time, a resume from
 * sleep) it would fire early or late by the jump until the next sweep; while armed, the waker
 * compares the two clocks every second and re-arms when they part by a second or more.
 */
export function nodeScheduleWaker(clock: { now(): number }): Waker {
  let job: schedule.Job | null = null;
  let target: { at: number; fn: () => void } | undefined;
  let watch: NodeJS.Timeout | undefined;
  let wall = 0;
  let mono = 0;
  /** Bumped by every set() and cancel(): a superseded wake-up (a setImmediate) does nothing. */
  let generation = 0;
  const set = (at: number) => {
    job?.cancel();
    const mine = ++generation;
    const fire = () => {
      if (mine !== generation) return;
      const t = target;
      job = null;
      target = undefined;
      t?.fn();
    };
    const schedule = loadNodeSchedule();
    const delay = Math.max(0, at - clock.now());
    wall = clock.now();
    mono = performance.now();
    // node-schedule handles dates past setTimeout's 24.8-day limit.
    job = schedule.scheduleJob(new Date(Date.now() + Math.max(delay, 1)), fire);
    if (!job) setImmediate(fire); // the date was already past
  };
  const check = () => {
    if (!target) return;
    const jumped = (clock.now() - wall) - (performance.now() - mono);
    if (Math.abs(jumped) >= CLOCK_WATCH_MS) set(target.at);
  };
  return {
    arm(at, fn) {
      // Already armed for that instant (most changes to a long queue leave its earliest entry
      // where it was): keep the job, which costs a timer and a date computation to replace.
      const same = target?.at === at && job !== null;
      target = { at, fn };
      if (!same) set(at);
      if (!watch) {
        watch = setInterval(check, CLOCK_WATCH_MS);
        watch.unref();
      }
    },
    cancel() {
      generation += 1;
      job?.cancel();
      job = null;
      target = undefined;
      if (watch) clearInterval(watch);
      watch = undefined;
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
  /** Most entries claimed and not yet settled at once (default 2,000). */
  maxInFlight?: number;
  /** Waits before each renewed try of an entry a full disk stopped, ms (the last repeats). */
  storageBackoffMs?: number[];
}

export const MAX_ATTEMPTS = 3;

const ACTIVE = "status IN ('pending', 'claimed')";

export class Scheduler {
  readonly lock: SchedulerLock;
  private readonly waker: Waker;
  private readonly sweepMs: number;
  private readonly batchSize: number;
  private readonly backoff: number[];
  private readonly maxInFlight: number;
  private readonly storageBackoff: number[];
  /** Tries so far of each entry a full disk stopped (the backoff grows with them). */
  private readonly storageTries = new Map<string, number>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private firing: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** When start() began, until the first wake-up is armed. */
  private startedAt: number | undefined;
  /** Resuming what a crash interrupted; due entries wait for it (see fireDue). */
  private resuming: Promise<unknown> | undefined;
  /** Work in flight (dispatches, resumption), so stop() and tick() can wait for it. */
  private readonly inflight = new Set<Promise<unknown>>();
  /** The tail of each account's queue: its entries are published one after another. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Entries claimed and not yet settled. */
  private claimed = 0;
  private slotFreed: (() => void) | undefined;
  /** Outcomes waiting to be written (see later()). */
  private readonly outcomes: (() => void)[] = [];
  private flushing: NodeJS.Immediate | undefined;
  private readonly stmts;
  private readonly commits: Commits;

  constructor(private readonly deps: Deps, private readonly publishing: PublishService, private readonly queue: ScheduleService, opts: SchedulerOptions = {}) {
    this.lock = new SchedulerLock(deps.config.dataDir);
    this.waker = opts.waker ?? nodeScheduleWaker(deps.clock);
    this.sweepMs = opts.sweepMs ?? 20_000;
    this.batchSize = opts.batchSize ?? 200;
    this.backoff = opts.backoffMs ?? [60_000, 300_000, 900_000];
    this.maxInFlight = opts.maxInFlight ?? 2_000;
    this.storageBackoff = opts.storageBackoffMs ?? [5_000, 10_000, 20_000, 30_000];
    const db = deps.sqlite;
    this.commits = commitsFor(db);
    this.stmts = {
      earliest: db.prepare("SELECT MIN(due_at) AS at FROM schedule_entries WHERE status = 'pending'"),
      pendingCount: db.prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE status = 'pending'"),
      claim: db.prepare(`UPDATE schedule_entries SET status = 'claimed' WHERE id IN (
          SELECT id FROM schedule_entries WHERE status = 'pending' AND due_at <= ?
          ORDER BY due_at, priority DESC LIMIT ?)
        RETURNING ${ENTRY_COLS}`),
      // A claimed entry whose draft was scheduled again meanwhile gives way to the new entry.
      dropSuperseded: db.prepare(`DELETE FROM schedule_entries WHERE status = 'claimed' AND EXISTS (SELECT 1 FROM schedule_entries p
        WHERE p.draft_id = schedule_entries.draft_id AND p.account_id = schedule_entries.account_id AND p.status = 'pending')`),
      unclaimAll: db.prepare("UPDATE schedule_entries SET status = 'pending' WHERE status = 'claimed'"),
      unclaim: db.prepare(`UPDATE schedule_entries SET status = 'pending' WHERE id = ? AND status = 'claimed' AND NOT EXISTS (SELECT 1 FROM schedule_entries p
        WHERE p.draft_id = schedule_entries.draft_id AND p.account_id = schedule_entries.account_id AND p.status = 'pending')`),
      done: db.prepare("UPDATE schedule_entries SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = NULL, waiting_for = NULL WHERE id = ?"),
      retry: db.prepare(`UPDATE schedule_entries SET status = 'pending', attempts = attempts + 1, last_error = @error, next_attempt_at = @at, due_at = @at, waiting_for = 'network'
        WHERE id = @id AND NOT EXISTS (SELECT 1 FROM schedule_entries p WHERE p.draft_id = schedule_entries.draft_id AND p.account_id = schedule_entries.account_id AND p.status = 'pending')`),
      // Not an attempt: nothing reached the network, and nothing stays charged (the plan rolled back).
      waitStorage: db.prepare(`UPDATE schedule_entries SET status = 'pending', last_error = @error, next_attempt_at = @at, due_at = @at, waiting_for = 'storage'
        WHERE id = @id AND status = 'claimed' AND NOT EXISTS (SELECT 1 FROM schedule_entries p WHERE p.draft_id = schedule_entries.draft_id AND p.account_id = schedule_entries.account_id AND p.status = 'pending')`),
      missed: db.prepare("UPDATE schedule_entries SET status = 'missed', last_error = ? WHERE id = ?"),
      stillScheduled: db.prepare(`SELECT 1 FROM schedule_entries WHERE draft_id = ? AND ${ACTIVE} LIMIT 1`),
      latestPub: db.prepare('SELECT status FROM publications WHERE draft_id = ? AND account_id = ? ORDER BY created_at DESC LIMIT 1'),
      unsentEntries: db.prepare("SELECT account_id AS accountId, status FROM schedule_entries WHERE draft_id = ? AND status IN ('missed', 'failed', 'needs_review')"),
      finalDraft: db.prepare("UPDATE drafts SET status = ?, updated_at = ? WHERE id = ? AND status IN ('scheduled', 'publishing', 'published', 'partially_published', 'failed')"),
      // The draft's other entries are still to come: it stays scheduled until the last one fires.
      backToScheduled: db.prepare(`UPDATE drafts SET status = 'scheduled', updated_at = ? WHERE id = ? AND status IN ('published', 'partially_published', 'failed')
        AND EXISTS (SELECT 1 FROM schedule_entries WHERE draft_id = drafts.id AND ${ACTIVE})`),
      draftBack: db.prepare("UPDATE drafts SET status = 'draft', scheduled_for = NULL, updated_at = ? WHERE id = ? AND status = 'scheduled'"),
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
    this.startedAt = performance.now();
    this.sweepTimer = setInterval(() => { void this.tick(); }, this.sweepMs);
    this.sweepTimer.unref();
    await this.tick();
  }

  private takeOver(): boolean {
    if (this.lock.held) return true;
    if (!this.lock.tryAcquire()) return false;
    // Entries a killed process had claimed were never settled by it: the outbox says what went
    // out, so they go back to the queue and publishing resumes where it stopped.
    this.deps.sqlite.transaction(() => {
      this.stmts.dropSuperseded.run();
      this.stmts.unclaimAll.run();
    })();
    this.resuming = this.track(this.publishing.resumeInterrupted().catch((err) => this.deps.log.error('Herald could not resume interrupted publishing', err)));
    return true;
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p)).catch(() => {});
    return p;
  }

  rearm(): void {
    if (!this.active) return;
    const { at: earliest } = this.stmts.earliest.get() as { at: number | null };
    // While the disk refuses claims, a due entry would wake the scheduler again at once, forever.
    const blocked = this.publishing.storageWaits.claimsBlockedUntil;
    const at = earliest === null ? null : Math.max(earliest, blocked ?? earliest);
    if (at === null) this.waker.cancel();
    else this.waker.arm(at, () => { void this.tick(); });
    if (this.startedAt !== undefined) {
      // The first wake-up after start: how long rebuilding the timers from the database took
      // (the bench reads it with 100,000 entries pending).
      const ms = performance.now() - this.startedAt;
      this.startedAt = undefined;
      const { n } = this.stmts.pendingCount.get() as { n: number };
      // Not toLocaleString: loading ICU's number formats costs start-up ~10 ms.
      this.deps.log.info(`Scheduler: ${n} pending, next wake-up ${at === null ? 'none' : new Date(at).toISOString()} (armed in ${ms.toFixed(1)} ms)`);
    }
  }

  /**
   * Claims everything due now and hands it to the accounts' queues. Safe to call at any time,
   * from any number of places; resolves once what is in flight has settled.
   */
  tick(): Promise<void> {
    if (this.stopped || !this.takeOver()) return Promise.resolve();
    if (this.firing) {
      this.again = true;
      return this.firing.then(() => this.settled());
    }
    this.firing = (async () => {
      try {
        do {
          this.again = false;
          await this.fireDue();
        } while (this.again && !this.stopped);
      } catch (err) {
        if (isStorageFull(err)) {
          const waits = this.publishing.storageWaits;
          if (waits.claimsBlockedUntil === null) this.deps.log.warn('Herald cannot fire due scheduled posts: the disk that holds its data folder is full. They wait, uncharged, and fire once there is room.');
          waits.claimsBlockedUntil = this.deps.clock.now() + this.sweepMs;
        } else this.deps.log.error('Herald could not claim due scheduled posts; the next sweep tries again', err);
      } finally {
        this.firing = undefined;
        this.rearm();
      }
    })();
    return this.firing.then(() => this.settled());
  }

  /** Resolves when nothing is in flight and every outcome is written. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    this.flush();
  }

  /**
   * Outcomes are written together, once per turn of the event loop, without waiting for the disk
   * (see relaxed()). A crash before they reach it leaves the entry claimed; the next start puts
   * it back, and firing it again finds its publication settled (published: skipped, not sent or
   * charged again).
   */
  /**
   * A transaction that does not wait for the disk (db/commits.ts) for the scheduler's own
   * bookkeeping (claims, outcomes), which a crash may lose without harm because every start
   * returns claimed entries to the queue and the outbox says what went out. The next FULL commit
   * (the outbox's, before any network call) makes it durable with its own. With FULL, every claim
   * and outcome cost an fsync (~4.5 ms here) on the thread that serves the API and fires posts.
   */
  private relaxed<T>(fn: () => T): T {
    return this.commits.relaxed(fn);
  }

  private later(write: () => void): void {
    this.outcomes.push(write);
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    const writes = this.outcomes.splice(0);
    if (writes.length === 0) return;
    try {
      this.relaxed(() => { for (const w of writes) w(); });
      crashPoint('done');
    } catch (err) {
      // Rolled back whole: written again at the next sweep's flush, once the disk has room.
      if (isStorageFull(err)) {
        this.outcomes.unshift(...writes);
        return;
      }
      this.deps.log.error('Herald could not record scheduled posts\' outcomes; they fire again at the next start and find their posts settled', err);
    }
  }

  private async fireDue(): Promise<void> {
    // Publications a crash interrupted are finished first: a due entry of the same draft and
    // account then finds its post published instead of racing the resumption to the network.
    if (this.resuming) await this.resuming;
    for (;;) {
      if (this.stopped) return;
      while (this.claimed >= this.maxInFlight && !this.stopped) await new Promise<void>((r) => { this.slotFreed = r; });
      const now = this.deps.clock.now();
      const batch = this.relaxed(() => this.stmts.claim.all(now, Math.min(this.batchSize, this.maxInFlight - this.claimed)) as EntryRow[]);
      this.publishing.storageWaits.claimsBlockedUntil = null;
      if (batch.length === 0) return;
      crashPoint('claim');
      // RETURNING gives rows in the order SQLite updated them, not the subquery's: sort again.
      batch.sort((a, b) => a.dueAt - b.dueAt || b.priority - a.priority || a.fireAt - b.fireAt);
      const started = this.begin(batch, now);
      for (const e of batch) this.enqueue(e, now, started.get(e.id));
    }
  }

  /**
   * Late past the grace period: its fire time, or for a retry the instant of that retry (a post
   * that failed at 09:00 and was to be tried again at 09:01 is not sent at 17:00 because Herald
   * was closed all day; parts of a thread already out stay out, and publishing again resumes it).
   */
  private isMissed(e: EntryRow, claimedAt: number): boolean {
    return claimedAt - e.dueAt > this.deps.config.graceMs;
  }

  private request(e: EntryRow) {
    return { draftId: e.draftId, targetAccounts: [{ accountId: e.accountId, platform: e.platform }], origin: 'schedule' as const };
  }

  /**
   * Begins the publications of a claimed batch at once (planned and charged, nothing sent), in one
   * relaxed transaction: a post due now is started now, however many of its account's posts are
   * queued ahead of it; the account's queue then sends them in order. An entry refused here (no
   * credits, the draft edited past a limit, the account gone) is not started; at its turn it is
   * tried the ordinary way, which says why. A crash before the send leaves the publication to its
   * entry (PublishService.giveBack).
   */
  private begin(batch: EntryRow[], claimedAt: number): Map<string, Started> {
    const started = new Map<string, Started>();
    try {
      this.publishing.ensureGrants(batch.map((e) => e.userId));
      this.relaxed(() => {
        for (const e of batch) {
          if (this.isMissed(e, claimedAt)) continue;
          try {
            started.set(e.id, this.publishing.begin(e.userId, this.request(e)));
          } catch {
            // Rolled back (its own savepoint); its turn in the queue tries again and records why.
          }
        }
      });
    } catch (err) {
      // Not committed (the database busy or failing): each entry is begun at its turn instead.
      for (const s of started.values()) this.publishing.release(s);
      this.deps.log.warn(`Herald could not start a batch of due posts at once; they start one by one (${(err as Error).message})`);
      return new Map();
    }
    return started;
  }

  /** Appends an entry to its account's queue; `claimedAt` is when it was found due. */
  private enqueue(e: EntryRow, claimedAt: number, started: Started | undefined): void {
    this.claimed += 1;
    const run = async () => {
      try {
        if (this.stopped) {
          this.stmts.unclaim.run(e.id);
          if (started) this.publishing.release(started);
        } else await this.dispatch(e, claimedAt, started);
      } catch (err) {
        // Left claimed: the next start puts it back in the queue, and the outbox keeps it from
        // being sent twice.
        this.deps.log.error('Herald could not fire a scheduled post', err);
      } finally {
        this.claimed -= 1;
        const freed = this.slotFreed;
        this.slotFreed = undefined;
        freed?.();
      }
    };
    const prev = this.chains.get(e.accountId);
    const next = prev ? prev.then(run) : run();
    this.chains.set(e.accountId, next);
    void this.track(next).then(() => {
      if (this.chains.get(e.accountId) === next) this.chains.delete(e.accountId);
    });
  }

  private async dispatch(e: EntryRow, claimedAt: number, started: Started | undefined): Promise<void> {
    const lateBy = claimedAt - e.dueAt;
    if (this.isMissed(e, claimedAt)) {
      // Its post went out already (a crash after it was published, before its entry said so; or
      // published at once meanwhile): nothing was missed, and firing it would only skip it.
      if ((this.stmts.latestPub.get(e.draftId, e.accountId) as { status: string } | undefined)?.status === 'published') {
        this.settle(e, 'done', null);
        return;
      }
      const what = e.attempts === 0 ? '' : ` for attempt ${e.attempts + 1}`;
      const why = `Missed: Herald was not running at ${new Date(e.dueAt).toISOString()}${what} (${Math.round(lateBy / 60_000)} min late)`;
      this.tell(e, { status: 'missed', reason: why });
      this.later(() => {
        this.stmts.missed.run(why, e.id);
        this.afterMissed(e.draftId);
      });
      return;
    }
    let result: TargetResult | undefined;
    let error: string | undefined;
    let full = false;
    let errorCode: string | undefined;
    try {
      const r = started ? await this.publishing.run(started) : await this.publishing.publishDraft(e.userId, this.request(e));
      result = r.results[0];
      full = result?.error?.code === 'STORAGE_FULL';
    } catch (err) {
      // Refused before anything was sent (credits, validation, account gone): not retried, but
      // kept as a failed publication with its code, so progress and history still show it.
      error = (err as Error).message;
      full = isStorageFull(err);
      const code = err instanceof HeraldError ? err.code : 'INTERNAL_ERROR';
      errorCode = code;
      // A full disk is waited out (below), not a refusal.
      if (!full) {
        try {
          this.publishing.recordRefusal(e.userId, e.draftId, e.accountId, e.platform as Platform, { code, message: error });
        } catch (recordErr) {
          this.deps.log.error('Herald could not record a refused scheduled post; its schedule entry keeps the reason', recordErr);
        }
      }
    }
    const now = this.deps.clock.now();
    if (full) {
      this.waitForStorage(e, now);
      return;
    }
    this.storageTries.delete(e.id);
    this.publishing.storageWaits.entries.delete(e.id);
    if (result?.success) {
      this.settle(e, 'done', null);
      return;
    }
    error ??= result?.error?.message ?? 'Publishing failed';
    const attempt = e.attempts + 1;
    if (result?.retry && attempt < MAX_ATTEMPTS) {
      const base = now + this.backoff[Math.min(attempt - 1, this.backoff.length - 1)];
      const at = Math.max(base, result.retry.after ?? 0);
      this.tell(e, { status: 'failed', reason: error, nextAttemptAt: new Date(at).toISOString() });
      this.later(() => {
        // Scheduled again while this attempt ran: the new entry stands instead of the retry.
        if (this.stmts.retry.run({ error, at, id: e.id }).changes === 0) this.stmts.done.run('cancelled', `${error}; scheduled again meanwhile`, e.id);
        this.syncDraft(e.draftId, now);
      });
      return;
    }
    const status = result?.status === 'needs_review' ? 'needs_review' : 'failed';
    this.tell(e, { status, reason: error, errorCode: errorCode ?? result?.error?.code });
    this.settle(e, status, error);
  }

  /**
   * The one log line of a scheduled post that did not go out as planned, in the words progress
   * and history use (text/status-text.ts).
   */
  private tell(e: EntryRow, state: Omit<TargetState, 'network'>): void {
    const network = NETWORK_NAMES[e.platform as Platform] ?? e.platform;
    this.deps.log.warn(`Scheduled post of draft ${e.draftId} to ${network} (account ${e.accountId}): ${targetStatusText({ ...state, network }).text}`);
  }

  /**
   * A local write failed for a full disk while the entry fired (its plan and charge rolled back,
   * or its failure refunded): it goes back to the queue as it was, no attempt counted, waiting for
   * storage. Until that can be written the entry stays claimed, and progress learns of the wait
   * from memory; a kill meanwhile returns claimed entries to the queue at the next start.
   */
  private waitForStorage(e: EntryRow, now: number): void {
    const tries = (this.storageTries.get(e.id) ?? 0) + 1;
    this.storageTries.set(e.id, tries);
    const at = now + this.storageBackoff[Math.min(tries - 1, this.storageBackoff.length - 1)];
    this.publishing.storageWaits.entries.set(e.id, at);
    const error = 'Waiting: the disk that holds Herald\'s data folder is full; nothing was sent or charged. Free some space and it is sent.';
    if (tries === 1) this.deps.log.warn(`Herald: a scheduled post waits for disk space (entry ${e.id}); next try at ${new Date(at).toISOString()}`);
    this.later(() => {
      if (this.stmts.waitStorage.run({ error, at, id: e.id }).changes === 0) this.stmts.done.run('cancelled', 'Scheduled again while it waited for disk space', e.id);
      this.syncDraft(e.draftId, now);
    });
  }

  private settle(e: EntryRow, status: string, error: string | null): void {
    const now = this.deps.clock.now();
    this.later(() => {
      this.stmts.done.run(status, error, e.id);
      this.syncDraft(e.draftId, now);
    });
  }

  /**
   * After an entry's outcome: while other entries of the draft are still to come it stays (or goes
   * back to) `scheduled`; once none is left, it says what happened (see afterLast).
   */
  private syncDraft(draftId: string, now: number): void {
    if (this.stmts.stillScheduled.get(draftId)) this.stmts.backToScheduled.run(new Date(now).toISOString(), draftId);
    else this.afterLast(draftId);
  }

  /** A missed entry: once none of the draft's entries is left, the draft says what happened. */
  private afterMissed(draftId: string): void {
    if (this.stmts.stillScheduled.get(draftId)) return;
    this.afterLast(draftId);
  }

  /**
   * The draft's status once none of its entries is pending or claimed, from every account's latest
   * publication and the entries missed without one that went out: all published → `published`,
   * some → `partially_published`, none begun and all missed → back to `draft`, else `failed`.
   * Written here, after the last entry's outcome, because outcomes are written together: the
   * publication that finished last may have set the draft's status while another entry of the
   * draft was still claimed, and that entry's outcome then set it back to `scheduled`.
   */
  private afterLast(draftId: string): void {
    const latest = this.publishing.latestPublications(draftId);
    // A publish of the draft still running settles the draft itself when it ends.
    if ([...latest.values()].includes('publishing')) return;
    // Entries that ended without their post going out (missed, or refused before it was begun).
    const unsent = new Map((this.stmts.unsentEntries.all(draftId) as { accountId: string; status: string }[])
      .filter((r) => latest.get(r.accountId) !== 'published').map((r) => [r.accountId, r.status]));
    const accounts = new Set([...latest.keys(), ...unsent.keys()]);
    if (accounts.size === 0) return;
    const now = new Date(this.deps.clock.now()).toISOString();
    const published = [...latest.values()].filter((st) => st === 'published').length;
    if (latest.size === 0 && [...unsent.values()].every((st) => st === 'missed')) {
      this.stmts.draftBack.run(now, draftId);
      return;
    }
    this.stmts.finalDraft.run(draftStatusOf(published, accounts.size), now, draftId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.waker.cancel();
    this.slotFreed?.();
    await this.firing;
    await this.settled();
    this.lock.release();
  }
}
