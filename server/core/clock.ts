/** Time comes from an injected clock, so tests can pin it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const nowIso = (clock: Clock) => new Date(clock.now()).toISOString();

/**
 * Milliseconds on the monotonic clock, for measuring spans. `performance.now()` reads the same
 * clock, but the `performance` global loads perf_hooks on first touch, a fraction of a ms of
 * every start-up.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
