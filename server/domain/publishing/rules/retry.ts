/**
 * The retry policy of scheduled posts. Failures worth retrying (network trouble, 5xx, 429) come
 * back after about 1 and 5 minutes (or the network's reset time, when later), at most 3 attempts
 * in all. A full disk is no attempt at all: the entry waits, uncharged, and is tried again every
 * few seconds (the waits grow, the last repeats) until the disk has room.
 */
import { PlatformError } from '../../../platforms/errors.js';

export const MAX_ATTEMPTS = 3;
/** Waits before attempt 2 and 3 (and past them, the last repeats), ms. */
export const RETRY_BACKOFF_MS: readonly number[] = [60_000, 300_000, 900_000];
/** Waits before each renewed try of an entry a full disk stopped, ms (the last repeats). */
export const STORAGE_BACKOFF_MS: readonly number[] = [5_000, 10_000, 20_000, 30_000];

/** The `index`-th wait of a backoff list, the last repeating. */
function step(backoff: readonly number[], index: number): number {
  return backoff[Math.min(index, backoff.length - 1)];
}

/**
 * When attempt `attempt` (1-based, just made at `now`) is tried again, or null when it is not:
 * not worth retrying (`retry` absent) or the attempts are used up. A network's reset time later
 * than the backoff wins.
 */
export function nextAttemptAt(
  attempt: number,
  now: number,
  retry: { after?: number } | undefined,
  backoff: readonly number[] = RETRY_BACKOFF_MS,
): number | null {
  if (!retry || attempt >= MAX_ATTEMPTS) return null;
  return Math.max(now + step(backoff, attempt - 1), retry.after ?? 0);
}

/** When an entry a full disk stopped `tries` times (counting this one) is tried again. */
export function storageRetryAt(tries: number, now: number, backoff: readonly number[] = STORAGE_BACKOFF_MS): number {
  return now + step(backoff, tries - 1);
}

/** Whether a failed send is worth another attempt later, and not before when (the network's reset). */
export function retryHint(error: unknown): { after?: number } | undefined {
  const pe = error instanceof PlatformError ? error : undefined;
  return pe?.retryable ? { after: pe.resetAt } : undefined;
}

/**
 * A network that says it takes no more of this account's media for now (Bluesky's video service,
 * `canUpload: false`): the post is held for the quota, not failed, with the service's words as the reason.
 */
export function quotaHoldOf(error: unknown): { until: number; reason: string } | undefined {
  if (!(error instanceof PlatformError) || error.opts.code !== 'video_quota' || !error.resetAt) return undefined;
  return { until: error.resetAt, reason: error.message };
}
