/**
 * The settle step of a scheduled post's trip: outcomes are queued as entries finish and written
 * together, once per turn of the event loop, without waiting for the disk (relaxed commits), then
 * each of their drafts' status once, by its one writer (draft-status-writer.ts). A crash before
 * they reach the disk leaves the entries claimed; the next start puts them back, and firing them
 * again finds their publications settled (published: skipped, not sent or charged again).
 */
import { crashPoint } from '../../core/crash.js';
import { isStorageFull } from '../../core/errors.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { Deps } from '../deps.js';
import type { DraftStatusWriter } from './draft-status-writer.js';

/** The scheduled runner's queue of outcomes waiting to be written. */
export class ScheduledOutcomes {
  /** Outcomes waiting to be written (see later()), and the drafts whose status follows them. */
  private readonly outcomes: (() => void)[] = [];
  private readonly drafts = new Set<string>();
  private flushing: NodeJS.Immediate | undefined;

  constructor(
    private readonly deps: Pick<Deps, 'log'>,
    private readonly repos: Pick<PublishingRepos, 'schedule' | 'commits'>,
    private readonly draftStatus: DraftStatusWriter,
  ) {}

  /** Writes the entry's outcome (and `alsoWrite`, its event, in the same transaction). */
  settle(e: EntryRow, status: string, error: string | null, alsoWrite?: () => void): void {
    this.later(e.draftId, () => {
      this.repos.schedule.finish(e.id, status, error);
      alsoWrite?.();
    });
  }

  /** Queues an entry's outcome; its draft's status is written after it, in the same flush. */
  later(draftId: string, write: () => void): void {
    this.outcomes.push(write);
    this.drafts.add(draftId);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /**
   * Writes the outcomes waiting, together, then each of their drafts' status once, by its one
   * writer (the scheduler calls it once its work has settled).
   */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    const writes = this.outcomes.splice(0);
    const drafts = [...this.drafts];
    this.drafts.clear();
    if (writes.length === 0) return;
    try {
      this.repos.commits.relaxed(() => {
        for (const w of writes) w();
        for (const d of drafts) this.draftStatus.afterEntry(d);
      });
      crashPoint('done');
    } catch (err) {
      // Rolled back whole: written again at the next sweep's flush, once the disk has room.
      if (isStorageFull(err)) {
        this.outcomes.unshift(...writes);
        for (const d of drafts) this.drafts.add(d);
        return;
      }
      this.deps.log.error(
        "Herald could not record scheduled posts' outcomes; they fire again at the next start and find their " +
          'posts settled',
        err,
      );
    }
  }
}
