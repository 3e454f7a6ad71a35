/**
 * Scheduled posts, from claim to outcome: the publishing side of the scheduler (jobs/scheduler.ts
 * only wakes, claims through here and queues per account). A scheduled post's trip: wake
 * (scheduler.ts) → claim (claim()) → begin (the publish service plans and charges the claimed
 * batch at once, in one relaxed transaction) → send (at its turn in its account's queue, the
 * publish service's run()) → settle (scheduled-outcomes.ts: the entry's outcome, then the
 * draft's status, by its one writer, draft-status-writer.ts). Grace/missed (rules/missed.ts), the
 * retry policy (rules/retry.ts) and the draft's status (rules/draft-status.ts) are decided by
 * their one module each. Its collaborators come from createServices; it never reaches into the
 * publish service.
 *
 * Outcomes are written together, once per turn of the event loop, without waiting for the disk
 * (scheduled-outcomes.ts); an entry that must wait (a full disk, the secret store locked, a
 * posting cap) goes back to the queue by the rules of scheduled-waits.ts.
 */
import type { Platform } from '../../core/config.js';
import { crashPoint } from '../../core/crash.js';
import { HeraldError, isStorageFull } from '../../core/errors.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { Deps } from '../deps.js';
import type { EventsService } from '../events/events.service.js';
import type { DraftStatusWriter } from './draft-status-writer.js';
import type { Planned, Started, TargetResult } from './model.js';
import type { PublishService } from './publish.service.js';
import { isMissed, missedReason } from './rules/missed.js';
import { nextAttemptAt, RETRY_BACKOFF_MS, STORAGE_BACKOFF_MS } from './rules/retry.js';
import type { QuotaHolds } from './quota-hold.js';
import { ScheduledOutcomes } from './scheduled-outcomes.js';
import { ScheduledWaits, tell } from './scheduled-waits.js';
import type { StorageWaits } from './storage-waits.js';

export interface ScheduledRunnerOptions {
  /** Backoff before attempt 2 and 3, ms. */
  backoffMs?: number[];
  /** Waits before each renewed try of an entry a full disk stopped, ms (the last repeats). */
  storageBackoffMs?: number[];
}

export type { EntryRow } from '../../db/repos/schedule.repo.js';

/** What the scheduled runner asks of the publish service: begin, run, give up, and record a refusal. */
export type ScheduledPublisher = Pick<
  PublishService,
  'ensureGrants' | 'plan' | 'begin' | 'run' | 'release' | 'unbegin' | 'recordRefusal' | 'resumeInterrupted'
>;

/** The scheduled runner's collaborators, built by createServices. */
export interface ScheduledRunnerParts {
  repos: Pick<PublishingRepos, 'schedule' | 'publications' | 'handOff' | 'commits' | 'outbox'>;
  publishing: ScheduledPublisher;
  quotaHolds: QuotaHolds;
  storageWaits: StorageWaits;
  stream: EventsService;
  draftStatus: DraftStatusWriter;
}

export class ScheduledRunner {
  private readonly backoff: readonly number[];
  private readonly outcomes: ScheduledOutcomes;
  private readonly waits: ScheduledWaits;
  private readonly repos: ScheduledRunnerParts['repos'];
  private readonly publishing: ScheduledPublisher;
  private readonly storageWaits: StorageWaits;
  private readonly stream: EventsService;

  constructor(
    private readonly deps: Deps,
    private readonly parts: ScheduledRunnerParts,
    opts: ScheduledRunnerOptions = {},
  ) {
    ({ repos: this.repos, publishing: this.publishing, storageWaits: this.storageWaits, stream: this.stream } = parts);
    this.backoff = opts.backoffMs ?? RETRY_BACKOFF_MS;
    this.outcomes = new ScheduledOutcomes(deps, this.repos, parts.draftStatus);
    const storageBackoff = opts.storageBackoffMs ?? STORAGE_BACKOFF_MS;
    this.waits = new ScheduledWaits(deps, { ...parts, outcomes: this.outcomes, storageBackoff });
  }

  /**
   * A transaction that does not wait for the disk (db/commits.ts) for the scheduler's own
   * bookkeeping (claims, outcomes), which a crash may lose without harm because every start
   * returns claimed entries to the queue and the outbox says what went out. The next FULL commit
   * (the outbox's, before any network call) makes it durable with its own. With FULL, every claim
   * and outcome cost an fsync (~4.5 ms here) on the thread that serves the API and fires posts.
   */
  private relaxed<T>(fn: () => T): T {
    return this.repos.commits.relaxed(fn);
  }

  /** When the scheduler should wake next: the earliest due entry, not before a full disk lets claims through. */
  nextWake(): number | null {
    const earliest = this.repos.schedule.earliestDue();
    // While the disk refuses claims, a due entry would wake the scheduler again at once, forever.
    const blocked = this.storageWaits.claimsBlockedUntil;
    return earliest === null ? null : Math.max(earliest, blocked ?? earliest);
  }

  pendingCount(): number {
    return this.repos.schedule.pendingCount();
  }

  /** When Herald itself must next send a post (handed-off posts excluded; 0 while one is being sent). */
  nextLocalDue(): number | null {
    return this.repos.handOff.nextLocalDue();
  }

  /** Entries that fell due between two instants and have ended (the scheduler's wake report). */
  settledBetween(since: number, until: number) {
    return this.repos.handOff.settledBetween(since, until);
  }

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
    this.storageWaits.claimsBlockedUntil = null;
    if (batch.length === 0) return batch;
    crashPoint('claim');
    // RETURNING gives rows in the order SQLite updated them, not the subquery's: sort again.
    batch.sort((a, b) => a.dueAt - b.dueAt || b.priority - a.priority || a.fireAt - b.fireAt);
    return batch;
  }

  /** Claiming failed for a full disk: claims wait until `until` (progress shows the wait). */
  claimsRefused(until: number): void {
    const waits = this.storageWaits;
    if (waits.claimsBlockedUntil === null)
      this.deps.log.warn(
        'Herald cannot fire due scheduled posts: the disk that holds its data folder is full. They wait, ' +
          'uncharged, and fire once there is room.',
      );
    waits.claimsBlockedUntil = until;
  }

  private request(e: EntryRow) {
    // Handed off: the network publishes it itself; the run confirms it (hand-off-confirm.ts).
    const options = e.networkScheduledId
      ? { handedOff: { id: e.networkScheduledId, at: e.handedOffFor ?? e.fireAt } }
      : undefined;
    return {
      draftId: e.draftId,
      targetAccounts: [{ accountId: e.accountId, platform: e.platform }],
      origin: 'schedule' as const,
      options,
      force: this.forced(e),
      firstText: e.firstText ?? undefined,
    };
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
      this.deps.log.warn(
        `Herald could not start a batch of due posts at once; they start one by one (${(err as Error).message})`,
      );
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
        this.outcomes.settle(e, 'done', null);
        return;
      }
      const why = missedReason(e.dueAt, e.attempts, claimedAt);
      tell(this.deps.log, e, { status: 'missed', reason: why });
      this.outcomes.later(e.draftId, () => {
        schedule.missed(e.id, why);
        this.stream.post(e.userId, 'post.missed', e, { error: why });
      });
      return;
    }
    if (this.deps.secrets.locked) {
      if (started) this.publishing.release(started);
      this.waits.forUnlock(e, this.deps.clock.now());
      return;
    }
    // Not begun with its batch: planned once here, for the quota and for its begin below.
    let planned: Planned | undefined;
    let refused: { why: unknown } | undefined;
    if (!started) {
      try {
        planned = this.publishing.plan(e.userId, this.request(e));
      } catch (why) {
        refused = { why };
      }
    }
    // The network's posting cap (quota-gate.ts): over it, the entry waits, pending and uncharged.
    const hold = await this.parts.quotaHolds.check(e, started, planned);
    if (hold) {
      if (started) this.publishing.unbegin(started);
      this.waits.forQuota(e, hold);
      return;
    }
    let result: TargetResult | undefined;
    let error: string | undefined;
    let full = false;
    let errorCode: string | undefined;
    try {
      if (refused) throw refused.why;
      const r = await this.publishing.run(started ?? this.publishing.begin(e.userId, this.request(e), planned));
      result = r.results[0];
      // Over X's spend cap set to warn: it went, and the log says so.
      for (const w of 'warnings' in r ? (r.warnings ?? []) : [])
        this.deps.log.warn(`Scheduled post of draft ${e.draftId}: ${w}`);
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
          this.publishing.recordRefusal(e.userId, e.draftId, e.accountId, e.platform as Platform, {
            code,
            message: error,
          });
        } catch (recordErr) {
          this.deps.log.error(
            'Herald could not record a refused scheduled post; its schedule entry keeps the reason',
            recordErr,
          );
        }
      }
    }
    const now = this.deps.clock.now();
    if (full) {
      this.waits.forStorage(e, now);
      return;
    }
    // Locked while it ran (its failure was refunded): it waits like one found locked at its turn.
    if ((errorCode ?? result?.error?.code) === 'SECRET_STORE_LOCKED') {
      this.waits.forUnlock(e, now);
      return;
    }
    this.waits.clearStorage(e);
    if (result?.hold) {
      this.waits.forQuota(e, result.hold);
      return;
    }
    if (result?.success) {
      this.outcomes.settle(e, 'done', null);
      return;
    }
    const failure = error ?? result?.error?.message ?? 'Publishing failed';
    const at = nextAttemptAt(e.attempts + 1, now, result?.retry, this.backoff);
    if (at !== null) {
      tell(this.deps.log, e, { status: 'failed', reason: failure, nextAttemptAt: new Date(at).toISOString() });
      this.outcomes.later(e.draftId, () => {
        // Scheduled again while this attempt ran: the new entry stands instead of the retry.
        const retried = schedule.retry(e.id, failure, at);
        if (!retried) schedule.finish(e.id, 'cancelled', `${failure}; scheduled again meanwhile`);
        this.stream.post(e.userId, 'post.failed', e, {
          error: failure,
          errorCode: errorCode ?? result?.error?.code ?? null,
          nextAttemptAt: retried ? new Date(at).toISOString() : null,
        });
      });
      return;
    }
    const status = result?.status === 'needs_review' ? 'needs_review' : 'failed';
    tell(this.deps.log, e, { status, reason: failure, errorCode: errorCode ?? result?.error?.code });
    this.outcomes.settle(e, status, failure, () =>
      this.stream.post(e.userId, 'post.failed', e, {
        error: failure,
        errorCode: errorCode ?? result?.error?.code ?? null,
        nextAttemptAt: null,
      }),
    );
  }

  /**
   * Writes the outcomes waiting, together, then each of their drafts' status once, by its one
   * writer (the scheduler calls it once its work has settled).
   */
  flush(): void {
    this.outcomes.flush();
  }
}
