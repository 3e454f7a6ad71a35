/**
 * The metrics as CSV (RFC 4180): one row per published post with its latest counts, or, with
 * `history`, one row per read. An empty cell is a count the network does not report. A cell that
 * a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) is prefixed with `'`.
 */
import type { MetricValues } from '../../db/repos/metrics.repo.js';

const HEAD = ['publicationId', 'platform', 'account', 'url', 'publishedAt', 'deletedAt', 'title', 'at'];
const COUNTS = ['likes', 'reposts', 'replies', 'quotes', 'impressions'] as const;

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export interface CsvPost {
  publicationId: string;
  platform: string;
  username: string | null;
  url: string | null;
  publishedAt: string;
  deletedAt: string | null;
  draftTitle: string | null;
}

export function metricsCsv(rows: { post: CsvPost; at: string | null; metrics: MetricValues }[]): string {
  const lines = [[...HEAD, ...COUNTS].join(',')];
  for (const { post: p, at, metrics } of rows)
    lines.push(
      [
        p.publicationId,
        p.platform,
        p.username,
        p.url,
        p.publishedAt,
        p.deletedAt,
        p.draftTitle,
        at,
        ...COUNTS.map((k) => metrics[k]),
      ]
        .map(csvCell)
        .join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}
