/**
 * Per-key request limits in fixed one-hour windows (decisions §2). Kept in memory: counting in
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

  constructor(private readonly clock: Clock, private readonly limits: Record<Tier, number>) {}

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

  constructor(private readonly clock: Clock, private readonly opts = { free: 3, baseMs: 250, maxMs: 8000, forgetMs: 15 * 60_000 }) {}

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
