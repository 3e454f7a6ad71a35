/**
 * Every time the UI shows goes through here (the formatter of time/format.ts): a scheduled item in
 * its set's zone (named when it is not the user's), everything else in the user's zone (GET /me,
 * the setting `timeZone`), in the browser's locale's own clock. Components never format a time or
 * ask Intl for defaults themselves (a test greps for that).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { client } from '../api';
import { formatIn, formatScheduled, formatTime, type TimeView } from '../../../time/index';

let userZone: string | undefined;
let asked: Promise<void> | undefined;
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

/** The reader's locales: the browser's own list, so the clock is the one the reader is used to. */
const locale = (): readonly string[] =>
  typeof navigator !== 'undefined' && navigator.languages?.length ? navigator.languages : ['en'];

function ask(): void {
  if (asked) return;
  asked = client.me().then(
    (me) => {
      userZone = me.timezone;
      notify();
    },
    () => {
      asked = undefined;
    },
  );
}

/** After Settings or the wizard change the zone: every shown time follows at once. */
export function setUserZone(zone: string): void {
  userZone = zone;
  asked = Promise.resolve();
  notify();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The user's zone and the locale, once GET /me has answered (undefined before). */
export function useTimeView(): TimeView | undefined {
  const zone = useSyncExternalStore(subscribe, () => userZone);
  useEffect(() => {
    if (!zone) ask();
  }, [zone]);
  return zone ? { userZone: zone, locale: locale() } : undefined;
}

/** Formatting functions for text built in code (notices, titles); '' until the user's zone is known. */
export function useTimes() {
  const view = useTimeView();
  return {
    view,
    userZone: view?.userZone,
    /** Anything not scheduled: the user's zone. */
    at: (iso: string | number | null | undefined) => (view ? formatTime(iso, view) : ''),
    /** A scheduled item in its set's zone (the user's when it has no set). */
    scheduled: (iso: string | number | null | undefined, zone?: string | null) =>
      view ? formatScheduled(iso, zone || view.userZone, view) : '',
    /** The clock time alone ("09:00", "9:00 AM") in a zone. */
    clock: (iso: string | number, zone: string) => formatIn(iso, zone, view?.locale ?? locale(), 'time'),
    /** A wall date ("2026-12-01") as the reader's locale writes it; `o` picks the parts. */
    date: (date: string, o: Intl.DateTimeFormatOptions) => wallDate(date, o),
  };
}

/** A wall date ("2026-12-01", no zone involved) in the reader's locale. */
export function wallDate(date: string, o: Intl.DateTimeFormatOptions): string {
  const [y, m, d] = date.split('-').map(Number);
  return formatIn(Date.UTC(y, m - 1, d, 12), 'UTC', locale(), o);
}

/**
 * One shown time: `zone` is the set's for a scheduled item (leave it out for anything else). The
 * element carries the instant and the zone it is shown in, so tests can check every one.
 */
export function Time({
  at,
  zone,
  fallback = '',
  clock,
}: {
  at: string | number | null | undefined;
  zone?: string | null;
  fallback?: string;
  /** the time of day alone (the zone is named nearby) */
  clock?: boolean;
}) {
  const view = useTimeView();
  if (at === null || at === undefined || at === '' || !view) return <>{fallback}</>;
  const shownIn = zone || view.userZone;
  const iso = new Date(typeof at === 'number' ? at : Date.parse(at)).toISOString();
  const text = clock
    ? formatIn(at, shownIn, view.locale, 'time')
    : zone
      ? formatScheduled(at, zone, view)
      : formatTime(at, view);
  return (
    <time dateTime={iso} data-zone={shownIn}>
      {text}
    </time>
  );
}
