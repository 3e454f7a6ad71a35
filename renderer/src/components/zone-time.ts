/**
 * Wall dates and times of instants in a time zone, and back (the one DST rule of time/zones.ts),
 * for date inputs and calendar days; shown times go through components/time.tsx. Pure: no React,
 * no API, so the calendar's model is testable in Node.
 */
import { formatLocal, localParts, localToInstant } from '../../../time/index';

/** "2026-11-30" and "09:00" of an instant in `zone`. */
export function wallOf(zone: string, iso: string | number): { date: string; time: string } {
  const { local } = formatLocal(zone, typeof iso === 'number' ? iso : Date.parse(iso));
  const [date, time] = local.split('T');
  return { date, time };
}

/** The instant of "2026-11-30" "09:00" in `zone` (NaN when either is not one). */
export function instantOf(zone: string, date: string, time: string): number {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t || Number(t[1]) > 23 || Number(t[2]) > 59) return Number.NaN;
  const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  if (m < 1 || m > 12 || new Date(Date.UTC(y, m - 1, day)).getUTCDate() !== day) return Number.NaN; // 2026-02-30
  try {
    return localToInstant(zone, y, m, day, Number(t[1]), Number(t[2]));
  } catch {
    return Number.NaN;
  }
}

/** Today's date in `zone`, "YYYY-MM-DD". */
export function todayIn(zone: string): string {
  const p = localParts(zone, Date.now());
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
