/**
 * Wakes the publisher for scheduled posts. The queue lives in SQLite (schedule_entries, indexed by
 * status and fire time); node-schedule arms a single wake-up for the earliest due entry, re-armed
 * whenever the queue changes, and a periodic sweep backs it up. When it wakes, every due entry is
 * claimed in batches (an atomic UPDATE … RETURNING, so two wake-ups never fire one entry twice),
 * its publication begun at once (planned and charged, the whole batch in one relaxed
 * transaction), and handed to its account's queue, which sends: in order per account, in
 * parallel across accounts. Claiming never waits for a network, so one slow network does not
 * make the others' posts late, and a post queued behind its account's earlier ones is already
 * started when it fell due.
 *
 * This file only wakes, claims and queues: what an entry's firing means (grace and missed, the
 * retries, waiting out a full disk, the draft's status) is the publishing service's
 * (domain/publishing/scheduled-runner.ts and its rules/).
 */
import { createRequire } from 'node:module';
import type schedule from 'node-schedule';
import type { Deps } from '../domain/deps.js';
import type { Started } from '../domain/publishing/model.js';
import type { EntryRow, ScheduledRunner } from '../domain/publishing/scheduled-runner.js';
import type { ScheduleService } from '../domain/scheduling/schedule.service.js';
import type { HandOffService } from '../domain/scheduling/hand-off.service.js';
import { monotonicMs } from '../core/clock.js';
import { isStorageFull } from '../core/errors.js';

/**
 * The data folder's scheduler lock (db/scheduler-lock.ts, built by the composition root): one
 * scheduler per folder.
 */
export interface FolderLock {
  readonly held: boolean;
  tryAcquire(): boolean;
  release(): void;
}

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
    mono = monotonicMs();
    // node-schedule handles dates past setTimeout's 24.8-day limit.
    job = schedule.scheduleJob(new Date(Date.now() + Math.max(delay, 1)), fire);
    if (!job) setImmediate(fire); // the date was already past
  };
  const check = () => {
    if (!target) return;
    const jumped = clock.now() - wall - (monotonicMs() - mono);
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

/** What fell due while the machine slept (Scheduler.afterWake). */
export interface WakeReport {
  since: number;
  wokeAt: number;
  /** Sent when Herald woke, within the grace period (`lateMs` after its time). */
  late: WakeItem[];
  /** Past the grace period: not sent, not charged. */
  missed: WakeItem[];
  failed: WakeItem[];
  /** Published by the network itself at its time (hand-off), confirmed on waking. */
  handedOff: WakeItem[];
}

export interface WakeItem {
  draftId: string;
  title: string;
  platform: string;
  dueAt: number;
  lateMs: number;
  error: string | null;
}

export interface SchedulerOptions {
  waker?: Waker;
  /** Backup sweep interval, ms (default 20 s). */
  sweepMs?: number;
  batchSize?: number;
  /** Most entries claimed and not yet settled at once (default 2,000). */
  maxInFlight?: number;
  /** The data folder's lock (createServer takes it first, for the media tidy-up). */
  lock: FolderLock;
  /** Hands posts to networks that schedule them (docs/decisions.md §14); run after each change and sweep. */
  handOff?: HandOffService;
}

export class Scheduler {
  readonly lock: FolderLock;
  private readonly waker: Waker;
  private readonly sweepMs: number;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private sweepTimer: NodeJS.Timeout | undefined;
  private firing: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Whether this scheduler has resumed what a stopped process left (once per lock held). */
  private tookOver = false;
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

  /** `runner`: the publishing side of scheduled posts (createServices builds it with its collaborators). */
  constructor(
    private readonly deps: Deps,
    private readonly runner: ScheduledRunner,
    queue: ScheduleService,
    opts: SchedulerOptions,
  ) {
    this.lock = opts.lock;
    this.waker = opts.waker ?? nodeScheduleWaker(deps.clock);
    this.sweepMs = opts.sweepMs ?? 20_000;
    this.batchSize = opts.batchSize ?? 200;
    this.maxInFlight = opts.maxInFlight ?? 2_000;
    this.handOff = opts.handOff;
    queue.onChange = () => {
      this.rearm();
      this.syncHandOffs();
    };
  }

  private readonly handOff: HandOffService | undefined;

  /** A hand-off pass (hand-off.service.ts) in the background, tracked so tick() and stop() wait for it. */
  private syncHandOffs(): void {
    if (!this.active || !this.handOff) return;
    void this.track(this.handOff.sync());
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
    this.startedAt = monotonicMs();
    this.sweepTimer = setInterval(() => {
      void this.tick();
    }, this.sweepMs);
    this.sweepTimer.unref();
    await this.tick();
  }

  private takeOver(): boolean {
    if (this.lock.held && this.tookOver) return true;
    // The lock may come already held (createServer took it for the media tidy-up): the take-over
    // below still runs once.
    if (!this.lock.held && !this.lock.tryAcquire()) return false;
    this.tookOver = true;
    // Claimed entries go back to the queue and publishing resumes where a killed process stopped.
    this.resuming = this.track(
      this.runner.takeOver().catch((err) => this.deps.log.error('Herald could not resume interrupted publishing', err)),
    );
    return true;
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p)).catch(() => {});
    return p;
  }

  rearm(): void {
    if (!this.active) return;
    const at = this.runner.nextWake();
    if (at === null) this.waker.cancel();
    else
      this.waker.arm(at, () => {
        void this.tick();
      });
    if (this.startedAt !== undefined) {
      // The first wake-up after start: how long rebuilding the timers from the database took
      // (the bench reads it with 100,000 entries pending).
      const ms = monotonicMs() - this.startedAt;
      this.startedAt = undefined;
      const n = this.runner.pendingCount();
      // Not toLocaleString: loading ICU's number formats costs start-up ~10 ms.
      this.deps.log.info(
        `Scheduler: ${n} pending, next wake-up ${at === null ? 'none' : new Date(at).toISOString()} (armed ` +
          `in ${ms.toFixed(1)} ms)`,
      );
    }
  }

  /**
   * Claims everything due now and hands it to the accounts' queues. Safe to call at any time,
   * from any number of places; resolves once what is in flight has settled.
   */
  tick(): Promise<void> {
    if (this.stopped || !this.takeOver()) return Promise.resolve();
    this.syncHandOffs();
    if (this.firing) {
      this.again = true;
      return this.firing.then(() => this.settled()).then(() => this.rearm());
    }
    this.firing = (async () => {
      try {
        do {
          this.again = false;
          await this.fireDue();
        } while (this.again && !this.stopped);
      } catch (err) {
        if (isStorageFull(err)) this.runner.claimsRefused(this.deps.clock.now() + this.sweepMs);
        else this.deps.log.error('Herald could not claim due scheduled posts; the next sweep tries again', err);
      } finally {
        this.firing = undefined;
        this.rearm();
      }
    })();
    // Outcomes written once dispatches settle can move entries' due times (a retry, a quota
    // wait): the wake-up is armed again for them, not left to the next sweep.
    return this.firing.then(() => this.settled()).then(() => this.rearm());
  }

  /** Resolves when nothing is in flight and every outcome is written. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    this.runner.flush();
  }

  private async fireDue(): Promise<void> {
    // Publications a crash interrupted are finished first: a due entry of the same draft and
    // account then finds its post published instead of racing the resumption to the network.
    if (this.resuming) await this.resuming;
    for (;;) {
      if (this.stopped) return;
      while (this.claimed >= this.maxInFlight && !this.stopped)
        await new Promise<void>((r) => {
          this.slotFreed = r;
        });
      const now = this.deps.clock.now();
      const batch = this.runner.claim(now, Math.min(this.batchSize, this.maxInFlight - this.claimed));
      if (batch.length === 0) return;
      const started = this.runner.begin(batch, now);
      for (const e of batch) this.enqueue(e, now, started.get(e.id));
    }
  }

  /** Appends an entry to its account's queue; `claimedAt` is when it was found due. */
  private enqueue(e: EntryRow, claimedAt: number, started: Started | undefined): void {
    this.claimed += 1;
    const run = async () => {
      try {
        if (this.stopped) this.runner.giveUp(e, started);
        else await this.runner.dispatch(e, claimedAt, started);
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

  /** When Herald itself must next send a post (handed-off posts excluded; 0 while one is being sent). */
  nextLocalDue(): number | null {
    return this.runner.nextLocalDue();
  }

  /**
   * The machine woke from sleep (the desktop app's powerMonitor 'resume'): the wake-up is armed
   * again from the clock as it is now, and everything due is claimed at once, each entry by the
   * grace/missed rule (rules/missed.ts): sent late within the grace period, missed past it. Then
   * answers what fell due while asleep (from `since`, when it went to sleep): what went out late,
   * what was missed or failed, and what the network published itself (handed off).
   */
  async afterWake(since: number): Promise<WakeReport> {
    const wokeAt = this.deps.clock.now();
    this.waker.cancel();
    await this.tick();
    const report: WakeReport = { since, wokeAt, late: [], missed: [], failed: [], handedOff: [] };
    for (const e of this.runner.settledBetween(since, wokeAt)) {
      const item = {
        draftId: e.draftId,
        title: e.title,
        platform: e.platform,
        dueAt: e.fireAt,
        lateMs: Math.max(0, wokeAt - e.fireAt),
        error: e.error,
      };
      if (e.status === 'done') (e.networkScheduledId ? report.handedOff : report.late).push(item);
      else if (e.status === 'missed') report.missed.push(item);
      else report.failed.push(item);
    }
    return report;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.waker.cancel();
    this.slotFreed?.();
    await this.firing;
    await this.settled();
    this.lock.release();
    this.tookOver = false;
  }
}
