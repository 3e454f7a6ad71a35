/**
 * Time zones as pure functions over the platform's zone data (Intl / ICU): offsets, wall-clock
 * parts, the one DST rule, the one zone-validity rule and the machine's zone. Nothing here reads
 * the clock: every "now" is an argument. A leaf shared by the server, the CLI and the UI; it
 * imports nothing from the repository.
 *
 * The DST rule: a local time that does not exist (in a spring-forward gap) moves forward by the
 * length of the gap (New York 02:30 on the spring day is 03:30 EDT; Lord Howe's 02:15 is 02:45
 * +11:00, its gap being 30 minutes); a local time that happens twice (in a fall-back overlap)
 * takes the earlier instant (New York 01:30 on the autumn day is 01:30 EDT).
 *
 * Speed: an offset lookup asks Intl once per zone and UTC year (it finds that year's
 * transitions by weekly sampling and bisection to the second), then answers from that table, so
 * walking hundreds of slots costs arithmetic, not Intl calls.
 */

export const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

const IANA = /^(?:UTC|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2})$/;

/**
 * The one zone-validity rule: an IANA name (not a "+05:30" offset, which Intl also takes) that
 * Intl knows, answered in its canonical spelling ("europe/berlin" → "Europe/Berlin"), else
 * undefined.
 */
export function canonicalTimeZone(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone.length > 64 || !IANA.test(zone)) return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    formatter(zone);
    // Only the spelling is fixed: ICU would also turn today's names into older ones (Kolkata → Calcutta).
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return undefined;
  }
}

export const isValidTimeZone = (zone: unknown): zone is string => canonicalTimeZone(zone) !== undefined;

/** The zone of the machine this runs on (the browser's, in the UI); UTC when it names none. */
export function machineTimeZone(): string {
  return canonicalTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
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

interface YearTable {
  start: number;
  end: number;
  offsets: number[];
  at: number[];
}
interface ZoneTables {
  last: YearTable;
  years: Map<number, YearTable>;
}
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
        if (intlOffset(zone, mid) === prev) lo = mid;
        else hi = mid;
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
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: wd === 0 ? 7 : wd,
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

/** Which half of the DST rule a wall time needed: none, the gap (moved forward) or the overlap (the earlier). */
export type DstRule = null | 'gap' | 'overlap';

/**
 * A wall-clock time in a zone as a UTC instant, by the DST rule above, and which half of the
 * rule applied. `wall` is the local time written as if it were UTC (Date.UTC(y, m - 1, d, h, min)).
 */
export function resolveWall(zone: string, wall: number): { instant: number; rule: DstRule } {
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  const a = wall - before;
  const b = wall - after;
  const aOk = offsetAt(zone, a) === before;
  const bOk = offsetAt(zone, b) === after;
  if (aOk && bOk) return { instant: Math.min(a, b), rule: a === b ? null : 'overlap' };
  if (aOk) return { instant: a, rule: null };
  if (bOk) return { instant: b, rule: null };
  // In the gap: read with the offset before it, which lands as much later as the gap is long.
  return { instant: a, rule: 'gap' };
}

export const wallToInstant = (zone: string, wall: number): number => resolveWall(zone, wall).instant;

/**
 * A local time ("2026-03-08 02:30", "2026-03-08T02:30:00") in a zone: its instant and, when the
 * DST rule applied, the rule in words. Null when the text is not a real date and time of day.
 */
export function readLocal(zone: string, text: string): { instant: number; rule: DstRule; words?: string } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59 || new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d)
    return null;
  const { instant, rule } = resolveWall(zone, Date.UTC(y, mo - 1, d, h, mi, s));
  const asked = `${m[4]}:${m[5]}`;
  const got = formatLocal(zone, instant);
  const at = `${got.local.slice(11)} (UTC${got.offset})`;
  if (rule === 'gap') {
    const gap = (instant - Date.UTC(y, mo - 1, d, h, mi, s) + offsetAt(zone, instant)) / MINUTE;
    const words =
      `${asked} does not exist in ${zone} that day (the clocks jump forward): moved forward by ${gap} minutes ` +
      `to ${at}`;
    return { instant, rule, words };
  }
  if (rule === 'overlap') {
    return {
      instant,
      rule,
      words: `${asked} happens twice in ${zone} that day (the clocks go back): took the earlier, ${at}`,
    };
  }
  return { instant, rule };
}

/** `localToInstant(zone, 2026, 3, 8, 2, 30)`: the instant of that wall time (DST rule applied). */
export function localToInstant(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
): number {
  return wallToInstant(zone, Date.UTC(year, month - 1, day, hour, minute));
}

/** "+05:30" of a zone at an instant. */
export function offsetText(zone: string, instant: number): string {
  return formatLocal(zone, instant).offset;
}

/** ICU lists some zones by their older names; the list offers today's. */
const MODERN: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/**
 * Every zone Intl knows with its UTC offset now, for the searchable zone list: sorted by offset,
 * then name. `extra` (the saved zone, the machine's) is added when Intl's list lacks it.
 */
export function zoneChoices(now: number, extra: string[] = []): { zone: string; offset: string; label: string }[] {
  let names: string[] = [];
  try {
    names = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    // Without the list the picker still offers UTC and the extras.
  }
  const modern = names.map((z) => (MODERN[z] && isValidTimeZone(MODERN[z]) ? MODERN[z] : z));
  const all = [...new Set(['UTC', ...modern, ...extra.filter(isValidTimeZone)])];
  return all
    .map((zone) => ({ zone, at: offsetAt(zone, now), offset: offsetText(zone, now) }))
    .sort((a, b) => a.at - b.at || a.zone.localeCompare(b.zone))
    .map(({ zone, offset }) => ({ zone, offset, label: `${zone.replace(/_/g, ' ')} (UTC${offset})` }));
}
