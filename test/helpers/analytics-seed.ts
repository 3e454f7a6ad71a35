/**
 * Published posts with a history of reads, written straight into a test server's database (the
 * Analytics page's e2e test and bench): `count` posts over the last `days` days, spread over the
 * week's days and hours, each with up to three reads whose counts grow, in a fixed pseudo-random
 * pattern so screenshots and figures repeat.
 */
import type { Sqlite } from '../../server/db/connection.js';

export interface SeededPost {
  id: string;
  accountId: string;
  platform: string;
  publishedAt: number;
}

const HOUR = 3_600_000;

export function seedAnalytics(
  sqlite: Sqlite,
  o: { userId: string; accounts: { id: string; platform: string }[]; count: number; days: number; now?: number },
): SeededPost[] {
  const now = o.now ?? Date.now();
  let seed = 42;
  const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pub = sqlite.prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, url,
    published_at, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, 'published', ?, ?, ?, ?)`);
  const part = sqlite.prepare(`INSERT INTO publication_parts (id, publication_id, position, status, text, network_id,
    url, idempotency_key, sent_at) VALUES (?, ?, 0, 'sent', ?, ?, ?, ?, ?)`);
  const read = sqlite.prepare(`INSERT INTO post_metrics (publication_id, at, likes, reposts, replies, quotes,
    impressions) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const track = sqlite.prepare(`INSERT INTO metric_tracks (publication_id, user_id, platform, state, step, next_at)
    VALUES (?, ?, ?, ?, 3, ?)`);
  const out: SeededPost[] = [];
  sqlite.transaction(() => {
    for (let i = 0; i < o.count; i++) {
      const a = o.accounts[i % o.accounts.length]!;
      // Mornings and evenings do better, as a creator's audience would.
      const at = now - Math.floor(rnd() * o.days * 24) * HOUR - Math.floor(rnd() * 60) * 60_000;
      const hour = new Date(at).getUTCHours();
      const boost = hour >= 7 && hour <= 9 ? 3 : hour >= 17 && hour <= 20 ? 2 : 1;
      const id = `seed-${i}`;
      const iso = new Date(at).toISOString();
      const url = `https://example.test/${a.platform}/${i}`;
      pub.run(id, o.userId, a.id, a.platform, url, iso, iso, iso);
      part.run(
        `${id}-p0`,
        id,
        `Seeded post number ${i} about something worth reading, with a few more words after it`,
        `net-${i}`,
        url,
        `k-${i}`,
        iso,
      );
      const base = Math.floor(rnd() * 20 * boost);
      const reads = [HOUR, 24 * HOUR, 7 * 24 * HOUR].filter((d) => at + d < now);
      reads.forEach((d, r) => {
        const grow = r + 1;
        const none = a.platform === 'skyblog' || a.platform === 'fedblog';
        read.run(
          id,
          at + d,
          base * grow,
          Math.floor(base / 3) * grow,
          Math.floor(base / 4) * grow,
          a.platform === 'problog' ? null : Math.floor(base / 8),
          none ? null : base * 30 * grow,
        );
      });
      track.run(id, o.userId, a.platform, reads.length === 3 ? 'tracking' : 'tracking', at + 30 * 24 * HOUR);
      out.push({ id, accountId: a.id, platform: a.platform, publishedAt: at });
    }
  })();
  return out;
}
