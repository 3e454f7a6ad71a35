/**
 * Metrics of published posts: the time series (post_metrics) and the collector's plan per
 * publication (metric_tracks). Times are epoch ms.
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface MetricValues {
  likes: number | null;
  reposts: number | null;
  replies: number | null;
  quotes: number | null;
  impressions: number | null;
}

export interface DueTrack {
  publicationId: string;
  userId: string;
  platform: string;
  accountId: string;
  publishedAt: string;
  step: number;
  failures: number;
}

export interface AnalyticsRow extends MetricValues {
  publicationId: string;
  draftId: string | null;
  draftTitle: string | null;
  accountId: string;
  username: string | null;
  platform: string;
  url: string | null;
  publishedAt: string;
  deletedAt: string | null;
  state: string | null;
  lastError: string | null;
  fetchedAt: number | null;
  /** The start of the first post's text as sent (up to 200 characters). */
  excerpt: string | null;
}

export interface AnalyticsFilter {
  from?: string;
  to?: string;
  platform?: string;
  accountId?: string;
  /** One draft's publications (its file export). */
  draftId?: string;
  limit: number;
}

/** ISO text to epoch ms in SQL. */
const MS = (col: string) => `CAST(ROUND((julianday(${col}) - 2440587.5) * 86400000) AS INTEGER)`;

export class MetricsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      // New publications join the plan a few at a time (`LIMIT`), so a first start over a long
      // history does not hold the database for one long statement.
      adopt: () =>
        db.prepare(`INSERT INTO metric_tracks (publication_id, user_id, platform, state, step, next_at)
          SELECT p.id, p.user_id, p.platform, 'tracking', 0, ${MS('p.published_at')} + @first
          FROM publications p WHERE p.status = 'published' AND p.published_at IS NOT NULL AND p.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM metric_tracks t WHERE t.publication_id = p.id) LIMIT @limit`),
      due: () =>
        db.prepare(`SELECT t.publication_id AS publicationId, t.user_id AS userId, t.platform, p.account_id AS
                        accountId,
            p.published_at AS publishedAt, t.step, t.failures
          FROM metric_tracks t JOIN publications p ON p.id = t.publication_id
          WHERE t.next_at <= @now AND t.state = 'tracking' ORDER BY t.next_at LIMIT @limit`),
      nextDue: () => db.prepare(`SELECT MIN(next_at) AS at FROM metric_tracks WHERE state = 'tracking'`),
      insert: () =>
        db.prepare(`INSERT INTO post_metrics (publication_id, at, likes, reposts, replies, quotes, impressions)
          VALUES (@publicationId, @at, @likes, @reposts, @replies, @quotes, @impressions)`),
      plan: () =>
        db.prepare(`UPDATE metric_tracks SET step = @step, next_at = @nextAt, state = @state, last_error = @error,
          failures = @failures WHERE publication_id = @publicationId`),
      refresh: () =>
        db.prepare(`UPDATE metric_tracks SET state = 'tracking', next_at = @now, failures = 0
          WHERE publication_id = @id AND user_id = @userId AND state IN ('tracking', 'done', 'unavailable')`),
      refreshAll: () =>
        db.prepare(`UPDATE metric_tracks SET state = 'tracking', next_at = @now, failures = 0
          WHERE user_id = @userId AND state IN ('tracking', 'done', 'unavailable')`),
      stop: () =>
        db.prepare(`UPDATE metric_tracks SET state = @state, next_at = NULL, last_error = @error
          WHERE publication_id = @id`),
      posts: () =>
        db.prepare(`SELECT p.id AS publicationId, p.draft_id AS draftId, d.title AS draftTitle, p.account_id AS
                        accountId,
            a.username, p.platform, p.url, p.published_at AS publishedAt, p.deleted_at AS deletedAt,
            t.state, t.last_error AS lastError, m.at AS fetchedAt, m.likes, m.reposts, m.replies, m.quotes,
                        m.impressions,
            (SELECT substr(pp.text, 1, 200) FROM publication_parts pp WHERE pp.publication_id = p.id
              ORDER BY pp.position LIMIT 1) AS excerpt
          FROM publications p
          LEFT JOIN drafts d ON d.id = p.draft_id LEFT JOIN accounts a ON a.id = p.account_id
          LEFT JOIN metric_tracks t ON t.publication_id = p.id
          LEFT JOIN post_metrics m ON m.id = (SELECT MAX(q.id) FROM post_metrics q WHERE q.publication_id = p.id)
          WHERE p.user_id = @userId AND p.status = 'published' AND p.published_at IS NOT NULL
            AND (@platform IS NULL OR p.platform = @platform) AND (@accountId IS NULL OR p.account_id = @accountId)
            AND (@fromAt IS NULL OR p.published_at >= @fromAt) AND (@toAt IS NULL OR p.published_at < @toAt)
            AND (@draftId IS NULL OR p.draft_id = @draftId)
          ORDER BY p.published_at DESC, p.id LIMIT @limit`),
      one: () =>
        db.prepare(`SELECT p.id AS publicationId, p.draft_id AS draftId, d.title AS draftTitle, p.account_id AS
                        accountId,
            a.username, p.platform, p.url, p.published_at AS publishedAt, p.deleted_at AS deletedAt,
            t.state, t.last_error AS lastError, m.at AS fetchedAt, m.likes, m.reposts, m.replies, m.quotes,
                        m.impressions,
            (SELECT substr(pp.text, 1, 200) FROM publication_parts pp WHERE pp.publication_id = p.id
              ORDER BY pp.position LIMIT 1) AS excerpt
          FROM publications p
          LEFT JOIN drafts d ON d.id = p.draft_id LEFT JOIN accounts a ON a.id = p.account_id
          LEFT JOIN metric_tracks t ON t.publication_id = p.id
          LEFT JOIN post_metrics m ON m.id = (SELECT MAX(q.id) FROM post_metrics q WHERE q.publication_id = p.id)
          WHERE p.id = @id AND p.user_id = @userId AND p.status = 'published'`),
      history: () =>
        db.prepare(`SELECT at, likes, reposts, replies, quotes, impressions FROM post_metrics
          WHERE publication_id = ? ORDER BY at, id`),
    });
  }

  /** Puts up to `limit` published posts not yet planned into the plan; their first read `firstMs` after publishing. */
  adopt(firstMs: number, limit: number): number {
    return this.s.adopt.run({ first: firstMs, limit }).changes;
  }

  due(now: number, limit: number): DueTrack[] {
    return this.s.due.all({ now, limit }) as DueTrack[];
  }

  /** When the next planned read is due (epoch ms), if any. */
  nextDue(): number | null {
    return (this.s.nextDue.get() as { at: number | null }).at;
  }

  record(publicationId: string, at: number, m: MetricValues): void {
    this.s.insert.run({ publicationId, at, ...m });
  }

  /** The track's next step (`nextAt` null ends it: `state` done, deleted or unavailable). */
  plan(
    publicationId: string,
    p: { step: number; nextAt: number | null; state: string; error?: string | null; failures?: number },
  ) {
    this.s.plan.run({ publicationId, error: null, failures: 0, ...p });
  }

  /** Reads these of the user's posts (all when `ids` is absent) at the next pass; answers how many. */
  refresh(userId: string, now: number, ids?: string[]): number {
    if (!ids) return this.s.refreshAll.run({ userId, now }).changes;
    let n = 0;
    for (const id of ids) n += this.s.refresh.run({ id, userId, now }).changes;
    return n;
  }

  /** No more reads: the post is gone (`deleted`) or cannot be read (`unavailable`). */
  stop(publicationId: string, state: 'deleted' | 'unavailable', error: string | null = null): void {
    this.s.stop.run({ id: publicationId, state, error });
  }

  posts(userId: string, f: AnalyticsFilter): AnalyticsRow[] {
    return this.s.posts.all({
      userId,
      platform: f.platform ?? null,
      accountId: f.accountId ?? null,
      fromAt: f.from ?? null,
      toAt: f.to ?? null,
      draftId: f.draftId ?? null,
      limit: f.limit,
    }) as AnalyticsRow[];
  }

  one(userId: string, id: string): AnalyticsRow | undefined {
    return this.s.one.get({ userId, id }) as AnalyticsRow | undefined;
  }

  history(publicationId: string): (MetricValues & { at: number })[] {
    return this.s.history.all(publicationId) as (MetricValues & { at: number })[];
  }
}
