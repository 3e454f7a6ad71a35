/**
 * Whether Herald can read an account's post metrics, and if not why, for GET /accounts: X reads
 * are priced, so they wait for the setting `xMetrics`; LinkedIn's need `r_member_postAnalytics`,
 * which the token answer may not have granted (the app lacks the product, or it was set up with
 * `analyticsScope: false`). An account connected before Herald kept the granted scopes counts as
 * available: the collector finds out at its first read and says so on the post.
 */
import { LINKEDIN_ANALYTICS_SCOPE } from '../../platforms/scopes.js';
import type { TokenFacts } from './health.js';

export interface AnalyticsAvailability {
  available: boolean;
  reason?: string;
}

export function accountAnalytics(
  row: { platform: string; meta: string },
  config: { xMetrics: boolean; x: { readPriceUsd: number } },
): AnalyticsAvailability {
  if (row.platform === 'microblog' && !config.xMetrics)
    return {
      available: false,
      reason:
        `X metrics are off: X charges each read of a post's counts ($${config.x.readPriceUsd} a post, counted in ` +
        'the X spend); turn on "X metrics" in Settings to read them',
    };
  if (row.platform !== 'problog') return { available: true };
  let scopes: string[] | undefined;
  try {
    scopes = (JSON.parse(row.meta) as { token?: TokenFacts }).token?.scopes;
  } catch {
    /* no facts: unknown, so available */
  }
  if (!scopes || scopes.includes(LINKEDIN_ANALYTICS_SCOPE)) return { available: true };
  return {
    available: false,
    reason:
      `LinkedIn did not grant ${LINKEDIN_ANALYTICS_SCOPE} to this account, so Herald cannot read its post ` +
      'analytics: add the Community Management API product to the LinkedIn app, turn its analytics scope back ' +
      'on (Networks page) and connect the account again',
  };
}
