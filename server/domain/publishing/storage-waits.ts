/**
 * Scheduled posts a full disk keeps from firing (docs/decisions.md §6: a local write failure at fire time
 * is transient; the entry stays pending). Held in memory because while the disk is full the
 * database may refuse to record the wait itself: the scheduler writes it to the entry
 * (`waiting_for = 'storage'`) as soon as a write goes through, and progress reads both.
 */
export type { WaitingFor } from '../../db/repos/schedule.repo.js';

export class StorageWaits {
  /** Entries whose firing hit a full disk: when each is tried again. */
  readonly entries = new Map<string, number>();
  /** Set while claiming due entries fails for a full disk: when the scheduler tries again. */
  claimsBlockedUntil: number | null = null;

  /** Why a pending entry (due at `dueAt`) waits, as far as this process knows it. */
  of(entryId: string, dueAt: number, now: number): { waitingFor: 'storage'; nextAttemptAt: number } | undefined {
    const at = this.entries.get(entryId);
    if (at !== undefined) return { waitingFor: 'storage', nextAttemptAt: at };
    if (this.claimsBlockedUntil !== null && dueAt <= now)
      return { waitingFor: 'storage', nextAttemptAt: this.claimsBlockedUntil };
    return undefined;
  }
}
