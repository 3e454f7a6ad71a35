/**
 * Every network's posting caps, as data (docs/decisions.md §19). The quota gate
 * (domain/publishing/quota-gate.ts) counts the requests Herald made in each rolling window and
 * holds a scheduled post back when it would go over; a network that publishes its own count
 * (Threads' `threads_publishing_limit`, the adapter's optional `publishingQuota`) is asked too,
 * since posts made outside Herald count against the same cap.
 *
 * A window counts requests: each post of a thread is one request (`weight` of them where the
 * network charges more than one unit per write). `scope: 'account'` counts one account's,
 * `scope: 'network'` every account of this install on that network (X's per-app cap).
 */
import type { Platform } from '../core/config.js';

export interface QuotaWindow {
  /** Units allowed in the window. */
  limit: number;
  windowMs: number;
  scope: 'account' | 'network';
  /** Which requests count: every one, or only first posts / only replies (Threads counts them apart). */
  counts?: 'post' | 'reply';
  /** Units one request costs (Bluesky: a createRecord is 3 points). */
  weight?: number;
  /** In words, for the wait's reason. */
  label: string;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * X's tiers. Pay-per-use (2026, the default): `POST /2/tweets` 100 per 15 min per user and 10,000
 * per 24 h per app. The older subscription tiers, for apps still on one: Free 17 per 24 h per user
 * (and per app), Basic 100 per 24 h per user and 1,667 per 24 h per app, Pro as pay-per-use.
 */
export const X_TIERS = ['pay_per_use', 'free', 'basic', 'pro'] as const;
export type XTier = (typeof X_TIERS)[number];

const X_WINDOWS: Record<XTier, QuotaWindow[]> = {
  pay_per_use: [
    { limit: 100, windowMs: 15 * MIN, scope: 'account', label: '100 posts per 15 minutes per account' },
    { limit: 10_000, windowMs: DAY, scope: 'network', label: '10,000 posts per 24 hours per app' },
  ],
  free: [
    { limit: 17, windowMs: DAY, scope: 'account', label: '17 posts per 24 hours (Free tier)' },
    { limit: 17, windowMs: DAY, scope: 'network', label: '17 posts per 24 hours per app (Free tier)' },
  ],
  basic: [
    { limit: 100, windowMs: DAY, scope: 'account', label: '100 posts per 24 hours per account (Basic tier)' },
    { limit: 1_667, windowMs: DAY, scope: 'network', label: '1,667 posts per 24 hours per app (Basic tier)' },
  ],
  pro: [
    { limit: 100, windowMs: 15 * MIN, scope: 'account', label: '100 posts per 15 minutes per account (Pro tier)' },
    { limit: 10_000, windowMs: DAY, scope: 'network', label: '10,000 posts per 24 hours per app (Pro tier)' },
  ],
};

/**
 * The posting caps of one network (X's by tier). LinkedIn publishes none (daily, unpublished): a 429 is retried
 * instead.
 */
export function quotaWindows(platform: Platform, xTier: XTier = 'pay_per_use'): QuotaWindow[] {
  switch (platform) {
    case 'microblog':
      return X_WINDOWS[xTier];
    case 'threadblog':
      return [
        { limit: 250, windowMs: DAY, scope: 'account', counts: 'post', label: '250 posts per 24 hours' },
        { limit: 1_000, windowMs: DAY, scope: 'account', counts: 'reply', label: '1,000 replies per 24 hours' },
      ];
    // Repo writes: 5,000 points an hour and 35,000 a day per account, a created record costs 3.
    case 'skyblog':
      return [
        { limit: 5_000, windowMs: HOUR, scope: 'account', weight: 3, label: '5,000 write points per hour (3 a post)' },
        { limit: 35_000, windowMs: DAY, scope: 'account', weight: 3, label: '35,000 write points per day (3 a post)' },
      ];
    // Mastodon's default (instances may change it): 300 statuses per 3 hours per account.
    case 'fedblog':
      return [{ limit: 300, windowMs: 3 * HOUR, scope: 'account', label: '300 posts per 3 hours' }];
    default:
      return [];
  }
}

/**
 * What a network says of its own count (Threads' quota endpoint): units used in the window, its
 * limit and length, for first posts and for replies.
 */
export interface NetworkQuota {
  counts: 'post' | 'reply';
  used: number;
  limit: number;
  windowMs: number;
}
