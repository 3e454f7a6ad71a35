/**
 * What publishing reports from publications (the outbox's rows, outbox.repo.ts): each account's
 * latest publication of a draft and the history, which also lists entries missed while Herald
 * was closed (they never became publications).
 */
import type { Sqlite } from '../connection.js';
import type { PublicationStatus } from './outbox.repo.js';
import { lazyStatements } from './statements.js';

export interface HistoryRow {
  id: string;
  draftId: string | null;
  draftTitle: string | null;
  accountId: string;
  username: string | null;
  platform: string;
  status: PublicationStatus;
  error: string | null;
  url: string | null;
  attempts: number;
  publishedAt: string | null;
  updatedAt: string;
  data: string | null;
  nextAttemptAt: number | null;
  deletedAt: string | null;
  editedAt: string | null;
  /** A thread's parts the network holds, of how many (0 of 0 before any was planned). */
  partsSent: number;
  partsTotal: number;
  /** The first post's text as it was sent (its first 140 characters); null before anything was planned. */
  sentText: string | null;
  /** What started it: `now`, `schedule` or `api` (the single-network endpoints, which have no draft). */
  origin: string;
}

/** What the history is narrowed to: status, network, time range (publication or last change), text. */
export interface HistoryFilter {
  limit: number;
  status?: string;
  platform?: string;
  from?: string;
  to?: string;
  q?: string;
}

export class PublicationsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      latestStatuses: () =>
        db.prepare(`SELECT p.account_id AS accountId, p.status FROM publications p WHERE p.draft_id = ? AND p.created_at
                = (
        SELECT MAX(q.created_at) FROM publications q WHERE q.draft_id = p.draft_id AND q.account_id = p.account_id)`),
      latestOfAccount: () =>
        db.prepare(
          'SELECT status FROM publications WHERE draft_id = ? AND account_id = ? ORDER BY created_at DESC LIMIT 1',
        ),
      delete: () => db.prepare('DELETE FROM publications WHERE id = ?'),
      history: () =>
        db.prepare(`SELECT * FROM (
      SELECT p.id, p.draft_id AS draftId, d.title AS draftTitle, p.account_id AS accountId, a.username, p.platform,
            p.status,
        p.error, p.url, p.attempts, p.published_at AS publishedAt, p.updated_at AS updatedAt, p.data,
        (SELECT MIN(e.next_attempt_at) FROM schedule_entries e WHERE e.draft_id = p.draft_id AND e.account_id =
                p.account_id
          AND e.status = 'pending' AND e.next_attempt_at IS NOT NULL) AS nextAttemptAt,
        p.deleted_at AS deletedAt, p.edited_at AS editedAt,
        (SELECT COUNT(*) FROM publication_parts pp WHERE pp.publication_id = p.id AND pp.status = 'sent') AS partsSent,
        (SELECT COUNT(*) FROM publication_parts pp WHERE pp.publication_id = p.id) AS partsTotal,
        (SELECT substr(pp.text, 1, 140) FROM publication_parts pp WHERE pp.publication_id = p.id ORDER BY pp.position
          LIMIT 1) AS sentText, p.origin
      FROM publications p LEFT JOIN drafts d ON d.id = p.draft_id LEFT JOIN accounts a ON a.id = p.account_id
      WHERE p.user_id = @userId AND (@status IS NULL OR p.status = @status)
      UNION ALL
      SELECT e.id, e.draft_id, d.title, e.account_id, a.username, e.platform, e.status, e.last_error, NULL, e.attempts,
            NULL,
        strftime('%Y-%m-%dT%H:%M:%fZ', e.due_at / 1000.0, 'unixepoch'), NULL, NULL, NULL, NULL, 0, 0, NULL, 'schedule'
      FROM schedule_entries e LEFT JOIN drafts d ON d.id = e.draft_id LEFT JOIN accounts a ON a.id = e.account_id
      WHERE e.user_id = @userId AND e.status = 'missed' AND (@status IS NULL OR @status = 'missed')
    ) WHERE (@platform IS NULL OR platform = @platform)
      AND (@fromAt IS NULL OR COALESCE(publishedAt, updatedAt) >= @fromAt) AND (@toAt IS NULL OR COALESCE(publishedAt,
            updatedAt) < @toAt)
      AND (@q IS NULL OR instr(lower(COALESCE(draftTitle, '') || ' ' || COALESCE(username, '') || ' ' || COALESCE(url,
            '') || ' ' || COALESCE(error, '') || ' ' || COALESCE(sentText, '')), @q) > 0)
    ORDER BY updatedAt DESC, id LIMIT @limit`),
    });
  }

  /** Each account's latest publication of the draft: its status, by account id. */
  latestStatuses(draftId: string): Map<string, PublicationStatus> {
    const rows = this.s.latestStatuses.all(draftId) as { accountId: string; status: PublicationStatus }[];
    return new Map(rows.map((r) => [r.accountId, r.status]));
  }

  /** The status of one account's latest publication of the draft, if any. */
  latestStatusOf(draftId: string, accountId: string): PublicationStatus | undefined {
    return (this.s.latestOfAccount.get(draftId, accountId) as { status: PublicationStatus } | undefined)?.status;
  }

  delete(id: string): void {
    this.s.delete.run(id);
  }

  /** Newest first; `from` (inclusive) and `to` (exclusive) are ISO instants; `q` is matched lower-cased. */
  history(userId: string, q: HistoryFilter): HistoryRow[] {
    return this.s.history.all({
      userId,
      status: q.status ?? null,
      limit: q.limit,
      platform: q.platform ?? null,
      fromAt: q.from ?? null,
      toAt: q.to ?? null,
      q: q.q ? q.q.toLowerCase() : null,
    }) as HistoryRow[];
  }
}
