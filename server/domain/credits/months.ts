/** Calendar months in a user's IANA time zone, without a time-zone library. */

// Building an Intl.DateTimeFormat costs far more than using one (it loads ICU zone data), and
// the credit balance is read on every GET /me: one formatter per zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of `tz` from UTC at instant `t`, in ms (positive east of Greenwich). */
export function tzOffset(t: number, tz: string): number {
  const parts = formatter(tz).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(t / 1000) * 1000;
}

/** The year and month (1-12) that instant `t` falls in, in `tz`. */
export function monthOf(t: number, tz: string): { year: number; month: number } {
  const d = new Date(t + tzOffset(t, tz));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
}

/** The instant local midnight starts the given day in `tz`. */
export function localMidnight(year: number, month: number, day: number, tz: string): number {
  const guess = Date.UTC(year, month - 1, day);
  let t = guess - tzOffset(guess, tz);
  // A second pass settles days where the offset changes near midnight.
  t = guess - tzOffset(t, tz);
  return t;
}

/** `YYYY-MM` of `t` in `tz`, and the instant that month ends (first instant of the next). */
export function monthPeriod(t: number, tz: string): { period: string; endsAt: number } {
  const { year, month } = monthOf(t, tz);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return { period: `${year}-${String(month).padStart(2, '0')}`, endsAt: localMidnight(next.year, next.month, 1, tz) };
}

/** The month holding `t` in `tz`: `YYYY-MM`, its first instant and the first instant of the next. */
export function monthWindow(t: number, tz: string): { period: string; startsAt: number; endsAt: number } {
  const { year, month } = monthOf(t, tz);
  return { ...monthPeriod(t, tz), startsAt: localMidnight(year, month, 1, tz) };
}

const windows = new Map<string, { startsAt: number; endsAt: number; period: string }>();

/**
 * monthPeriod, remembered per zone while `t` stays inside the same month (the common case: every
 * call until the month turns costs one Map lookup instead of three zone conversions).
 */
export function currentMonth(t: number, tz: string): { period: string; endsAt: number } {
  const w = windows.get(tz);
  if (w && t >= w.startsAt && t < w.endsAt) return w;
  const { year, month } = monthOf(t, tz);
  const m = monthPeriod(t, tz);
  const fresh = { ...m, startsAt: localMidnight(year, month, 1, tz) };
  if (t >= fresh.startsAt && t < fresh.endsAt) {
    if (windows.size >= 1000) windows.clear();
    windows.set(tz, fresh);
  }
  return m;
}

export function safeTimeZone(tz: string): string {
  if (formatters.has(tz)) return tz;
  try {
    formatter(tz);
    return tz;
  } catch {
    return 'UTC';
  }
}
