/**
 * Grace and missed (docs/decisions.md §6): a scheduled post found due late by at most
 * the grace period is published at once; a later one is `missed`, not published and not charged.
 * A retry is late from the instant of that retry: a post that failed at 09:00 and was to be tried
 * again at 09:01 is not sent at 17:00 because Herald was closed all day (parts of a thread
 * already out stay out, and publishing again resumes it).
 */

/** Whether an entry due at `dueAt`, found due at `claimedAt`, is past the grace period. */
export function isMissed(dueAt: number, claimedAt: number, graceMs: number): boolean {
  return claimedAt - dueAt > graceMs;
}

/** The reason a missed entry keeps, in the words progress and history show. */
export function missedReason(dueAt: number, attempts: number, claimedAt: number): string {
  const what = attempts === 0 ? '' : ` for attempt ${attempts + 1}`;
  return (
    `Missed: Herald was not running at ${new Date(dueAt).toISOString()}${what} (` +
    `${Math.round((claimedAt - dueAt) / 60_000)} min late)`
  );
}
