/**
 * What an adapter throws. Every network failure is normalised into one of these kinds so the
 * publishing engine can decide: refresh and retry (token_expired), wait until `resetAt`
 * (rate_limited), retry with backoff (transient), give up (permanent), or reconcile before any
 * retry because the network may have committed the post (ambiguous).
 */
import type { Platform } from '../core/config.js';
import { NETWORK_LABELS } from '../../text/counting.js';

export type PlatformErrorKind = 'token_expired' | 'rate_limited' | 'transient' | 'permanent' | 'ambiguous';

export class PlatformError extends Error {
  constructor(
    readonly platform: Platform,
    readonly kind: PlatformErrorKind,
    message: string,
    readonly opts: { status?: number; resetAt?: number; code?: string; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'PlatformError';
  }

  get status() {
    return this.opts.status;
  }
  /** Epoch ms when the network says the limit resets. */
  get resetAt() {
    return this.opts.resetAt;
  }
  get retryable() {
    return this.kind === 'transient' || this.kind === 'rate_limited';
  }
}

/** The networks' own names, as the shared text module gives them. */
export const NETWORK_NAMES: Record<Platform, string> = NETWORK_LABELS;

/**
 * Classifies a failed fetch (no HTTP answer). A request whose body was sent may have been
 * committed by the network: for writes that is `ambiguous`, never `transient`.
 */
export function networkFailure(platform: Platform, err: unknown, opts: { write: boolean }): PlatformError {
  const reason = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  const name = NETWORK_NAMES[platform];
  // Herald's own time limit ran out (not a refused or reset connection): the runner treats it
  // apart, since waiting again for a network that is this slow only keeps the post in limbo.
  const timedOut =
    err instanceof Error &&
    (err.name === 'TimeoutError' || (err.cause instanceof Error && err.cause.name === 'TimeoutError'));
  if (opts.write) {
    return new PlatformError(
      platform,
      'ambiguous',
      `${name} did not answer after the post was sent (${reason}); it may have been published`,
      { cause: err, code: timedOut ? 'timeout' : undefined },
    );
  }
  return new PlatformError(platform, 'transient', `${name} could not be reached (${reason})`, { cause: err });
}
