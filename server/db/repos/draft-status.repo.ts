/**
 * A draft's status as publishing and scheduling move it: every `UPDATE drafts SET status` of
 * those two lives here (the drafts' own CRUD is drafts.repo.ts). Which status is right is decided
 * by domain/publishing/rules/draft-status.ts; these only write it, each with the guard its caller
 * relies on. Times are ISO strings given by the caller (its injected clock).
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export type SettledDraftStatus = 'published' | 'partially_published' | 'failed';

export class DraftStatusRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      set: () => db.prepare('UPDATE drafts SET status = ?, updated_at = ? WHERE id = ?'),
      publishing: () => db.prepare("UPDATE drafts SET status = 'publishing', updated_at = ? WHERE id = ?"),
      rescheduled: () =>
        db.prepare("UPDATE drafts SET status = 'scheduled', updated_at = ? WHERE id = ? AND status = 'publishing'"),
      scheduled: () =>
        db.prepare(
          "UPDATE drafts SET status = 'scheduled', scheduled_for = ?, updated_at = ? WHERE id = ? AND " +
            "user_id = ? AND status != 'publishing'",
        ),
      finalAfterSchedule: () =>
        db.prepare(
          "UPDATE drafts SET status = ?, updated_at = ? WHERE id = ? AND status IN ('scheduled', " +
            "'publishing', 'published', 'partially_published', 'failed')",
        ),
      backToDraft: () =>
        db.prepare(
          "UPDATE drafts SET status = 'draft', scheduled_for = NULL, updated_at = ? WHERE id = ? AND status " +
            "= 'scheduled'",
        ),
    });
  }

  /** A publish-now's outcome, whatever the draft said before. */
  setSettled(draftId: string, status: SettledDraftStatus, at: string): void {
    this.s.set.run(status, at, draftId);
  }

  /** A publish of the draft has begun. */
  setPublishing(draftId: string, at: string): void {
    this.s.publishing.run(at, draftId);
  }

  /** Back from `publishing` to `scheduled`: its post (or another of its entries) is still to come. */
  setRescheduled(draftId: string, at: string): void {
    this.s.rescheduled.run(at, draftId);
  }

  /** Scheduled for `scheduledFor`, unless it is being published; false when nothing changed (or the draft is gone). */
  setScheduled(draftId: string, userId: string, scheduledFor: string, at: string): boolean {
    return this.s.scheduled.run(scheduledFor, at, draftId, userId).changes > 0;
  }

  /** The outcome once the last schedule entry ended (not over a draft edited back meanwhile). */
  setSettledAfterSchedule(draftId: string, status: SettledDraftStatus, at: string): void {
    this.s.finalAfterSchedule.run(status, at, draftId);
  }

  /** Back to `draft` (nothing scheduled any more, nothing went out). */
  setBackToDraft(draftId: string, at: string): void {
    this.s.backToDraft.run(at, draftId);
  }
}
