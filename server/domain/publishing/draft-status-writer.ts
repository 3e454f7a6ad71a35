/**
 * The one writer of a draft's status on the publishing side. Which status is right is decided by
 * rules/draft-status.ts; this writes it, once per outcome, after the outcome itself is written:
 *
 * - a publish begins: `publishing` (charge.ts, in the charge's transaction);
 * - a publish-now (or a resumed publication) ends: its settled status, once every target's
 *   outcome is written (send.ts);
 * - a scheduled entry ends: written by the scheduled runner with the entry's outcome, in the same
 *   transaction. While other entries of the draft are still to come it goes back from
 *   `publishing` to `scheduled`; after the last, it says what happened.
 *
 * The sender never writes a scheduled post's settled status, so a draft with another entry
 * pending never flips `published` → `scheduled` (nothing wrote `published` to take back).
 */
import { nowIso, type Clock } from '../../core/clock.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import { settledDraftStatus } from './rules/draft-status.js';

type Repos = Pick<PublishingRepos, 'publications' | 'schedule' | 'draftStatus' | 'commits'>;

export class DraftStatusWriter {
  constructor(
    private readonly clock: Clock,
    private readonly repos: Repos,
  ) {}

  /** A publish of the draft has begun (inside the charge's transaction). */
  begun(draftId: string): void {
    this.repos.draftStatus.setPublishing(draftId, nowIso(this.clock));
  }

  /** After a publish-now's outcomes are written: the status from its publications'. */
  afterPublish(draftId: string): void {
    const status = settledDraftStatus(this.repos.publications.latestStatuses(draftId));
    // Without schedule entries in the picture the rule never answers `draft`.
    if (status === null || status === 'draft') return;
    // Relaxed: it follows from the publications, which are written the same way (send.ts).
    this.repos.commits.relaxed(() => this.repos.draftStatus.setSettled(draftId, status, nowIso(this.clock)));
  }

  /**
   * After a scheduled entry's outcome is written (or its begun publish given back): while other
   * entries of the draft are pending or claimed, a draft left `publishing` is scheduled again;
   * once none is left, its status from every account's latest publication and the entries that
   * ended without going out.
   */
  afterEntry(draftId: string): void {
    const { publications, schedule, draftStatus } = this.repos;
    const now = nowIso(this.clock);
    if (schedule.hasActive(draftId)) {
      draftStatus.setRescheduled(draftId, now);
      return;
    }
    const status = settledDraftStatus(publications.latestStatuses(draftId), schedule.unsent(draftId));
    if (status === null) return;
    if (status === 'draft') draftStatus.setBackToDraft(draftId, now);
    else draftStatus.setSettledAfterSchedule(draftId, status, now);
  }
}
