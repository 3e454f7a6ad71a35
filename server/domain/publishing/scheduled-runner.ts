/**
 * Scheduled posts, from claim to outcome: the publishing side of the scheduler (jobs/scheduler.ts
 * only wakes, claims through here and queues per account). A claimed batch is begun at once
 * (planned and charged, in one relaxed transaction); each entry then runs at its turn in its
 * account's queue. Grace/missed (rules/missed.ts), the retry policy (rules/retry.ts) and the
 * draft's status (rules/draft-status.ts) are decided by their one module each.
 *
 * Outcomes are written together, once per turn of the event loop, without waiting for the disk
 * (see relaxed()). A crash before they reach it leaves the entry claimed; the next start puts it
 * back, and firing it again finds its publication settled (published: skipped, not sent or
 * charged again).
 */
import type { Platform } from '../../core/config.js';
import { nowIso } from '../../core/clock.js';
import { crashPoint } from '../../core/crash.js';
import { HeraldError, isStorageFull } from '../../core/errors.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import { NETWORK_LABELS as NETWORK_NAMES } from '../../../text/counting.js';
import { targetStatusText, type TargetState } from '../../../text/status-text.js';
import type { Deps } from '../deps.js';
import type { PublishService, Started, TargetResult } from './publish.service.js';
import { isMissed, missedReason } from './rules/missed.js';
import { nextAttemptAt, RETRY_BACKOFF_MS, STORAGE_BACKOFF_MS, storageRetryAt } from './rules/retry.js';
import { settledDraftStatus } from './rules/draft-status.js';
import { holdForQuota } from './quota-hold.js';
import type { QuotaHold } from './quota-gate.js';

export interface ScheduledRunnerOptions {
  /** Backoff before attempt 2 and 3, ms. */
  backoffMs?: number[];
  /** Waits before each renewed try of an entry a full disk stopped, ms (the last repeats). */
  storageBackoffMs?: number[];
}

export type { EntryRow } from '../../db/repos/schedule.repo.js';

/**
 * The reason an entry keeps while the encrypted secret store waits for its passphrase (Herald
 * restarted, nobody unlocked it yet). Progress shows it with `waitingFor: "reconnect"`: of the
 * values docs/decisions.md §6 allows, the one that says the person must give Herald its access to the
 * account back; "storage" would send them to free disk space, "network" and "quota" blame others.
 */
export const LOCKED_WAIT = 'Waiting: secret store locked: unlock Herald to send. Nothing was sent or charged; it goes out as soon as Herald is unlocked';
/** How often a post waiting for the passphrase is looked at again; unlocking wakes it at once. */
export const LOCKED_RECHECK_MS = 5 * 60_000;

const STORAGE_WAIT = 'Waiting: the disk that holds Herald\'s data folder is full; nothing was sent or charged. Free some space and it is sent.';

export class ScheduledRunner {
  private readonly backoff: readonly number[];
  private readonly storageBackoff: readonly number[];
  /** Tries so far of each entry a full disk stopped (the backoff grows with them). */
  private readonly storageTries = new Map<string, number>();
  /** Outcomes waiting to be written (see later()). */
  private readonly outcomes: (() => void)[] = [];
  private flushing: NodeJS.Immediate | undefined;

  constructor(private readonly deps: Deps, private readonly publishing: PublishService, opts: ScheduledRunnerOptions = {}) {
    this.backoff = opts.backoffMs ?? RETRY_BACKOFF_MS;
    this.storageBackoff = opts.storageBackoffMs ?? STORAGE_BACKOFF_MS;
  }

  private get repos() { return this.publishing.repos; }

  /**
   * A transaction that does not wait for the disk (db/commits.ts) for the scheduler's own
   * bookkeeping (claims, outcomes), which a crash may lose without harm because every start
   * returns claimed entries to the queue and the outbox says what went out. The next FULL commit
   * (the outbox's, before any network call) makes it durable with its own. With FULL, every claim
   * and outcome cost an fsync (db/commits.ts) on the thread that serves the API and fires posts.
   */
  private relaxed<T>(fn: () => T): T {
    return this.repos.commits.relaxed(fn);
  }

  /** When the scheduler should wake next: the earliest due entry, not before a full disk lets claims through. */
  nextWake(): number | null {
    const earliest = this.repos.schedule.earliestDue();
    // While the disk refuses claims, a due entry would wake the scheduler again at once, forever.
    const blocked = this.publishing.storageWaits.claimsBlockedUntil;
    return earliest === null ? null : Math.max(earliest, blocked ?? earliest);
  }

  pendingCount(): number { return this.repos.schedule.pendingCount(); }

  /**
   * Entries a killed process had claimed were never settled by it: the outbox says what went
   * out, so they go back to the queue and publishing resumes where it stopped.
   */
  takeOver(): Promise<unknown> {
    this.repos.schedule.returnClaimed();
    return this.publishing.resumeInterrupted();
  }

  /** Claims up to `limit` entries due at `now`, in the order they are to fire. */
  claim(now: number, limit: number): EntryRow[] {
    const batch = this.relaxed(() => this.repos.schedule.claim(now, limit));
    this.publishing.storageWaits.claimsBlockedUntil = null;
    if (batch.length === 0) return batch;
    crashPoint('claim');
    // RETURNING gives rows in the order SQLite updated them, not the subquery's: sort again.
    batch.sort((a, b) => a.dueAt - b.dueAt || b.priority - a.priority || a.fireAt - b.fireAt);
    return batch;
  }

  /** Claiming failed for a full disk: claims wait until `until` (progress shows the wait). */
  claimsRefused(until: number): void {
    const waits = this.publishing.storageWaits;
    if (waits.claimsBlockedUntil === null) this.deps.log.warn('Herald cannot fire due scheduled posts: the disk that holds its data folder is full. They wait, uncharged, and fire once there is room.');
    waits.claimsBlockedUntil = until;
  }

  private request(e: EntryRow) {
    // Handed off: the network publishes it itself; the run confirms it (hand-off-confirm.ts).
    const options = e.networkScheduledId ? { handedOff: { id: e.networkScheduledId, at: e.handedOffFor ?? e.fireAt } } : undefined;
    return { draftId: e.draftId, targetAccounts: [{ accountId: e.accountId, platform: e.platform }], origin: 'schedule' as const, options, force: this.forced(e) };
  }

  /**
   * Scheduled with force: posts again, once. A publication of the draft to the account made since
   * the entry was written is this entry's own (fired, then a crash before the entry said so).
   */
  private forced(e: EntryRow): boolean {
    if (!e.force) return false;
    const latest = this.repos.outbox.latest(e.userId, e.draftId, e.accountId);
    return !(latest?.status === 'published' && latest.createdAt > e.createdAt);
  }

  /**
   * Past the grace period (rules/missed.ts), unless handed off: the network published it at its
   * time whether Herald was running or not, so it is confirmed however late Herald looks.
   */
  private missed(e: EntryRow, claimedAt: number): boolean {
    return !e.networkScheduledId && isMissed(e.dueAt, claimedAt, this.deps.config.graceMs);
  }

  /**
   * Begins the publications of a claimed batch at once (planned and charged, nothing sent), in one
   * relaxed transaction: a post due now is started now, however many of its account's posts are
   * queued ahead of it; the account's queue then sends them in order. An entry refused here (no
   * credits, the draft edited past a limit, the account gone) is not started; at its turn it is
   * tried the ordinary way, which says why. A crash before the send leaves the publication to its
   * entry (send.ts, giveBack).
   */
  begin(batch: EntryRow[], claimedAt: number): Map<string, Started> {
    const started = new Map<string, Started>();
    // Nothing could be sent: charging now would only be refunded at each entry's turn.
    if (this.deps.secrets.locked) return started;
    try {
      this.publishing.ensureGrants(batch.map((e) => e.userId));
      this.relaxed(() => {
        for (const e of batch) {
          if (this.missed(e, claimedAt)) continue;
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

  /** The scheduler stopped before the entry's turn: back to the queue, its begun publish given up. */
  giveUp(e: EntryRow, started: Started | undefined): void {
    this.repos.schedule.unclaim(e.id);
    if (started) this.publishing.release(started);
  }

  /** Fires one claimed entry at its turn; `claimedAt` is when it was found due. */
  async dispatch(e: EntryRow, claimedAt: number, started: Started | undefined): Promise<void> {
    const { schedule, publications } = this.repos;
    if (this.missed(e, claimedAt)) {
      // Its post went out already (a crash after it was published, before its entry said so; or
      // published at once meanwhile): nothing was missed, and firing it would only skip it.
      if (!this.forced(e) && publications.latestStatusOf(e.draftId, e.accountId) === 'published') {
        this.settle(e, 'done', null);
        return;
      }
      const why = missedReason(e.dueAt, e.attempts, claimedAt);
      this.tell(e, { status: 'missed', reason: why });
      this.later(() => {
        schedule.missed(e.id, why);
        this.publishing.stream.post(e.userId, 'post.missed', e, { error: why });
        this.afterMissed(e.draftId);
      });
      return;
    }
    if (this.deps.secrets.locked) {
      if (started) this.publishing.release(started);
      this.waitForUnlock(e, this.deps.clock.now());
      return;
    }
    // The network's posting cap (quota-gate.ts): over it, the entry waits, pending and uncharged.
    const hold = await holdForQuota(this.publishing, e, started);
    if (hold) {
      if (started) this.publishing.unbegin(started);
      this.waitForQuota(e, hold);
      return;
    }
    let result: TargetResult | undefined;
    let error: string | undefined;
    let full = false;
    let errorCode: string | undefined;
    try {
      const r = started ? await this.publishing.run(started) : await this.publishing.publishDraft(e.userId, this.request(e));
      result = r.results[0];
      // Over X's spend cap set to warn: it went, and the log says so.
      for (const w of ('warnings' in r ? r.warnings ?? [] : [])) this.deps.log.warn(`Scheduled post of draft ${e.draftId}: ${w}`);
      full = result?.error?.code === 'STORAGE_FULL';
    } catch (err) {
      // Refused before anything was sent (credits, validation, account gone): not retried, but
      // kept as a failed publication with its code, so progress and history still show it.
      error = (err as Error).message;
      full = isStorageFull(err);
      const code = err instanceof HeraldError ? err.code : 'INTERNAL_ERROR';
      errorCode = code;
      // A full disk and a locked secret store are waited out (below), not refusals.
      if (!full && code !== 'SECRET_STORE_LOCKED') {
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
    // Locked while it ran (its failure was refunded): it waits like one found locked at its turn.
    if ((errorCode ?? result?.error?.code) === 'SECRET_STORE_LOCKED') {
      this.waitForUnlock(e, now);
      return;
    }
    this.storageTries.delete(e.id);
    this.publishing.storageWaits.entries.delete(e.id);
    if (result?.success) {
      this.settle(e, 'done', null);
      return;
    }
    const failure = error ?? result?.error?.message ?? 'Publishing failed';
    const at = nextAttemptAt(e.attempts + 1, now, result?.retry, this.backoff);
    if (at !== null) {
      this.tell(e, { status: 'failed', reason: failure, nextAttemptAt: new Date(at).toISOString() });
      this.later(() => {
        // Scheduled again while this attempt ran: the new entry stands instead of the retry.
        const retried = schedule.retry(e.id, failure, at);
        if (!retried) schedule.finish(e.id, 'cancelled', `${failure}; scheduled again meanwhile`);
        this.publishing.stream.post(e.userId, 'post.failed', e, { error: failure, errorCode: errorCode ?? result?.error?.code ?? null, nextAttemptAt: retried ? new Date(at).toISOString() : null });
        this.syncDraft(e.draftId, now);
      });
      return;
    }
    const status = result?.status === 'needs_review' ? 'needs_review' : 'failed';
    this.tell(e, { status, reason: failure, errorCode: errorCode ?? result?.error?.code });
    this.settle(e, status, failure, () => this.publishing.stream.post(e.userId, 'post.failed', e, { error: failure, errorCode: errorCode ?? result?.error?.code ?? null, nextAttemptAt: null }));
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
    const at = storageRetryAt(tries, now, this.storageBackoff);
    this.publishing.storageWaits.entries.set(e.id, at);
    if (tries === 1) this.deps.log.warn(`Herald: a scheduled post waits for disk space (entry ${e.id}); next try at ${new Date(at).toISOString()}`);
    this.later(() => {
      if (!this.repos.schedule.waitForStorage(e.id, STORAGE_WAIT, at)) this.repos.schedule.finish(e.id, 'cancelled', 'Scheduled again while it waited for disk space');
      this.syncDraft(e.draftId, now);
    });
  }

  /**
   * The secret store is locked, so the account's tokens cannot be read: the entry goes back to the
   * queue as it was, no attempt counted, nothing charged, waiting for the passphrase. Unlocking
   * makes it due at once (ScheduleService.secretsUnlocked); until then it is looked at again every
   * few minutes. The missed rule still applies to its first due time, as for any entry.
   */
  private waitForUnlock(e: EntryRow, now: number): void {
    const at = now + LOCKED_RECHECK_MS;
    if (e.lastError !== LOCKED_WAIT) this.tell(e, { status: 'pending', reason: 'the secret store is locked; it is sent once Herald is unlocked', nextAttemptAt: new Date(at).toISOString() });
    this.later(() => {
      if (!this.repos.schedule.waitForUnlock(e.id, LOCKED_WAIT, at)) this.repos.schedule.finish(e.id, 'cancelled', 'Scheduled again while it waited for the secret store to be unlocked');
      this.syncDraft(e.draftId, now);
    });
  }

  /** Held back by a posting cap: back to the queue, no attempt counted, until the window frees; progress and the event stream say when. */
  private waitForQuota(e: EntryRow, hold: QuotaHold): void {
    const now = this.deps.clock.now();
    const at = new Date(hold.until).toISOString();
    this.deps.log.warn(`Scheduled post of draft ${e.draftId} (account ${e.accountId}): ${hold.reason}; it goes at ${at}`);
    this.later(() => {
      if (!this.repos.schedule.waitForQuota(e.id, hold.reason, hold.until)) this.repos.schedule.finish(e.id, 'cancelled', 'Scheduled again while it waited for the quota');
      else this.publishing.stream.post(e.userId, 'post.scheduled', e, { scheduledFor: at, waitingFor: 'quota', nextAttemptAt: at, reason: hold.reason });
      this.syncDraft(e.draftId, now);
    });
  }

  /** Writes the entry's outcome (and `alsoWrite`, its event, in the same transaction). */
  private settle(e: EntryRow, status: string, error: string | null, alsoWrite?: () => void): void {
    const now = this.deps.clock.now();
    this.later(() => {
      this.repos.schedule.finish(e.id, status, error);
      alsoWrite?.();
      this.syncDraft(e.draftId, now);
    });
  }

  private later(write: () => void): void {
    this.outcomes.push(write);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Writes the outcomes waiting, together (the scheduler calls it once its work has settled). */
  flush(): void {
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

  /**
   * After an entry's outcome: while other entries of the draft are still to come it stays (or goes
   * back to) `scheduled`; once none is left, it says what happened (see afterLast).
   */
  private syncDraft(draftId: string, now: number): void {
    if (this.repos.schedule.hasActive(draftId)) this.repos.draftStatus.setBackToScheduled(draftId, new Date(now).toISOString());
    else this.afterLast(draftId);
  }

  /** A missed entry: once none of the draft's entries is left, the draft says what happened. */
  private afterMissed(draftId: string): void {
    if (this.repos.schedule.hasActive(draftId)) return;
    this.afterLast(draftId);
  }

  /**
   * The draft's status once none of its entries is pending or claimed (rules/draft-status.ts).
   * Written here, after the last entry's outcome, because outcomes are written together: the
   * publication that finished last may have set the draft's status while another entry of the
   * draft was still claimed, and that entry's outcome then set it back to `scheduled`.
   */
  private afterLast(draftId: string): void {
    const { publications, schedule, draftStatus } = this.repos;
    const status = settledDraftStatus(publications.latestStatuses(draftId), schedule.unsent(draftId));
    if (status === null) return;
    const now = nowIso(this.deps.clock);
    if (status === 'draft') draftStatus.setBackToDraft(draftId, now);
    else draftStatus.setSettledAfterSchedule(draftId, status, now);
  }
}
