/**
 * What the Analytics page, the CLI's `herald stats` and exports read: each published post's latest
 * counts (null where the network does not say) and their history; and the on-demand refresh,
 * which brings the posts' next read forward and wakes the collector.
 */
import { HeraldError } from '../../core/errors.js';
import type { Repos } from '../../db/repos/index.js';
import type { AnalyticsFilter, AnalyticsRow, MetricValues } from '../../db/repos/metrics.repo.js';
import type { Deps } from '../deps.js';
import { metricsCsv } from './analytics-csv.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const values = (r: MetricValues): MetricValues => ({
  likes: r.likes,
  reposts: r.reposts,
  replies: r.replies,
  quotes: r.quotes,
  impressions: r.impressions,
});

function view(r: AnalyticsRow) {
  return {
    publicationId: r.publicationId,
    draftId: r.draftId,
    draftTitle: r.draftTitle,
    excerpt: r.excerpt,
    accountId: r.accountId,
    username: r.username,
    platform: r.platform,
    url: r.url,
    publishedAt: r.publishedAt,
    deletedAt: r.deletedAt,
    tracking: r.deletedAt ? 'deleted' : (r.state ?? 'waiting'),
    reason: r.lastError,
    metrics: values(r),
    fetchedAt: iso(r.fetchedAt),
  };
}

export class AnalyticsService {
  constructor(
    private readonly deps: Deps,
    private readonly repos: Pick<Repos, 'metrics'>,
    /** Wakes the collector (the job's run); tests and the headless server without jobs pass none. */
    private readonly wake: () => void = () => {},
  ) {}

  posts(userId: string, f: AnalyticsFilter) {
    const utc = (s?: string) => (s === undefined ? undefined : new Date(Date.parse(s)).toISOString());
    return {
      success: true as const,
      posts: this.repos.metrics.posts(userId, { ...f, from: utc(f.from), to: utc(f.to) }).map(view),
    };
  }

  post(userId: string, id: string) {
    const row = this.repos.metrics.one(userId, id);
    if (!row) throw new HeraldError('NOT_FOUND', `No published post ${id}`);
    const history = this.repos.metrics
      .history(id)
      .map((h) => ({ at: new Date(h.at).toISOString(), metrics: values(h) }));
    return { success: true as const, ...view(row), history };
  }

  /** CSV of the posts' latest counts, or of every read with `history`. */
  csv(userId: string, f: AnalyticsFilter, history: boolean): string {
    const { posts } = this.posts(userId, f);
    if (!history) return metricsCsv(posts.map((p) => ({ post: p, at: p.fetchedAt, metrics: p.metrics })));
    return metricsCsv(
      posts.flatMap((p) =>
        this.repos.metrics.history(p.publicationId).map((h) => ({ post: p, at: iso(h.at), metrics: values(h) })),
      ),
    );
  }

  refresh(userId: string, ids?: string[]) {
    this.repos.metrics.adopt(60 * 60_000, 100_000);
    const queued = this.repos.metrics.refresh(userId, this.deps.clock.now(), ids);
    this.wake();
    return {
      success: true as const,
      queued,
      message: queued
        ? `Reading ${queued} post(s) from their networks`
        : 'No post to read (deleted posts are not read)',
    };
  }
}
