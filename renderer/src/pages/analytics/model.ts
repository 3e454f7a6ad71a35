/**
 * The Analytics page's sums, pure and in the user's zone (time/ module, never Intl defaults):
 * per network and week totals, the best days and hours from the user's own history (average
 * engagement of posts published in each weekday × hour), and the top posts.
 */
import { offsetAt } from '../../../../time/index';

export interface Counts {
  likes: number | null;
  reposts: number | null;
  replies: number | null;
  quotes: number | null;
  impressions: number | null;
}

export interface PostRow {
  publicationId: string;
  platform: string;
  publishedAt: string;
  metrics: Counts;
}

export const METRICS = ['likes', 'reposts', 'replies', 'quotes', 'impressions'] as const;
export type Metric = (typeof METRICS)[number];

/** Likes, reposts, replies and quotes together (impressions are not engagement). */
export const engagement = (m: Counts) => (m.likes ?? 0) + (m.reposts ?? 0) + (m.replies ?? 0) + (m.quotes ?? 0);

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * Wall parts of an instant in `zone` (weekday ISO, Monday = 1), with the zone's offset looked up
 * once per hour: 10,000 posts would otherwise ask Intl 10,000 times.
 */
function wallParts(zone: string, at: number, offsets: Map<number, number>) {
  const hour = Math.floor(at / HOUR);
  let off = offsets.get(hour);
  if (off === undefined) offsets.set(hour, (off = offsetAt(zone, hour * HOUR)));
  const d = new Date(at + off);
  const wd = d.getUTCDay();
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    weekday: wd === 0 ? 7 : wd,
  };
}

/** The Monday (a wall date, "2026-11-23") of the week holding `at` in `zone`. */
export function weekOf(at: number, zone: string, offsets = new Map<number, number>()): string {
  const p = wallParts(zone, at, offsets);
  const monday = Date.UTC(p.year, p.month - 1, p.day) - ((p.weekday + 6) % 7) * DAY;
  return new Date(monday).toISOString().slice(0, 10);
}

export interface WeekRow {
  week: string;
  platform: string;
  posts: number;
  totals: Record<Metric, number | null>;
}

/** Totals per week and network, newest week first. A metric no post of the group reports stays null. */
export function weeklyTotals(posts: PostRow[], zone: string): WeekRow[] {
  const rows = new Map<string, WeekRow>();
  const offsets = new Map<number, number>();
  for (const p of posts) {
    const week = weekOf(Date.parse(p.publishedAt), zone, offsets);
    const key = `${week} ${p.platform}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        week,
        platform: p.platform,
        posts: 0,
        totals: { likes: null, reposts: null, replies: null, quotes: null, impressions: null },
      };
      rows.set(key, r);
    }
    r.posts += 1;
    for (const m of METRICS) {
      const v = p.metrics[m];
      if (v !== null) r.totals[m] = (r.totals[m] ?? 0) + v;
    }
  }
  return [...rows.values()].sort((a, b) =>
    a.week === b.week ? a.platform.localeCompare(b.platform) : a.week < b.week ? 1 : -1,
  );
}

/** [weekday 0 = Monday][hour]: average engagement and how many posts. */
export interface Heatmap {
  cells: { avg: number; posts: number }[][];
  max: number;
}

export function bestTimes(posts: PostRow[], zone: string): Heatmap {
  const sum = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => ({ total: 0, posts: 0 })));
  const offsets = new Map<number, number>();
  for (const p of posts) {
    const parts = wallParts(zone, Date.parse(p.publishedAt), offsets);
    const cell = sum[(parts.weekday + 6) % 7]![parts.hour]!;
    cell.total += engagement(p.metrics);
    cell.posts += 1;
  }
  let max = 0;
  const cells = sum.map((row) =>
    row.map((c) => {
      const avg = c.posts ? c.total / c.posts : 0;
      if (avg > max) max = avg;
      return { avg, posts: c.posts };
    }),
  );
  return { cells, max };
}

export function topPosts<T extends PostRow>(posts: T[], n = 10): T[] {
  return [...posts].sort((a, b) => engagement(b.metrics) - engagement(a.metrics)).slice(0, n);
}

/** How many words of a post's text name it where its draft has no title. */
const TITLE_WORDS = 10;

/** A post's name on the page: its draft's title, else the first words of its text; never its address. */
export function postTitle(p: { draftTitle: string | null; excerpt?: string | null }): string {
  const title = p.draftTitle?.trim();
  if (title) return title;
  const words = (p.excerpt ?? '').split(/\s+/).filter(Boolean);
  if (!words.length) return '(a post without text)';
  return words.length > TITLE_WORDS ? `${words.slice(0, TITLE_WORDS).join(' ')}…` : words.join(' ');
}

/** The heatmap legend's steps: the share of the busiest hour's average each swatch shows. */
export const HEAT_STEPS = [0, 25, 50, 75, 100] as const;
