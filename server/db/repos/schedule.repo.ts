/**
 * The schedule queue (schedule_entries): one pending entry per (draft, account), claimed by the
 * scheduler when due. Every statement is prepared once: a statement prepared per call costs
 * native memory the GC does not see, and the scheduler runs these thousands of times a minute.
 */
import type { Platform } from '../../core/config.js';
import type { Sqlite } from '../connection.js';
import { ENTRY_COLUMNS as ENTRY_COLS } from './columns.js';
import { lazyStatements } from './statements.js';

export interface EntryRow {
  id: string;
  userId: string;
  draftId: string;
  accountId: string;
  platform: Platform;
  fireAt: number;
  /** When the scheduler should look at it: fireAt, or the time of its next attempt. */
  dueAt: number;
  requestedAt: number;
  priority: number;
  attempts: number;
  status: string;
  nextAttemptAt: number | null;
  lastError: string | null;
  createdAt: string;
  /** Handed off: the network's id of the post it publishes itself (docs/decisions.md §14). */
  networkScheduledId: string | null;
  /** The instant the network holds it for (differs from fireAt until a move reaches the network). */
  handedOffFor: number | null;
  /** Posts again where the draft was already published (scheduled with `force`); SQLite's 0 or 1. */
  force: number;
  /** The first post's text instead of the draft's (an evergreen variant), else null. */
  firstText: string | null;
}

/** A post scheduled on a network whose entry went away in Herald: to be withdrawn there. */
export interface WithdrawalRow {
  id: string;
  userId: string;
  accountId: string;
  platform: Platform;
  networkScheduledId: string;
}

/** A cancelled entry: its account, what the network held, and the queue slot (set, instant) it held, if any. */
export interface CancelledEntry {
  accountId: string;
  platform: string;
  networkScheduledId: string | null;
  setId: string | null;
  slotAt: number;
}

export type WaitingFor = 'storage' | 'quota' | 'network' | 'reconnect' | 'processing';

/** An entry as progress shows it (claimed entries included: being fired, or held by a full disk). */
export interface ProgressEntryRow {
  id: string;
  draftId: string;
  accountId: string;
  platform: Platform;
  fireAt: number;
  dueAt: number;
  attempts: number;
  status: 'pending' | 'claimed' | 'missed' | 'failed' | 'needs_review';
  lastError: string | null;
  nextAttemptAt: number | null;
  waitingFor: WaitingFor | null;
  networkScheduledId: string | null;
  handOffNote: string | null;
}

const ACTIVE = "status IN ('pending', 'claimed')";
/** No newer entry of the same draft and account is pending (scheduling again supersedes). */
const NOT_SUPERSEDED = `NOT EXISTS (SELECT 1 FROM schedule_entries p
  WHERE p.draft_id = schedule_entries.draft_id AND p.account_id = schedule_entries.account_id AND p.status =
    'pending')`;

export class ScheduleRepo {
  private readonly s;

  constructor(private readonly sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      nextUp: () =>
        db.prepare(`SELECT d.title AS draftTitle, e.fire_at AS fireAt, e.platform FROM schedule_entries e JOIN drafts d
                ON d.id = e.draft_id
        WHERE e.status = 'pending' ORDER BY e.fire_at LIMIT 1`),
      pendingTotal: () => db.prepare("SELECT COUNT(*) FROM schedule_entries WHERE status = 'pending'").pluck(),
      earliest: () => db.prepare("SELECT MIN(due_at) AS at FROM schedule_entries WHERE status = 'pending'"),
      pendingCount: () => db.prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE status = 'pending'"),
      claim: () =>
        db.prepare(`UPDATE schedule_entries SET status = 'claimed' WHERE id IN (
          SELECT id FROM schedule_entries WHERE status = 'pending' AND due_at <= ?
          ORDER BY due_at, priority DESC LIMIT ?)
        RETURNING ${ENTRY_COLS}`),
      // A claimed entry whose draft was scheduled again meanwhile gives way to the new entry.
      dropSuperseded: () =>
        db.prepare(`DELETE FROM schedule_entries WHERE status = 'claimed' AND EXISTS (SELECT 1 FROM schedule_entries p
        WHERE p.draft_id = schedule_entries.draft_id AND p.account_id = schedule_entries.account_id AND p.status =
                'pending')`),
      unclaimAll: () => db.prepare("UPDATE schedule_entries SET status = 'pending' WHERE status = 'claimed'"),
      unclaim: () =>
        db.prepare(
          `UPDATE schedule_entries SET status = 'pending' WHERE id = ? AND status = 'claimed' AND ${NOT_SUPERSEDED}`,
        ),
      done: () =>
        db.prepare(
          'UPDATE schedule_entries SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at ' +
            '= NULL, waiting_for = NULL WHERE id = ?',
        ),
      retry: () =>
        db.prepare(`UPDATE schedule_entries SET status = 'pending', attempts = attempts + 1, last_error = @error,
                next_attempt_at = @at, due_at = @at, waiting_for = 'network'
        WHERE id = @id AND ${NOT_SUPERSEDED}`),
      // Not an attempt: nothing reached the network, and nothing stays charged (the plan rolled back).
      wait: () =>
        db.prepare(`UPDATE schedule_entries SET status = 'pending', last_error = @error, next_attempt_at = @at, due_at =
                @at, waiting_for = @why
        WHERE id = @id AND status = 'claimed' AND ${NOT_SUPERSEDED}`),
      // The secret store is locked (Herald restarted, its passphrase not given yet): not an attempt either.
      waitUnlock: () =>
        db.prepare(`UPDATE schedule_entries SET status = 'pending', last_error = @error, next_attempt_at = @at, due_at =
                @at, waiting_for = 'reconnect'
        WHERE id = @id AND status = 'claimed' AND ${NOT_SUPERSEDED}`),
      wakeUnlocked: () =>
        db.prepare(
          "UPDATE schedule_entries SET due_at = @now, next_attempt_at = @now WHERE status = 'pending' AND " +
            "waiting_for = 'reconnect' AND last_error = @error AND due_at > @now",
        ),
      missed: () => db.prepare("UPDATE schedule_entries SET status = 'missed', last_error = ? WHERE id = ?"),
      stillScheduled: () => db.prepare(`SELECT 1 FROM schedule_entries WHERE draft_id = ? AND ${ACTIVE} LIMIT 1`),
      activeEntry: () =>
        db.prepare(`SELECT 1 FROM schedule_entries WHERE draft_id = ? AND account_id = ? AND ${ACTIVE} LIMIT 1`),
      unsentEntries: () =>
        db.prepare(
          'SELECT account_id AS accountId, status FROM schedule_entries WHERE draft_id = ? AND status IN ' +
            "('missed', 'failed', 'needs_review')",
        ),
      pendingAccounts: () =>
        db.prepare("SELECT account_id FROM schedule_entries WHERE draft_id = ? AND status = 'pending'").pluck(),
      delPending: () =>
        db.prepare(`DELETE FROM schedule_entries WHERE draft_id = ? AND account_id = ? AND status = 'pending'
        RETURNING network_scheduled_id AS networkScheduledId, handed_off_for AS handedOffFor, first_text AS firstText`),
      insert: () =>
        db.prepare(`INSERT INTO schedule_entries (id, user_id, draft_id, account_id, platform, fire_at, due_at,
                    requested_at, priority, attempts, status, created_at, queue_set_id,
          network_scheduled_id, handed_off_for, force, first_text)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'pending', ?, ?, ?, ?, ?, ?)`),
      list: () =>
        db.prepare(`SELECT e.id, e.draft_id AS draftId, d.title AS draftTitle, e.fire_at AS fireAt, e.priority,
                    e.attempts,
          e.created_at AS createdAt, e.platform, e.account_id AS accountUuid,
          e.network_scheduled_id AS networkScheduledId, e.hand_off_note AS handOffNote, a.server_url AS serverUrl,
          d.social_set_id AS setId, ss.time_zone AS timeZone
        FROM schedule_entries e JOIN drafts d ON d.id = e.draft_id LEFT JOIN accounts a ON a.id = e.account_id
          LEFT JOIN social_sets ss ON ss.id = d.social_set_id
        WHERE e.user_id = ? AND e.status = 'pending' ORDER BY e.due_at, e.priority DESC`),
      pendingDrafts: () =>
        db
          .prepare(
            `SELECT draft_id FROM schedule_entries WHERE user_id = ? AND platform = ? AND status IN ('pending',
                            'claimed') AND fire_at >= ? AND fire_at < ?`,
          )
          .pluck(),
      cancel: () =>
        db.prepare(`DELETE FROM schedule_entries WHERE user_id = ? AND draft_id = ? AND status = 'pending'
        RETURNING account_id AS accountId, platform, network_scheduled_id AS networkScheduledId,
        queue_set_id AS setId, requested_at AS slotAt`),
      cancelOne: () =>
        db.prepare(`DELETE FROM schedule_entries WHERE user_id = ? AND draft_id = ? AND account_id = ? AND status =
                'pending'
        RETURNING account_id AS accountId, platform, network_scheduled_id AS networkScheduledId,
        queue_set_id AS setId, requested_at AS slotAt`),
      forProgress: () =>
        db.prepare(`SELECT id, draft_id AS draftId, account_id AS accountId, platform, fire_at AS fireAt, due_at AS
                    dueAt, attempts, status,
          last_error AS lastError, next_attempt_at AS nextAttemptAt, waiting_for AS waitingFor,
          network_scheduled_id AS networkScheduledId, hand_off_note AS handOffNote
        FROM schedule_entries WHERE user_id = ? AND draft_id = ? AND status IN ('pending', 'claimed', 'missed',
                'failed', 'needs_review') ORDER BY created_at, rowid`),
    });
  }

  /** The earliest due instant of a pending entry, or null when none is pending. */
  earliestDue(): number | null {
    return (this.s.earliest.get() as { at: number | null }).at;
  }

  pendingCount(): number {
    return (this.s.pendingCount.get() as { n: number }).n;
  }

  /** Claims up to `limit` entries due at `now` (an atomic UPDATE … RETURNING), in SQLite's update order. */
  claim(now: number, limit: number): EntryRow[] {
    return this.s.claim.all(now, limit) as EntryRow[];
  }

  /** Entries a killed process had claimed go back to the queue (superseded ones are dropped). */
  returnClaimed(): void {
    this.sqlite.transaction(() => {
      this.s.dropSuperseded.run();
      this.s.unclaimAll.run();
    })();
  }

  unclaim(id: string): void {
    this.s.unclaim.run(id);
  }

  /** Ends an entry (done, failed, needs_review, cancelled), counting the attempt. */
  finish(id: string, status: string, error: string | null): void {
    this.s.done.run(status, error, id);
  }

  /** Back to the queue for another attempt at `at`; false when scheduled again meanwhile. */
  retry(id: string, error: string, at: number): boolean {
    return this.s.retry.run({ error, at, id }).changes > 0;
  }

  /** Back to the queue, no attempt counted, waiting for disk space; false when scheduled again meanwhile. */
  waitForStorage(id: string, error: string, at: number): boolean {
    return this.s.wait.run({ error, at, id, why: 'storage' }).changes > 0;
  }

  /**
   * Back to the queue, no attempt counted, until a network's posting quota lets it go at `at`; false when scheduled
   * again meanwhile.
   */
  waitForQuota(id: string, error: string, at: number): boolean {
    return this.s.wait.run({ error, at, id, why: 'quota' }).changes > 0;
  }

  /**
   * Back to the queue, no attempt counted, waiting for the secret store's passphrase (`error` says
   * so); false when scheduled again meanwhile.
   */
  waitForUnlock(id: string, error: string, at: number): boolean {
    return this.s.waitUnlock.run({ error, at, id }).changes > 0;
  }

  /** Entries waiting for the passphrase (`error`) fall due at `now`; answers how many. */
  wakeUnlocked(error: string, now: number): number {
    return this.s.wakeUnlocked.run({ error, now }).changes;
  }

  missed(id: string, why: string): void {
    this.s.missed.run(why, id);
  }

  /** Whether any entry of the draft is still pending or claimed. */
  hasActive(draftId: string): boolean {
    return this.s.stillScheduled.get(draftId) !== undefined;
  }

  hasActiveFor(draftId: string, accountId: string): boolean {
    return this.s.activeEntry.get(draftId, accountId) !== undefined;
  }

  /** Entries of the draft that ended without their post going out (missed, failed, held). */
  unsent(draftId: string): { accountId: string; status: string }[] {
    return this.s.unsentEntries.all(draftId) as { accountId: string; status: string }[];
  }

  pendingAccounts(draftId: string): string[] {
    return this.s.pendingAccounts.all(draftId) as string[];
  }

  /** Deletes the pending entry; answers its hand-off, which a new entry for the same post takes over. */
  deletePending(
    draftId: string,
    accountId: string,
  ): { networkScheduledId: string | null; handedOffFor: number | null; firstText: string | null } | undefined {
    return this.s.delPending.get(draftId, accountId) as
      { networkScheduledId: string | null; handedOffFor: number | null; firstText: string | null } | undefined;
  }

  /** `queueSetId`: the social set whose queue slot (requestedAt) the entry holds, if the queue placed it. */
  insert(e: {
    id: string;
    userId: string;
    draftId: string;
    accountId: string;
    platform: string;
    fireAt: number;
    requestedAt: number;
    priority: number;
    createdAt: string;
    queueSetId?: string | null;
    networkScheduledId?: string | null;
    handedOffFor?: number | null;
    force?: boolean;
    firstText?: string | null;
  }): void {
    this.s.insert.run(
      e.id,
      e.userId,
      e.draftId,
      e.accountId,
      e.platform,
      e.fireAt,
      e.fireAt,
      e.requestedAt,
      e.priority,
      e.createdAt,
      e.queueSetId ?? null,
      e.networkScheduledId ?? null,
      e.handedOffFor ?? null,
      e.force ? 1 : 0,
      e.firstText ?? null,
    );
  }

  listPending(userId: string) {
    return this.s.list.all(userId) as {
      id: string;
      draftId: string;
      draftTitle: string;
      fireAt: number;
      priority: number;
      attempts: number;
      createdAt: string;
      platform: Platform;
      accountUuid: string;
      networkScheduledId: string | null;
      handOffNote: string | null;
      serverUrl: string | null;
      setId: string | null;
      timeZone: string | null;
    }[];
  }

  /**
   * The draft of each pending (or firing) entry of the user's to `platform` whose fire time is in [from, to), one per
   * entry.
   */
  pendingDrafts(userId: string, platform: string, from: number, to: number): string[] {
    return this.s.pendingDrafts.all(userId, platform, from, to) as string[];
  }

  /** The next pending post of anyone's (the desktop's tray: one owner), with its draft's title. */
  nextUp(): { draftTitle: string; fireAt: number; platform: string } | undefined {
    return this.s.nextUp.get() as { draftTitle: string; fireAt: number; platform: string } | undefined;
  }

  /** How many entries are pending, all users together. */
  pendingTotal(): number {
    return this.s.pendingTotal.get() as number;
  }

  /**
   * Deletes the draft's pending entries (only `accountId`'s when given); answers the accounts they were for, with what
   * was handed off to the network and the queue slot each held.
   */
  cancelPending(userId: string, draftId: string, accountId?: string): CancelledEntry[] {
    const rows =
      accountId === undefined ? this.s.cancel.all(userId, draftId) : this.s.cancelOne.all(userId, draftId, accountId);
    return rows as CancelledEntry[];
  }

  forProgress(userId: string, draftId: string): ProgressEntryRow[] {
    return this.s.forProgress.all(userId, draftId) as ProgressEntryRow[];
  }
}
