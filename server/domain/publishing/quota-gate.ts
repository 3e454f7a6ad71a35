/**
 * The networks' posting caps (platforms/quotas.ts), checked before a scheduled post fires: a post
 * that would go over is held back, pending and uncharged, `waitingFor: "quota"`, until the window
 * frees (scheduled-runner.ts). Herald counts its own requests in each rolling window (post_usage,
 * written as each part is sent); where a network reports its own count (the adapter's optional
 * `publishingQuota`: Threads), that is asked too, since posts made elsewhere count against the
 * same cap.
 *
 * When the window frees: the instant enough of the requests Herald knows of leave it. Requests
 * the network counts but Herald did not make have no known time: the gate then looks again after
 * at most RECHECK_MS. A post that could never fit (a thread longer than the cap) is not held: the
 * network's own answer then says why.
 */
import type { Platform } from '../../core/config.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import { quotaWindows, type NetworkQuota, type QuotaWindow } from '../../platforms/quotas.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import type { Deps } from '../deps.js';

/** Longest wait before the gate asks a network's own count again, ms. */
export const RECHECK_MS = 60 * 60_000;

export interface QuotaHold {
  /** When the post may go. */
  until: number;
  /** Why it waits, in words. */
  reason: string;
}

/** Requests a post makes: its first post and its replies (each later post of a thread). */
export interface QuotaNeed {
  posts: number;
  replies: number;
}

const unitsOf = (need: QuotaNeed, counts: 'post' | 'reply' | undefined) =>
  counts === 'post' ? need.posts : counts === 'reply' ? need.replies : need.posts + need.replies;

/**
 * When `units` more fit in a window holding requests made at `times` (oldest first, each `weight`
 * units) plus `unknown` units of unknown time: null when they fit now or never can; else the
 * instant enough known requests have left it (at most `now + RECHECK_MS` when unknown ones count).
 */
export function windowFreesAt(
  w: { limit: number; windowMs: number; weight?: number },
  times: readonly number[],
  units: number,
  now: number,
  unknown = 0,
): number | null {
  const weight = w.weight ?? 1;
  const over = times.length * weight + unknown + units - w.limit;
  if (over <= 0 || units > w.limit) return null;
  const leave = Math.ceil(over / weight);
  const known = leave <= times.length ? times[leave - 1] + w.windowMs + 1 : Number.POSITIVE_INFINITY;
  const at = unknown > 0 ? Math.min(known, now + RECHECK_MS) : known;
  return Number.isFinite(at) ? Math.max(at, now + 1) : null;
}

export class QuotaGate {
  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    private readonly credentials: CredentialsService,
  ) {}

  /** The caps that apply to a network now (X's by the tier in settings). */
  windows(platform: Platform): QuotaWindow[] {
    return this.deps.config.postingCaps ? quotaWindows(platform, this.deps.config.x.tier) : [];
  }

  /** Null when the account may make `need`'s requests now; else until when, and why, it waits. */
  async check(accountId: string, platform: Platform, need: QuotaNeed): Promise<QuotaHold | null> {
    const now = this.deps.clock.now();
    const name = NETWORK_NAMES[platform];
    let hold: QuotaHold | null = null;
    const later = (until: number | null, label: string) => {
      if (until !== null && (!hold || until > hold.until))
        hold = { until, reason: `Held back: ${name} allows ${label}` };
    };
    for (const w of this.windows(platform)) {
      const units = unitsOf(need, w.counts) * (w.weight ?? 1);
      if (units === 0) continue;
      const since = now - w.windowMs;
      const { usage } = this.repos;
      const count =
        w.scope === 'account' ? usage.accountCount(accountId, since, w.counts) : usage.platformCount(platform, since);
      if (count * (w.weight ?? 1) + units <= w.limit) continue;
      const times =
        w.scope === 'account' ? usage.accountTimes(accountId, since, w.counts) : usage.platformTimes(platform, since);
      later(windowFreesAt(w, times, units, now), w.label);
    }
    for (const q of await this.networkCount(accountId, platform)) {
      const units = unitsOf(need, q.counts);
      if (units === 0 || q.used + units <= q.limit) continue;
      const times = this.repos.usage.accountTimes(accountId, now - q.windowMs, q.counts);
      const unknown = Math.max(0, q.used - times.length);
      const label =
        `${q.limit.toLocaleString('en-US')} ${q.counts === 'reply' ? 'replies' : 'posts'} per ` +
        `${Math.round(q.windowMs / 3_600_000)} hours (${q.used} used)`;
      later(
        windowFreesAt(
          { limit: q.limit, windowMs: q.windowMs },
          times.slice(-Math.min(times.length, q.used)),
          units,
          now,
          unknown,
        ),
        label,
      );
    }
    return hold;
  }

  /**
   * The network's own count, where its adapter reports one; nothing when it cannot say now (the post then goes, and a
   * refusal is retried).
   */
  private async networkCount(accountId: string, platform: Platform): Promise<NetworkQuota[]> {
    let adapter;
    try {
      adapter = this.deps.platforms.get(platform);
    } catch {
      return [];
    }
    if (!adapter.publishingQuota || !this.deps.config.postingCaps) return [];
    const row = this.repos.publishInputs.accountRow(accountId);
    if (!row) return [];
    try {
      return await this.credentials.withCredentials(row, (ctx) => adapter.publishingQuota!(ctx));
    } catch (err) {
      // The network unreachable, the account needing a new connection, ...: firing says so itself.
      const why = err instanceof Error ? err.message : String(err);
      this.deps.log.warn(
        `Herald could not read ${NETWORK_NAMES[platform]}'s posting quota (${why}); the post goes and a ` +
          `refusal is retried`,
      );
      return [];
    }
  }
}
