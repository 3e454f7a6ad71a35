/**
 * The event stream (docs/decisions.md §12, GET /events): every state change of a post (scheduled, sending,
 * published, failed, missed, cancelled), an account needing to be connected again, and every
 * credits change. Each is written once, by the service making the change, through record(), in
 * the transaction of the change: a rolled-back change leaves no event, a committed one always
 * has its event. Rows are kept 7 days; ids only grow, so a client resumes after the last id it saw.
 *
 * Open streams are woken by an in-process notifier, once per turn of the event loop after rows
 * were appended (every transaction here is synchronous, so by then it has committed or rolled
 * back). Another Herald process on the same data folder (the desktop app beside `npm run serve`)
 * appends without this notifier: while streams are open, one shared timer looks at the newest
 * id once a second and wakes them when it moved. No stream polls on its own.
 */
import type { Platform } from '../../core/config.js';
import type { EventRow, EventsRepo } from '../../db/repos/events.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import type { Deps } from '../deps.js';

export const EVENT_TYPES = [
  'post.scheduled',
  'post.sending',
  'post.published',
  'post.failed',
  'post.missed',
  'post.cancelled',
  'account.needs_reauth',
  'credits.changed',
  // Upkeep notices (domain/alerts/upkeep.ts), told once each.
  'account.expiring',
  'credits.low',
  'xspend.near_cap',
  'network.version_expiring',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type PostEventType = Extract<EventType, `post.${string}`>;

/** What every post event carries, plus its own fields (url, error, nextAttemptAt, scheduledFor). */
export interface PostRef {
  draftId: string | null;
  accountId: string;
  platform: Platform | string;
}

export const KEEP_MS = 7 * 24 * 60 * 60_000;
const PURGE_EVERY_MS = 60 * 60_000;
const OTHER_PROCESS_CHECK_MS = 1_000;

export interface StreamLimits {
  /** Bytes a stream may have waiting to go out before it stops reading rows for that client. */
  bufferBytes: number;
  /** A client that takes no bytes for this long while its buffer is full is dropped, ms. */
  stallMs: number;
  /** A comment line this often keeps the stream (and the socket's idle timer) alive, ms. */
  keepAliveMs: number;
  /** Rows read per query. */
  batch: number;
}

export class EventsService {
  /** Stream limits (tests make them small). */
  readonly limits: StreamLimits = { bufferBytes: 256 * 1024, stallMs: 30_000, keepAliveMs: 15_000, batch: 500 };
  /** Streams dropped for not reading (tests and figures read it). */
  dropped = 0;
  private readonly listeners = new Map<() => void, () => void>();
  /** In-process readers that are not streams (the alerts); not counted in `streams`. */
  private readonly appendWatchers = new Set<() => void>();
  private wakeQueued = false;
  private lastPurge = Number.NEGATIVE_INFINITY;
  private seenMax = 0;
  private watch: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly repo: EventsRepo,
    private readonly tx: Transactions,
  ) {}

  /** Appends one event; call inside the transaction of the change it tells of. */
  record(userId: string, type: EventType, data: Record<string, unknown>): void {
    const now = this.deps.clock.now();
    this.repo.append(userId, type, JSON.stringify({ at: new Date(now).toISOString(), ...data }), now);
    this.wakeSoon();
  }

  post(userId: string, type: PostEventType, ref: PostRef, extra: Record<string, unknown> = {}): void {
    this.record(userId, type, { draftId: ref.draftId, accountId: ref.accountId, platform: ref.platform, ...extra });
  }

  /** The user's events after `afterId`, oldest first. */
  read(userId: string, afterId: number, limit = this.limits.batch): EventRow[] {
    return this.repo.after(userId, afterId, limit);
  }

  /** Where a stream without Last-Event-ID starts: after the user's newest event. */
  latestId(userId: string): number {
    return this.repo.userMaxId(userId);
  }

  /**
   * Calls `wake` whenever events may have been appended, and `end` when the server shuts down;
   * returns the unsubscribe.
   */
  subscribe(wake: () => void, end: () => void): () => void {
    this.purgeDue();
    this.listeners.set(wake, end);
    if (!this.watch) {
      this.seenMax = this.repo.maxId();
      this.watch = setInterval(() => this.checkOtherProcesses(), OTHER_PROCESS_CHECK_MS);
      this.watch.unref();
    }
    return () => {
      this.listeners.delete(wake);
      if (this.listeners.size === 0 && this.watch) {
        clearInterval(this.watch);
        this.watch = undefined;
      }
    };
  }

  /** Calls `fn` (once per turn) after this process appended events; returns the unsubscribe. */
  onAppend(fn: () => void): () => void {
    this.appendWatchers.add(fn);
    return () => this.appendWatchers.delete(fn);
  }

  /** Open streams. */
  get streams(): number {
    return this.listeners.size;
  }

  /** Deletes events older than 7 days (by the injected clock); returns how many. */
  purge(): number {
    const now = this.deps.clock.now();
    this.lastPurge = now;
    return this.repo.purgeBefore(now - KEEP_MS);
  }

  private purgeDue(): void {
    if (this.deps.clock.now() - this.lastPurge < PURGE_EVERY_MS) return;
    try {
      this.purge();
    } catch (err) {
      // A busy or full disk: the rows wait for the next purge; streams are unaffected.
      this.deps.log.warn(`Herald could not purge old events: ${(err as Error).message}`);
    }
  }

  private wakeSoon(): void {
    if (this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      if (this.tx.active) return this.wakeSoon();
      this.purgeDue();
      this.wake();
    });
  }

  private wake(): void {
    for (const l of [...this.listeners.keys()]) l();
    for (const w of [...this.appendWatchers]) w();
  }

  /** Ends every open stream (the server is closing). */
  shutdown(): void {
    for (const end of [...this.listeners.values()]) end();
  }

  private checkOtherProcesses(): void {
    let max: number;
    try {
      max = this.repo.maxId();
    } catch {
      return;
    }
    if (max !== this.seenMax) {
      this.seenMax = max;
      this.wake();
    }
  }
}
