/**
 * The schedule queue in SQLite: one pending entry per (draft, account), each with its own
 * jitter. The database is the truth; the scheduler (jobs/scheduler.ts) only wakes up to fire
 * what is due.
 */
import type { Platform } from '../../core/config.js';
import { latestScheduleTime } from '../../contracts/common.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import { commitsFor, type Commits } from '../../db/commits.js';
import { HeraldError } from '../../core/errors.js';
import { checkParts } from '../publishing/limits.js';
import { loadDraft, partsFor } from '../publishing/plan.js';
import type { PublishService } from '../publishing/publish.service.js';

export const JITTER_MS = 180_000;

const publishingNow = () => new HeraldError('INVALID_INPUT', 'The draft is being published right now; schedule it once that is done');

export interface ScheduleRequest {
  draftId: string;
  scheduledFor: string;
  targetAccounts?: { accountId: string; platform: Platform }[];
  accountUuid?: string;
  platform?: Platform;
  priority?: number;
  applyJitter?: boolean;
}

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
}

export const ENTRY_COLS = `id, user_id AS userId, draft_id AS draftId, account_id AS accountId, platform, fire_at AS fireAt, due_at AS dueAt, requested_at AS requestedAt,
  priority, attempts, status, next_attempt_at AS nextAttemptAt, last_error AS lastError, created_at AS createdAt`;

/**
 * The spec's scheduledFor is ISO 8601 in UTC: a date-time without a zone designator is read as
 * UTC, not in the local time zone of the machine Herald runs on (as Date.parse would).
 */
export function parseUtc(iso: string): number {
  return Date.parse(/(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(iso) ? iso : `${iso}Z`);
}

export class ScheduleService {
  /** Called whenever the queue changes, so the scheduler re-arms its wake-up. */
  onChange: () => void = () => {};

  /** Prepared once: a statement prepared per call costs native memory the GC does not see. */
  private readonly stmts;
  private readonly commits: Commits;

  constructor(private readonly deps: Deps, private readonly publishing: PublishService) {
    const db = deps.sqlite;
    this.commits = commitsFor(db);
    this.stmts = {
      pendingAccounts: db.prepare("SELECT account_id FROM schedule_entries WHERE draft_id = ? AND status = 'pending'").pluck(),
      delPending: db.prepare("DELETE FROM schedule_entries WHERE draft_id = ? AND account_id = ? AND status = 'pending'"),
      draftScheduled: db.prepare("UPDATE drafts SET status = 'scheduled', scheduled_for = ?, updated_at = ? WHERE id = ? AND user_id = ? AND status != 'publishing'"),
      insert: db.prepare(`INSERT INTO schedule_entries (id, user_id, draft_id, account_id, platform, fire_at, due_at, requested_at, priority, attempts, status, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'pending', ?)`),
      list: db.prepare(`SELECT e.id, e.draft_id AS draftId, d.title AS draftTitle, e.fire_at AS fireAt, e.priority, e.attempts,
          e.created_at AS createdAt, e.platform, e.account_id AS accountUuid
        FROM schedule_entries e JOIN drafts d ON d.id = e.draft_id
        WHERE e.user_id = ? AND e.status = 'pending' ORDER BY e.due_at, e.priority DESC`),
      cancel: db.prepare("DELETE FROM schedule_entries WHERE user_id = ? AND draft_id = ? AND status = 'pending'"),
      draftBack: db.prepare("UPDATE drafts SET status = 'draft', scheduled_for = NULL, updated_at = ? WHERE id = ? AND status = 'scheduled'"),
    };
  }

  /** Uniform offset in [-180 s, +180 s]. */
  jitter(): number {
    return Math.round((this.deps.random() * 2 - 1) * JITTER_MS);
  }

  /**
   * Validates at once, then writes in the next group commit (db/commits.ts): the requests that
   * arrive together share one fsync, made off the thread that serves the API, and each answers
   * once its entries are on disk.
   */
  async schedule(userId: string, req: ScheduleRequest) {
    const now = this.deps.clock.now();
    const requested = parseUtc(req.scheduledFor);
    if (!(requested > now)) {
      throw new HeraldError('INVALID_INPUT', 'scheduledFor must be in the future', { details: [{ path: 'scheduledFor', message: 'in the past' }] });
    }
    if (requested > latestScheduleTime(now)) {
      throw new HeraldError('INVALID_INPUT', 'scheduledFor must be at most two years ahead', { details: [{ path: 'scheduledFor', message: 'more than two years ahead' }] });
    }
    const draft = loadDraft(this.deps, userId, req.draftId);
    if (draft.status === 'publishing') throw publishingNow();
    const targetAccounts = req.targetAccounts ?? (req.accountUuid ? [{ accountId: req.accountUuid, platform: req.platform ?? 'microblog' }] : undefined);
    const targets = this.publishing.resolveTargets(userId, draft, { targetAccounts });
    checkParts(targets.map(({ account }) => ({ account, parts: partsFor(account.platform as Platform, draft) })));
    const apply = req.applyJitter ?? true;
    const created = nowIso(this.deps.clock);
    const ids: string[] = [];
    const { pendingAccounts, delPending, insert, draftScheduled } = this.stmts;
    await this.commits.durable(() => {
      // The draft may have changed since the checks above (they ran a turn of the event loop
      // ago): deleted, or a publish of it began. Then nothing is written.
      const { changes } = draftScheduled.run(new Date(requested).toISOString(), created, draft.id, userId);
      if (changes === 0) {
        loadDraft(this.deps, userId, draft.id); // NOT_FOUND when it was deleted
        throw publishingNow();
      }
      // Scheduling again moves the entry: only accounts with one pending are looked up to delete.
      const pending = new Set(pendingAccounts.all(draft.id) as string[]);
      for (const { account } of targets) {
        // Never in the past: a post due in under 3 minutes can only move later.
        const fireAt = apply ? Math.max(now + 1000, requested + this.jitter()) : requested;
        // Time-ordered: 40 entries of one request land on one page of the primary key.
        const id = this.deps.ids.ordered();
        if (pending.has(account.id)) delPending.run(draft.id, account.id);
        insert.run(id, userId, draft.id, account.id, account.platform, fireAt, fireAt, requested, req.priority ?? 0, created);
        ids.push(id);
      }
    });
    this.onChange();
    return {
      message: `Scheduled for ${ids.length} account(s)`,
      queueIds: ids, scheduledFor: req.scheduledFor, accountCount: ids.length,
    };
  }

  list(userId: string) {
    const rows = this.stmts.list.all(userId) as {
        id: string; draftId: string; draftTitle: string; fireAt: number; priority: number; attempts: number; createdAt: string; platform: Platform; accountUuid: string }[];
    return rows.map(({ fireAt, ...r }) => ({ ...r, scheduledFor: new Date(fireAt).toISOString() }));
  }

  cancel(userId: string, draftId: string): number {
    loadDraft(this.deps, userId, draftId);
    const n = this.deps.sqlite.transaction(() => {
      const res = this.stmts.cancel.run(userId, draftId);
      this.stmts.draftBack.run(nowIso(this.deps.clock), draftId);
      return res.changes;
    })();
    this.onChange();
    return n;
  }
}
