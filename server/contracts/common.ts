/**
 * Shared zod pieces. Contracts are the single source for validation, the OpenAPI document, the
 * client library's types and the CLI. Request schemas are strict about types and lenient about
 * unknown keys (they are dropped).
 */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { ERROR_CODES } from '../core/errors.js';
import { PLATFORMS } from '../../text/networks.js';

export const PLATFORM_VALUES = PLATFORMS;
export const platformSchema = lazySchema(() =>
  z
    .enum(PLATFORM_VALUES)
    .describe(
      'Network: microblog = X, skyblog = Bluesky, fedblog = Mastodon, threadblog = Threads, problog = LinkedIn',
    ),
);

export const timestamp = lazySchema(() => z.string().describe('ISO 8601 timestamp (UTC)'));

/*
 * Times from users: one strict reading for every field. Date.parse alone let "2030-02-30" become
 * 2 March, took year 10000, a time with no zone as the machine's local time, and trailing NULs.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

function realDate(y: string, m: string, d: string): boolean {
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  const last = new Date(0);
  last.setUTCFullYear(Number(y), month, 0);
  const days = last.getUTCDate();
  return day <= days;
}

/** Why `s` is not a strict ISO 8601 date-time with Z or an offset and a real date, or undefined. */
export function dateTimeProblem(s: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) return 'must not contain control characters';
  const m = DATE_TIME.exec(s);
  if (!m) return 'must be an ISO 8601 date-time with Z or an offset, like 2026-12-01T09:30:00Z';
  const [, y, mo, d, h, mi, sec, oh, om] = m;
  if (!realDate(y, mo, d)) return `${y}-${mo}-${d} is not a calendar date`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec ?? 0) > 59) return 'is not a time of day';
  if (oh !== undefined && (Number(oh) > 14 || Number(om) > 59)) return 'has an offset no time zone uses';
  return undefined;
}

/** Strict ISO 8601 instant: `Z` or ±hh:mm, a real calendar date and time, years 0000-9999. */
export const dateTimeInput = lazySchema(() =>
  z
    .string()
    .max(64)
    .superRefine((s, ctx) => {
      const why = dateTimeProblem(s);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    })
    .describe('ISO 8601 date-time with Z or an offset (2026-12-01T09:30:00Z)'),
);

/** A filter bound: a calendar date (YYYY-MM-DD) or a strict date-time. */
export const isoDateInput = lazySchema(() =>
  z
    .string()
    .max(64)
    .superRefine((s, ctx) => {
      const d = DATE.exec(s);
      const why = d ? (realDate(d[1], d[2], d[3]) ? undefined : `${s} is not a calendar date`) : dateTimeProblem(s);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    })
    .describe('ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset'),
);

/**
 * The latest instant a post may be scheduled for (§10: two years ahead). The services check it
 * against their injected clock, which a schema cannot see.
 */
export function latestScheduleTime(now: number): number {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + 2);
  return d.getTime();
}
export const idParam = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));

export const successTrue = lazySchema(() => z.literal(true));
export const messageResponse = lazySchema(() => z.object({ success: successTrue, message: z.string() }));

export const errorBody = lazySchema(() =>
  z
    .object({
      success: z.literal(false),
      error: z.enum(ERROR_CODES as [string, ...string[]]),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    })
    .describe('Error envelope'),
);

/** A trimmed, non-empty string of at most `max` characters. */
export const name = (max = 200) => z.string().trim().min(1).max(max);
