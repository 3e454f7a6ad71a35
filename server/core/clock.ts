/** Time comes from an injected clock, so tests can pin it. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const nowIso = (clock: Clock) => new Date(clock.now()).toISOString();
