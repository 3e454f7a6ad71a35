/**
 * Time zones and weekly slots, as pure functions over the platform's zone data (Intl / ICU).
 * Nothing here reads the clock: every "now" is an argument. It lives with the contracts because
 * the DST rule below is part of the API's contract (docs/decisions.md §13) and the one module the
 * server, the CLI and the UI all read it from; it imports nothing.
 *
 * The DST rule (docs/decisions.md §13): a local time that does not exist (in a spring-forward gap) moves
 * forward by the length of the gap (New York 02:30 on the spring day is 03:30 EDT; Lord Howe's
 * 02:15 is 02:45 +11:00, its gap being 30 minutes); a local time that happens twice (in a
 * fall-back overlap) takes the earlier instant (New York 01:30 on the autumn day is 01:30 EDT).
 *
 * Speed: an offset lookup asks Intl once per zone and UTC year (it finds that year's
 * transitions by weekly sampling and bisection to the second), then answers from that table, so
 * walking hundreds of slots costs arithmetic, not Intl calls.
 */

export const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** A weekly slot in a set's zone: ISO weekday (Monday = 1 ... Sunday = 7) and "HH:MM". */
export interface Slot { day: number; time: string }

export interface LocalParts { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    formatters.set(zone, f);
  }
  return f;
}

/** IANA names only (no "+05:30" offsets, which Intl also accepts), and one Intl knows. */
export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone.length > 64 || !/^(?:UTC|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2})$/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone this machine is set to (the default of a new social set). */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Offset (ms, local − UTC) straight from Intl: the slow path, used to build the tables. */
function intlOffset(zone: string, at: number): number {
  const p: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(at)) p[part.type] = part.value;
  let year = Number(p.year);
  if (p.era === 'BC' || p.era === 'B') year = 1 - year;
  const wall = Date.UTC(year, Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(at / 1000) * 1000;
}

interface YearTable { start: number; end: number; offsets: number[]; at: number[] }
interface ZoneTables { last: YearTable; years: Map<number, YearTable> }
const zones = new Map<string, ZoneTables>();

/** The offsets in force during one UTC year: offsets[i] from at[i] (at[0] = the year's start). */
function yearTable(zone: string, year: number): YearTable {
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const at = [start];
  const offsets = [intlOffset(zone, start)];
  let prev = offsets[0];
  let lastAt = start; // the latest instant known to have offset `prev`
  for (let probe = start + WEEK; ; probe += WEEK) {
    const sample = Math.min(probe, end);
    const o = intlOffset(zone, sample);
    while (o !== prev) {
      // Bisect (to the second) for the first instant after lastAt whose offset is not `prev`.
      let lo = lastAt;
      let hi = sample;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (intlOffset(zone, mid) === prev) lo = mid; else hi = mid;
      }
      at.push(hi);
      prev = intlOffset(zone, hi);
      offsets.push(prev);
      lastAt = hi;
    }
    lastAt = sample;
    if (sample >= end) break;
  }
  return { start, end, offsets, at };
}

/** The zone's offset from UTC (ms, local − UTC) at an instant. */
export function offsetAt(zone: string, instant: number): number {
  let z = zones.get(zone);
  let t = z?.last;
  if (!t || instant < t.start || instant >= t.end) {
    const year = new Date(instant).getUTCFullYear();
    if (!z) {
      if (zones.size > 500) zones.clear();
      t = yearTable(zone, year);
      z = { last: t, years: new Map([[year, t]]) };
      zones.set(zone, z);
    } else {
      t = z.years.get(year);
      if (!t) {
        t = yearTable(zone, year);
        if (z.years.size > 200) z.years.clear();
        z.years.set(year, t);
      }
      z.last = t;
    }
  }
  const at = t.at;
  let i = at.length - 1;
  while (i > 0 && at[i] > instant) i--;
  return t.offsets[i];
}

/** The wall-clock parts of an instant in a zone; weekday is ISO (Monday = 1). */
export function localParts(zone: string, instant: number): LocalParts {
  const d = new Date(instant + offsetAt(zone, instant));
  const wd = d.getUTCDay();
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: wd === 0 ? 7 : wd,
  };
}

/** "2026-03-08T03:30" in the zone, with its offset ("-04:00"): how the UI and the CLI show a time. */
export function formatLocal(zone: string, instant: number): { local: string; offset: string } {
  const p = localParts(zone, instant);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const o = offsetAt(zone, instant) / MINUTE;
  const sign = o < 0 ? '-' : '+';
  return {
    local: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`,
    offset: `${sign}${pad(Math.floor(Math.abs(o) / 60))}:${pad(Math.abs(o) % 60)}`,
  };
}

/**
 * A wall-clock time in a zone as a UTC instant, by the DST rule above. `wall` is the local time
 * written as if it were UTC (Date.UTC(y, m - 1, d, h, min)).
 */
export function wallToInstant(zone: string, wall: number): number {
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  const a = wall - before;
  const b = wall - after;
  const aOk = offsetAt(zone, a) === before;
  const bOk = offsetAt(zone, b) === after;
  if (aOk && bOk) return Math.min(a, b); // happens twice (or once, when a === b): the earlier
  if (aOk) return a;
  if (bOk) return b;
  // In the gap: read with the offset before it, which lands as much later as the gap is long.
  return a;
}

/** `localToInstant(zone, 2026, 3, 8, 2, 30)`: the instant of that wall time (DST rule applied). */
export function localToInstant(zone: string, year: number, month: number, day: number, hour: number, minute: number): number {
  return wallToInstant(zone, Date.UTC(year, month - 1, day, hour, minute));
}

/** "HH:MM" → minutes since midnight, or null when it is not a real time of day (24:00, 9:5, 25:00). */
export function parseTime(time: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Slots closer than this (around the week) overlap: their ±3 min jitter windows would cross. */
export const MIN_SLOT_GAP_MINUTES = 6;

/** Problems with a slot list, each naming its index: bad day, bad time, or overlapping another. */
export function slotProblems(slots: Slot[]): { index: number; field: 'day' | 'time'; message: string }[] {
  const problems: { index: number; field: 'day' | 'time'; message: string }[] = [];
  const seen: { index: number; at: number }[] = [];
  slots.forEach((s, index) => {
    if (!Number.isInteger(s.day) || s.day < 1 || s.day > 7) problems.push({ index, field: 'day', message: 'day is 1 (Monday) to 7 (Sunday)' });
    const minutes = parseTime(s.time);
    if (minutes === null) problems.push({ index, field: 'time', message: `"${String(s.time).slice(0, 20)}" is not a time of day HH:MM (00:00 to 23:59)` });
    if (minutes === null || !Number.isInteger(s.day) || s.day < 1 || s.day > 7) return;
    const at = (s.day - 1) * 1440 + minutes;
    const clash = seen.find((o) => {
      const d = Math.abs(o.at - at);
      return Math.min(d, 7 * 1440 - d) < MIN_SLOT_GAP_MINUTES;
    });
    if (clash) problems.push({ index, field: 'time', message: `overlaps slot ${clash.index} (slots must be at least ${MIN_SLOT_GAP_MINUTES} minutes apart)` });
    else seen.push({ index, at });
  });
  return problems;
}

/** Sorted by day then time, the order slots are stored and shown in. */
export function sortSlots(slots: Slot[]): Slot[] {
  return [...slots].sort((a, b) => a.day - b.day || a.time.localeCompare(b.time));
}

/**
 * The slot instants strictly after `after`, soonest first, for weekly slots in a zone. Two slots
 * that the DST rule brings to the same instant (02:30 and 03:30 on a spring-forward day) give it
 * once. Stops at `until` (inclusive).
 */
export function* slotInstants(zone: string, slots: Slot[], after: number, until: number): Generator<number> {
  if (slots.length === 0) return;
  const byDay: number[][] = [[], [], [], [], [], [], [], []];
  for (const s of slots) {
    const m = parseTime(s.time);
    if (m !== null && s.day >= 1 && s.day <= 7) byDay[s.day].push(m);
  }
  for (const list of byDay) list.sort((a, b) => a - b);
  const p = localParts(zone, after);
  // Start a day early: a slot late on the previous local day can still be ahead of `after`.
  let date = Date.UTC(p.year, p.month - 1, p.day) - DAY;
  let weekday = p.weekday === 1 ? 7 : p.weekday - 1;
  let last = after;
  for (;;) {
    const day: number[] = [];
    for (const m of byDay[weekday]) day.push(wallToInstant(zone, date + m * MINUTE));
    day.sort((a, b) => a - b);
    for (const at of day) {
      if (at <= last) continue;
      if (at > until) return;
      last = at;
      yield at;
    }
    if (date - 3 * DAY > until) return;
    date += DAY;
    weekday = weekday === 7 ? 1 : weekday + 1;
  }
}

/** The first slot after `after` that no instant in `taken` holds, or null when none by `until`. */
export function nextFreeSlot(zone: string, slots: Slot[], after: number, taken: ReadonlySet<number>, until: number): number | null {
  for (const at of slotInstants(zone, slots, after, until)) if (!taken.has(at)) return at;
  return null;
}

/** The next `count` slot instants after `after` (fewer when `until` comes first). */
export function nextSlots(zone: string, slots: Slot[], after: number, count: number, until: number): number[] {
  const out: number[] = [];
  if (count <= 0) return out;
  for (const at of slotInstants(zone, slots, after, until)) {
    out.push(at);
    if (out.length >= count) break;
  }
  return out;
}
