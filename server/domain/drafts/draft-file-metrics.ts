/**
 * The metrics of a draft's publications in its exported file: where it went and the latest
 * counts read from each network, so a Markdown or JSON export keeps how the post did beside its
 * text. An import ignores them (the numbers belong to the posts on the networks, not the draft).
 */
import type { DraftFile } from '../../contracts/draft-files.js';
import type { AnalyticsRow } from '../../db/repos/metrics.repo.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function withMetrics(file: DraftFile, rows: AnalyticsRow[]): DraftFile {
  if (rows.length === 0) return file;
  const metrics = [...rows]
    .sort((a, b) => a.publishedAt.localeCompare(b.publishedAt))
    .map((r) => ({
      platform: r.platform as NonNullable<DraftFile['metrics']>[number]['platform'],
      account: r.username ? `@${r.username}` : r.accountId,
      url: r.url,
      publishedAt: r.publishedAt,
      ...(r.deletedAt ? { deletedAt: r.deletedAt } : {}),
      fetchedAt: iso(r.fetchedAt),
      likes: r.likes,
      reposts: r.reposts,
      replies: r.replies,
      quotes: r.quotes,
      impressions: r.impressions,
    }));
  return { ...file, metrics };
}
