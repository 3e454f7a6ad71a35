/**
 * The calendar's model: scheduled entries, published posts and posts that did not go out (failed,
 * missed, or held for review, on the day that happened) grouped into items (one draft, one day,
 * one post's minutes, one kind, with its networks), and the days of a month or week, all as wall dates in
 * the chosen zone ("YYYY-MM-DD"), computed on UTC dates so the browser's zone never enters.
 */
import { wallOf } from '../../components/zone-time';
import { formatIn, type Locale } from '../../../../time/index';

export interface Target {
  accountId: string;
  platform: string;
  username?: string;
  /** This network's own time (ISO). */
  at: string;
  url?: string | null;
  /** A post that did not go out: its status and, when known, why. */
  status?: ProblemStatus;
  error?: string | null;
}

/** Publications the calendar shows as not gone out, on the day they failed, were missed or were held. */
export const PROBLEM_STATUSES = ['failed', 'missed', 'needs_review'] as const;
export type ProblemStatus = (typeof PROBLEM_STATUSES)[number];
export const PROBLEM_LABELS: Record<ProblemStatus, string> = {
  failed: 'Failed',
  missed: 'Missed',
  needs_review: 'Needs review',
};

export interface CalItem {
  key: string;
  kind: 'scheduled' | 'published' | 'problem';
  draftId: string | null;
  title: string;
  /** What History is searched for to find it: the title, or for a post with none, its text as sent. */
  search?: string;
  date: string;
  /** The earliest target's wall time, "HH:MM", and its instant (ISO). */
  time: string;
  at: string;
  hour: number;
  targets: Target[];
  /** An evergreen repeat's fill of a queue slot (fills.ts). */
  fill?: { setId: string; at: string };
}

/** What a post without a draft title is (History and the calendar name it so). */
export const untitledKind = (draftDeleted: boolean | undefined) => (draftDeleted ? 'Deleted draft' : 'Direct post');

/** A published post's title; one without a draft says whether its draft was deleted, and how it began. */
function untitled(p: Published): { title: string; search?: string } {
  if (p.draftTitle !== null) return { title: p.draftTitle, search: p.draftTitle };
  const what = untitledKind(p.draftDeleted);
  const text = p.sentText?.trim();
  if (!text) return { title: `(${what.toLowerCase()})` };
  return {
    title: `${what}: “${text.length > 60 ? `${text.slice(0, 60).trimEnd()}…` : text}”`,
    search: text.slice(0, 60),
  };
}

interface Scheduled {
  id: string;
  draftId: string;
  draftTitle: string;
  scheduledFor: string;
  platform: string;
  accountUuid: string;
}
interface Published {
  id: string;
  draftId: string | null;
  draftTitle: string | null;
  /** Its draft was deleted since (else a post without a title is a direct post). */
  draftDeleted?: boolean;
  /** The first post's text as sent (140 characters at most). */
  sentText?: string | null;
  accountId: string;
  username: string | null;
  platform: string;
  status: string;
  url: string | null;
  publishedAt: string | null;
  updatedAt?: string;
  error?: string | null;
}

const isProblem = (status: string): status is ProblemStatus => (PROBLEM_STATUSES as readonly string[]).includes(status);

/** Targets of one draft this close in time are one post: a queue slot's networks, jittered apart. */
const SAME_POST_MINUTES = 15;

/**
 * `published` may hold publications of any status: published ones go on the day they went out,
 * failed, missed and held ones on the day that happened (their last change), the rest not at all.
 * A draft's scheduled or published targets on one day within SAME_POST_MINUTES of each other make one item (one card),
 * even across an hour boundary; the item sits at its earliest time.
 */
export function buildItems(
  zone: string,
  scheduled: Scheduled[],
  published: Published[],
  usernames: Map<string, string>,
): CalItem[] {
  const entries: {
    kind: CalItem['kind'];
    groupId: string;
    draftId: string | null;
    title: string;
    search?: string;
    t: Target;
  }[] = [];
  for (const s of scheduled) {
    const t = {
      accountId: s.accountUuid,
      platform: s.platform,
      username: usernames.get(s.accountUuid),
      at: s.scheduledFor,
    };
    entries.push({
      kind: 'scheduled',
      groupId: s.draftId,
      draftId: s.draftId,
      title: s.draftTitle || 'Untitled',
      search: s.draftTitle || undefined,
      t,
    });
  }
  for (const p of published) {
    const who = { accountId: p.accountId, platform: p.platform, username: p.username ?? usernames.get(p.accountId) };
    const base = { groupId: p.draftId ?? p.id, draftId: p.draftId, ...untitled(p) };
    if (p.status === 'published' && p.publishedAt)
      entries.push({ ...base, kind: 'published', t: { ...who, at: p.publishedAt, url: p.url } });
    else if (isProblem(p.status) && p.updatedAt)
      entries.push({
        ...base,
        kind: 'problem',
        t: { ...who, at: p.updatedAt, status: p.status, error: p.error ?? null },
      });
  }
  entries.sort((a, b) => Date.parse(a.t.at) - Date.parse(b.t.at));
  const items: CalItem[] = [];
  /** The latest item of each kind, draft and day, with the time of its latest target. */
  const open = new Map<string, { item: CalItem; last: number }>();
  for (const e of entries) {
    const { date, time } = wallOf(zone, e.t.at);
    const group = `${e.kind}|${e.groupId}|${date}`;
    const ms = Date.parse(e.t.at);
    const prev = open.get(group);
    // What did not go out is one item per draft and day, however far apart its networks failed.
    if (prev && (e.kind === 'problem' || ms - prev.last <= SAME_POST_MINUTES * 60_000)) {
      prev.item.targets.push(e.t);
      prev.last = ms;
      continue;
    }
    const item: CalItem = {
      key: `${group}|${time}`,
      kind: e.kind,
      draftId: e.draftId,
      title: e.title,
      search: e.search,
      date,
      time,
      at: e.t.at,
      hour: Number(time.slice(0, 2)),
      targets: [e.t],
    };
    items.push(item);
    open.set(group, { item, last: ms });
  }
  return items.sort((a, b) => (a.date + a.time).localeCompare(b.date + b.time) || a.title.localeCompare(b.title));
}

const toUtc = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
};
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (date: string, n: number) => fromUtc(toUtc(date) + n * 86_400_000);

/** ISO weekday (Monday = 1) of a wall date. */
export const weekday = (date: string) => {
  const d = new Date(toUtc(date)).getUTCDay();
  return d === 0 ? 7 : d;
};

export function addMonths(date: string, n: number): string {
  const [y, m] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  return fromUtc(first.getTime());
}

/** The days shown: the week (Monday first) holding `anchor`, or the whole weeks covering its month. */
export function daysOf(anchor: string, view: 'week' | 'month'): string[] {
  if (view === 'week') {
    const monday = addDays(anchor, 1 - weekday(anchor));
    return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  }
  const first = `${anchor.slice(0, 7)}-01`;
  const start = addDays(first, 1 - weekday(first));
  const next = addMonths(first, 1);
  const weeks = Math.ceil((toUtc(next) - toUtc(start)) / (7 * 86_400_000));
  return Array.from({ length: weeks * 7 }, (_, i) => addDays(start, i));
}

/** A wall date in the reader's locale (noon UTC: the date is the same in UTC whatever the parts). */
const fmt = (date: string, o: Intl.DateTimeFormatOptions, locale: Locale = 'en-GB') =>
  formatIn(toUtc(date) + 43_200_000, 'UTC', locale, o);

export function title(anchor: string, view: 'week' | 'month', locale?: Locale): string {
  if (view === 'month') return fmt(anchor, { month: 'long', year: 'numeric' }, locale);
  const days = daysOf(anchor, 'week');
  return (
    `${fmt(days[0], { day: 'numeric', month: 'short' }, locale)} – ` +
    `${fmt(days[6], { day: 'numeric', month: 'short', year: 'numeric' }, locale)}`
  );
}

export const dayLabel = (date: string, locale?: Locale) => fmt(date, { weekday: 'short', day: 'numeric' }, locale);
