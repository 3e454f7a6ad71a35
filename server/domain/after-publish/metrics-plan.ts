/**
 * When a published post's counts are read: about 1 hour, 24 hours, 7 days and 30 days after it
 * went out. A read, planned or asked for, moves the plan to the first of those still ahead, so a
 * post whose reads were missed while Herald was closed is read once, not once per missed step.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const PLAN_MS = [HOUR_MS, DAY_MS, 7 * DAY_MS, 30 * DAY_MS] as const;

/** The next planned read after a read at `now`: its step and instant, or null when the plan is done. */
export function nextRead(publishedAt: number, now: number): { step: number; at: number } | null {
  for (let step = 0; step < PLAN_MS.length; step++) {
    const at = publishedAt + PLAN_MS[step]!;
    if (at > now) return { step, at };
  }
  return null;
}

/** The wait after a failed read: 5 minutes, doubling, at most a day. */
export function backoffMs(failures: number): number {
  return Math.min(DAY_MS, 5 * 60_000 * 2 ** Math.max(0, failures - 1));
}

/** After this many failed reads in a row a post stops being read (its reason stays shown). */
export const MAX_FAILURES = 8;
