/**
 * Weekly slots in a zone, as pure functions: validation, order, and the instants they fall on
 * (each through the one DST rule of ./zones.ts). Nothing here reads the clock.
 */
import { localParts, MINUTE, wallToInstant } from './zones.js';

const DAY = 24 * 60 * MINUTE;

/** A weekly slot in a set's zone: ISO weekday (Monday = 1 ... Sunday = 7) and "HH:MM". */
export interface Slot {
  day: number;
  time: string;
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
    if (!Number.isInteger(s.day) || s.day < 1 || s.day > 7)
      problems.push({ index, field: 'day', message: 'day is 1 (Monday) to 7 (Sunday)' });
    const minutes = parseTime(s.time);
    if (minutes === null)
      problems.push({
        index,
        field: 'time',
        message: `"${String(s.time).slice(0, 20)}" is not a time of day HH:MM (00:00 to 23:59)`,
      });
    if (minutes === null || !Number.isInteger(s.day) || s.day < 1 || s.day > 7) return;
    const at = (s.day - 1) * 1440 + minutes;
    const clash = seen.find((o) => {
      const d = Math.abs(o.at - at);
      return Math.min(d, 7 * 1440 - d) < MIN_SLOT_GAP_MINUTES;
    });
    if (clash)
      problems.push({
        index,
        field: 'time',
        message: `overlaps slot ${clash.index} (slots must be at least ${MIN_SLOT_GAP_MINUTES} minutes apart)`,
      });
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
export function nextFreeSlot(
  zone: string,
  slots: Slot[],
  after: number,
  taken: ReadonlySet<number>,
  until: number,
): number | null {
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
