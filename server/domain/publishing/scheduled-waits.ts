/**
 * The waits of a scheduled post: instead of being sent, the entry goes back to the queue as it
 * was, pending, no attempt counted and nothing charged, until what it waits for is there: disk
 * space, the secret store's passphrase, or room under a network's posting cap. Each wait is
 * written with the entry's other outcomes (scheduled-outcomes.ts); progress and the event stream
 * say what it waits for and until when.
 */
import type { Platform } from '../../core/config.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import { NETWORK_LABELS as NETWORK_NAMES } from '../../../text/counting.js';
import { targetStatusText, type TargetState } from '../../../text/status-text.js';
import type { Deps } from '../deps.js';
import type { EventsService } from '../events/events.service.js';
import type { QuotaHold } from './quota-gate.js';
import { storageRetryAt } from './rules/retry.js';
import type { ScheduledOutcomes } from './scheduled-outcomes.js';
import type { StorageWaits } from './storage-waits.js';

/**
 * The reason an entry keeps while the encrypted secret store waits for its passphrase (Herald
 * restarted, nobody unlocked it yet). Progress shows it with `waitingFor: "reconnect"`: of the
 * values docs/decisions.md §6 allows, the one that says the person must give Herald its access to the
 * account back; "storage" would send them to free disk space, "network" and "quota" blame others.
 */
export const LOCKED_WAIT =
  'Waiting: secret store locked: unlock Herald to send. Nothing was sent or charged; it goes out as soon as ' +
  'Herald is unlocked';
/** How often a post waiting for the passphrase is looked at again; unlocking wakes it at once. */
export const LOCKED_RECHECK_MS = 5 * 60_000;

const STORAGE_WAIT =
  "Waiting: the disk that holds Herald's data folder is full; nothing was sent or charged. Free some space " +
  'and it is sent.';

/**
 * The one log line of a scheduled post that did not go out as planned, in the words progress
 * and history use (text/status-text.ts).
 */
export function tell(log: Deps['log'], e: EntryRow, state: Omit<TargetState, 'network'>): void {
  const network = NETWORK_NAMES[e.platform as Platform] ?? e.platform;
  log.warn(
    `Scheduled post of draft ${e.draftId} to ${network} (account ${e.accountId}): ` +
      `${targetStatusText({ ...state, network }).text}`,
  );
}

/** What the waits work with, all from the scheduled runner. */
export interface ScheduledWaitsParts {
  repos: Pick<PublishingRepos, 'schedule'>;
  outcomes: ScheduledOutcomes;
  storageWaits: StorageWaits;
  stream: EventsService;
  /** Waits before each renewed try of an entry a full disk stopped, ms (the last repeats). */
  storageBackoff: readonly number[];
}

/** Puts scheduled posts back to wait, each for what it lacks. */
export class ScheduledWaits {
  /** Tries so far of each entry a full disk stopped (the backoff grows with them). */
  private readonly storageTries = new Map<string, number>();

  constructor(
    private readonly deps: Pick<Deps, 'log'>,
    private readonly parts: ScheduledWaitsParts,
  ) {}

  /** The entry fired without a full disk stopping it: its storage backoff starts over. */
  clearStorage(e: EntryRow): void {
    this.storageTries.delete(e.id);
    this.parts.storageWaits.entries.delete(e.id);
  }

  /**
   * A local write failed for a full disk while the entry fired (its plan and charge rolled back,
   * or its failure refunded): it goes back to the queue as it was, no attempt counted, waiting for
   * storage. Until that can be written the entry stays claimed, and progress learns of the wait
   * from memory; a kill meanwhile returns claimed entries to the queue at the next start.
   */
  forStorage(e: EntryRow, now: number): void {
    const { repos, outcomes, storageWaits } = this.parts;
    const tries = (this.storageTries.get(e.id) ?? 0) + 1;
    this.storageTries.set(e.id, tries);
    const at = storageRetryAt(tries, now, this.parts.storageBackoff);
    storageWaits.entries.set(e.id, at);
    if (tries === 1)
      this.deps.log.warn(
        `Herald: a scheduled post waits for disk space (entry ${e.id}); next try at ${new Date(at).toISOString()}`,
      );
    outcomes.later(e.draftId, () => {
      if (!repos.schedule.waitForStorage(e.id, STORAGE_WAIT, at))
        repos.schedule.finish(e.id, 'cancelled', 'Scheduled again while it waited for disk space');
    });
  }

  /**
   * The secret store is locked, so the account's tokens cannot be read: the entry goes back to the
   * queue as it was, no attempt counted, nothing charged, waiting for the passphrase. Unlocking
   * makes it due at once (ScheduleService.secretsUnlocked); until then it is looked at again every
   * few minutes. The missed rule still applies to its first due time, as for any entry.
   */
  forUnlock(e: EntryRow, now: number): void {
    const { repos, outcomes } = this.parts;
    const at = now + LOCKED_RECHECK_MS;
    if (e.lastError !== LOCKED_WAIT)
      tell(this.deps.log, e, {
        status: 'pending',
        reason: 'the secret store is locked; it is sent once Herald is unlocked',
        nextAttemptAt: new Date(at).toISOString(),
      });
    outcomes.later(e.draftId, () => {
      if (!repos.schedule.waitForUnlock(e.id, LOCKED_WAIT, at))
        repos.schedule.finish(e.id, 'cancelled', 'Scheduled again while it waited for the secret store to be unlocked');
    });
  }

  /**
   * Held back by a posting cap: back to the queue, no attempt counted, until the window frees; progress and the event
   * stream say when.
   */
  forQuota(e: EntryRow, hold: QuotaHold): void {
    const { repos, outcomes, stream } = this.parts;
    const at = new Date(hold.until).toISOString();
    this.deps.log.warn(
      `Scheduled post of draft ${e.draftId} (account ${e.accountId}): ${hold.reason}; it goes at ${at}`,
    );
    outcomes.later(e.draftId, () => {
      if (!repos.schedule.waitForQuota(e.id, hold.reason, hold.until))
        repos.schedule.finish(e.id, 'cancelled', 'Scheduled again while it waited for the quota');
      else
        stream.post(e.userId, 'post.scheduled', e, {
          scheduledFor: at,
          waitingFor: 'quota',
          nextAttemptAt: at,
          reason: hold.reason,
        });
    });
  }
}
