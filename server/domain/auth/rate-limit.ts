/**
 * Per-key request limits in fixed one-hour windows (docs/decisions.md §2). Kept in memory: counting in
 * SQLite would add a write to every request, and the limit guards a loopback API, not billing.
 */
import type { Clock } from '../../core/clock.js';

export type Tier = 'free' | 'pro' | 'enterprise';
const HOUR = 3_600_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at the end of the window. */
  reset: number;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: Record<Tier, number>,
  ) {}

  limitFor(tier: Tier): number {
    return this.limits[tier] ?? this.limits.free;
  }

  hit(keyId: string, tier: Tier): RateDecision {
    const now = this.clock.now();
    const start = Math.floor(now / HOUR) * HOUR;
    let w = this.windows.get(keyId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(keyId, w);
      if (this.windows.size > 10_000) this.prune(start);
    }
    const limit = this.limitFor(tier);
    const end = start + HOUR;
    const allowed = w.count < limit;
    if (allowed) w.count += 1;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - w.count),
      reset: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - now) / 1000)),
    };
  }

  forget(keyId: string): void {
    this.windows.delete(keyId);
  }

  private prune(currentStart: number): void {
    for (const [k, w] of this.windows) if (w.start !== currentStart) this.windows.delete(k);
  }
}

/**
 * Slows down repeated failures for one identity (an e-mail, or all bad keys together). Never
 * answers a throttled attempt faster than an unthrottled one.
 */
export class FailureThrottle {
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly opts = { free: 3, baseMs: 250, maxMs: 8000, forgetMs: 15 * 60_000 },
  ) {}

  /** Milliseconds to wait before answering an attempt for `id`. */
  delayFor(id: string): number {
    const f = this.failures.get(id);
    if (!f) return 0;
    if (this.clock.now() - f.last > this.opts.forgetMs) {
      this.failures.delete(id);
      return 0;
    }
    if (f.count < this.opts.free) return 0;
    return Math.min(this.opts.maxMs, this.opts.baseMs * 2 ** (f.count - this.opts.free));
  }

  fail(id: string): void {
    const f = this.failures.get(id);
    this.failures.set(id, { count: (f?.count ?? 0) + 1, last: this.clock.now() });
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  succeed(id: string): void {
    this.failures.delete(id);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface AttemptLimits {
  /** Failures allowed before any wait. */
  free: number;
  /** Wait after the `free`-th failure, doubled for each further one, up to `maxMs`. */
  baseMs: number;
  maxMs: number;
  /** A record with no attempt for this long is forgotten. */
  forgetMs: number;
}

export type Reservation = { ok: true; settle(succeeded: boolean): void } | { ok: false; retryAfter: number };

/**
 * Password guesses, counted before they are checked. `reserve` runs synchronously before the
 * slow hash and counts the attempt as a failure at once; a success later takes it back. So fifty
 * guesses sent together meet the same count fifty guesses sent one by one would: a throttle that
 * counts failures only after the hash lets every parallel guess through while the first is still
 * hashing. Over the limit the answer is a refusal with Retry-After, not a wait, so a throttled
 * guess holds no connection and costs no hashing.
 */
export class AttemptThrottle {
  private readonly records = new Map<string, { count: number; last: number; nextAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: Record<string, AttemptLimits>,
  ) {}

  /** `ids` maps a limits name to the identity counted under it (e.g. `{email: 'a@b', client: '127.0.0.1'}`). */
  reserve(ids: Record<string, string>): Reservation {
    const now = this.clock.now();
    const keys = Object.entries(ids).map(([kind, id]) => ({ kind, key: `${kind}\u0000${id}` }));
    let wait = 0;
    for (const { key } of keys) {
      const r = this.current(key, now, this.limits[key.split('\u0000')[0]]);
      if (r && now < r.nextAt) wait = Math.max(wait, r.nextAt - now);
    }
    if (wait > 0) return { ok: false, retryAfter: Math.max(1, Math.ceil(wait / 1000)) };
    for (const { kind, key } of keys) {
      const lim = this.limits[kind];
      const r = this.current(key, now, lim) ?? { count: 0, last: now, nextAt: 0 };
      r.count += 1;
      r.last = now;
      if (r.count >= lim.free) r.nextAt = now + Math.min(lim.maxMs, lim.baseMs * 2 ** (r.count - lim.free));
      this.records.set(key, r);
    }
    if (this.records.size > 10_000) this.prune(now);
    let settled = false;
    return {
      ok: true,
      settle: (succeeded) => {
        if (settled || !succeeded) return;
        settled = true;
        // The identity that proved itself starts afresh; for the others (the client) only this
        // attempt is taken back, so one good sign-in does not wipe a guesser's record.
        const [first, ...rest] = keys;
        this.records.delete(first.key);
        for (const { key } of rest) {
          const r = this.records.get(key);
          if (r) r.count = Math.max(0, r.count - 1);
        }
      },
    };
  }

  private current(key: string, now: number, lim: AttemptLimits) {
    const r = this.records.get(key);
    if (r && now - r.last > lim.forgetMs) {
      this.records.delete(key);
      return undefined;
    }
    return r;
  }

  private prune(now: number): void {
    for (const [key, r] of this.records) {
      if (now - r.last > this.limits[key.split('\u0000')[0]].forgetMs) this.records.delete(key);
    }
  }
}
