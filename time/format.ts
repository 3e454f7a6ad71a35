/**
 * The one formatter of every time the UI shows: a scheduled item in its set's zone (the zone
 * named when it is not the user's), everything else in the user's zone, always in the reader's
 * locale's own clock (24 h where the locale writes 24 h). The zone is always explicit: a time in
 * the browser's or the machine's zone by accident cannot happen here.
 */

export type Locale = string | readonly string[] | undefined;

/** The user's zone and the reader's locale (the browser's languages in the UI). */
export interface TimeView {
  userZone: string;
  locale?: Locale;
}

type Instant = number | string | Date | null | undefined;

type Style = 'date-time' | 'time' | 'date' | Intl.DateTimeFormatOptions;
const STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  'date-time': { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'short' },
  date: { dateStyle: 'medium' },
};

const cache = new Map<string, Intl.DateTimeFormat>();
function format(locale: Locale, zone: string, style: Style): Intl.DateTimeFormat {
  const key = `${String(locale)}|${zone}|${typeof style === 'string' ? style : JSON.stringify(style)}`;
  let f = cache.get(key);
  if (!f) {
    const opts = typeof style === 'string' ? STYLES[style] : style;
    f = new Intl.DateTimeFormat(locale as string | string[] | undefined, { ...opts, timeZone: zone });
    if (cache.size > 200) cache.clear();
    cache.set(key, f);
  }
  return f;
}

function ms(at: Instant): number {
  if (at === null || at === undefined || at === '') return Number.NaN;
  return at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
}

/** An instant as date and time in `zone` ('' for none); `style` may pick the parts instead. */
export function formatIn(at: Instant, zone: string, locale?: Locale, style: Style = 'date-time'): string {
  const t = ms(at);
  return Number.isNaN(t) ? '' : format(locale, zone, style).format(t);
}

/** Anything that is not a scheduled item (created, last used, published, expires): the user's zone. */
export function formatTime(at: Instant, view: TimeView): string {
  return formatIn(at, view.userZone, view.locale);
}

/** A scheduled item in its set's zone, named when it is not the user's. */
export function formatScheduled(at: Instant, setZone: string, view: TimeView): string {
  const text = formatIn(at, setZone, view.locale);
  return text && setZone !== view.userZone ? `${text} (${setZone})` : text;
}

/** The zone a time is shown in: the set's for a scheduled item, else the user's. */
export const zoneFor = (view: TimeView, setZone?: string | null): string => setZone || view.userZone;
