/**
 * The hand-off side of the schedule (docs/decisions.md §14, "Mastodon hand-off"): which pending entries
 * could be handed to their network, which handed-off ones were moved in Herald since, and the
 * posts to withdraw from a network after their entry was cancelled.
 */
import type { Platform } from '../../core/config.js';
import type { Sqlite } from '../connection.js';
import type { EntryRow, WithdrawalRow } from './schedule.repo.js';
import { ENTRY_COLUMNS as COLS } from './columns.js';
import { lazyStatements } from './statements.js';

export class HandOffRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      // Both walk their partial index (schema.ts), not the queue.
      candidates: () =>
        db.prepare(`SELECT ${COLS} FROM schedule_entries WHERE status = 'pending' AND platform = @platform
          AND network_scheduled_id IS NULL AND hand_off_note IS NULL AND attempts = 0 AND fire_at >= @from ORDER BY
                    platform, fire_at LIMIT @limit`),
      moved: () =>
        db.prepare(`SELECT ${COLS} FROM schedule_entries WHERE network_scheduled_id IS NOT NULL AND +status = 'pending'
          AND handed_off_for IS NOT fire_at LIMIT ?`),
      handedOff: () =>
        db.prepare(`UPDATE schedule_entries SET network_scheduled_id = @networkId, handed_off_for = @at, hand_off_note =
                    NULL
          WHERE id = @id AND status = 'pending' AND (network_scheduled_id IS NULL OR network_scheduled_id =
                    @networkId)`),
      local: () =>
        db.prepare(
          'UPDATE schedule_entries SET network_scheduled_id = NULL, handed_off_for = NULL, hand_off_note = ? ' +
            "WHERE id = ? AND status = 'pending'",
        ),
      withdraw: () =>
        db.prepare(`INSERT INTO network_withdrawals (id, user_id, account_id, platform, network_scheduled_id,
                    created_at)
          VALUES (?, ?, ?, ?, ?, ?)`),
      withdrawals: () =>
        db.prepare(`SELECT id, user_id AS userId, account_id AS accountId, platform, network_scheduled_id AS
                    networkScheduledId
          FROM network_withdrawals ORDER BY created_at LIMIT ?`),
      withdrawn: () => db.prepare('DELETE FROM network_withdrawals WHERE id = ?'),
      withdrawFailed: () => db.prepare('UPDATE network_withdrawals SET last_error = ? WHERE id = ?'),
      // Both walk schedule_due_idx (status, due_at) and stop at the first row.
      anyClaimed: () => db.prepare("SELECT 1 FROM schedule_entries WHERE status = 'claimed' LIMIT 1"),
      // A draft deleted: its posts handed to a network are withdrawn there (its entries go with it).
      withdrawDraft: () =>
        db.prepare(`INSERT INTO network_withdrawals (id, user_id, account_id, platform, network_scheduled_id,
                    created_at)
          SELECT lower(hex(randomblob(16))), user_id, account_id, platform, network_scheduled_id, ?
          FROM schedule_entries WHERE draft_id = ? AND network_scheduled_id IS NOT NULL AND status IN ('pending',
                    'claimed')`),
      // A draft edited: what a network holds is the old text; withdrawn, and handed off again.
      releaseDraft: () =>
        db.prepare(`UPDATE schedule_entries SET network_scheduled_id = NULL, handed_off_for = NULL
          WHERE draft_id = ? AND network_scheduled_id IS NOT NULL AND status = 'pending'`),
      // Published meanwhile another way (publish now): the network's copy would be a second post.
      overtaken: () =>
        db.prepare(`SELECT e.id, e.user_id AS userId, e.draft_id AS draftId, e.account_id AS accountId, e.platform,
                    e.network_scheduled_id AS networkScheduledId FROM schedule_entries e
          WHERE e.network_scheduled_id IS NOT NULL AND +e.status = 'pending' AND EXISTS (SELECT 1 FROM publications p
            WHERE p.draft_id = e.draft_id AND p.account_id = e.account_id AND p.origin != 'schedule' AND p.status IN
                        ('publishing', 'published')) LIMIT 50`),
      overtakenDone: () =>
        db.prepare(
          "UPDATE schedule_entries SET status = 'cancelled', network_scheduled_id = NULL, last_error = ? " +
            "WHERE id = ? AND status = 'pending'",
        ),
      nextLocal: () =>
        db.prepare(
          "SELECT due_at AS at FROM schedule_entries WHERE status = 'pending' AND network_scheduled_id IS " +
            'NULL ORDER BY status, due_at LIMIT 1',
        ),
      settled: () =>
        db.prepare(`SELECT e.draft_id AS draftId, d.title, e.platform, e.fire_at AS fireAt, e.status, e.last_error AS
                    error, e.network_scheduled_id AS networkScheduledId
          FROM schedule_entries e JOIN drafts d ON d.id = e.draft_id
          WHERE e.fire_at >= ? AND e.fire_at <= ? AND e.status IN ('done', 'missed', 'failed', 'needs_review') ORDER BY
                    e.fire_at`),
    });
  }

  /** Pending first attempts for `platforms`, due at `from` or later, never handed off nor kept local. */
  candidates(platforms: Platform[], from: number, limit = 50): EntryRow[] {
    return platforms.flatMap((platform) => this.s.candidates.all({ platform, from, limit }) as EntryRow[]);
  }

  /** Handed-off entries whose time changed in Herald since the network was told. */
  moved(limit = 50): EntryRow[] {
    return this.s.moved.all(limit) as EntryRow[];
  }

  /**
   * The network holds the entry's post for `at`; false when the entry is no longer pending (cancelled or replaced
   * meanwhile).
   */
  setHandedOff(id: string, networkId: string, at: number): boolean {
    return this.s.handedOff.run({ id, networkId, at }).changes > 0;
  }

  /** The entry fires locally, `note` saying why (progress shows it). */
  keepLocal(id: string, note: string): void {
    this.s.local.run(note, id);
  }

  addWithdrawal(w: WithdrawalRow & { createdAt: string }): void {
    this.s.withdraw.run(w.id, w.userId, w.accountId, w.platform, w.networkScheduledId, w.createdAt);
  }

  withdrawals(limit = 50): WithdrawalRow[] {
    return this.s.withdrawals.all(limit) as WithdrawalRow[];
  }

  withdrawn(id: string): void {
    this.s.withdrawn.run(id);
  }

  /** Queues the withdrawal of every post of `draftId` a network holds (before the draft is deleted). */
  withdrawDraft(draftId: string, createdAt: string): void {
    this.s.withdrawDraft.run(createdAt, draftId);
  }

  /**
   * The draft's text changed: every post of it a network holds is withdrawn there, and its
   * entries are handed off again with the new text at the next pass (hand-off.service.ts).
   */
  draftEdited(draftId: string, createdAt: string): void {
    this.s.withdrawDraft.run(createdAt, draftId);
    this.s.releaseDraft.run(draftId);
  }

  /** Handed-off entries whose post was published meanwhile another way (publish now). */
  overtaken() {
    return this.s.overtaken.all() as {
      id: string;
      userId: string;
      draftId: string;
      accountId: string;
      platform: Platform;
      networkScheduledId: string;
    }[];
  }

  /** Ends a handed-off entry whose post went out another way. */
  finishOvertaken(id: string, note: string): void {
    this.s.overtakenDone.run(note, id);
  }

  /**
   * When Herald itself must next send a post: the earliest pending entry it fires itself (handed-off
   * ones the network publishes), 0 while one is being sent; null when none. The desktop app keeps
   * the machine awake around it (main/keep-awake.ts).
   */
  nextLocalDue(): number | null {
    if (this.s.anyClaimed.get()) return 0;
    return (this.s.nextLocal.get() as { at: number } | undefined)?.at ?? null;
  }

  /** Entries due between `from` and `to` that have settled (sent, missed, failed), soonest first. */
  settledBetween(from: number, to: number) {
    return this.s.settled.all(from, to) as {
      draftId: string;
      title: string;
      platform: Platform;
      fireAt: number;
      status: string;
      error: string | null;
      networkScheduledId: string | null;
    }[];
  }

  withdrawFailed(id: string, error: string): void {
    this.s.withdrawFailed.run(error.slice(0, 500), id);
  }
}
