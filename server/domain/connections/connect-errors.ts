/**
 * Issue #21's "Bad input" while connecting: a network's refusal caused by what the person gave
 * (an address that is not a Mastodon instance or does not answer, an app whose client id or secret
 * the network refuses, a cancelled consent) is a 400 INVALID_INPUT naming the cause and the next
 * step, with `details[].path` naming the field where there is one. A network that is down or
 * rate-limiting stays 502 / 429 (docs/decisions.md §1): nothing the person typed is wrong then.
 */
import type { Platform } from '../../core/config.js';
import { HeraldError } from '../../core/errors.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import { toHeraldError } from '../platform-errors.js';

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};
const reasonOf = (err: PlatformError) => err.message.replace(/[.\s]+$/, '').slice(0, 200);

/**
 * A failure asking the person's own server (a Mastodon instance) to start the flow: 400 naming the
 * address, whether it did not answer or answered as something other than Mastodon.
 */
export function serverRefusal(err: unknown, serverUrl: string, field: string): unknown {
  if (!(err instanceof PlatformError) || err.kind === 'rate_limited') return toHeraldError(err);
  const host = hostOf(serverUrl);
  const check =
    'Check the address (the part after the second @ of your Mastodon handle, e.g. mastodon.social) and connect again';
  const message =
    err.kind === 'transient' || err.kind === 'ambiguous'
      ? `${host} does not answer (${reasonOf(err)}). ${check}, or later if the instance is down.`
      : `${host} is not a Mastodon instance: it did not answer Mastodon's app registration (` +
        `${err.status ? `HTTP ${err.status}` : reasonOf(err)}). ${check}.`;
  return new HeraldError('INVALID_INPUT', message, {
    details: [{ path: field, message: err.kind === 'transient' ? 'does not answer' : 'not a Mastodon instance' }],
  });
}

/**
 * The network refused to turn the consent into tokens: Herald's app there (its client id or
 * secret, or the redirect URI registered for it) is not what the network has. Nothing was saved.
 */
export function exchangeRefusal(err: unknown, platform: Platform, redirectUri: string, fromEnv: boolean): unknown {
  if (
    !(err instanceof PlatformError) ||
    err.kind === 'rate_limited' ||
    err.kind === 'transient' ||
    err.kind === 'ambiguous'
  )
    return toHeraldError(err);
  const net = NETWORK_NAMES[platform];
  if (platform === 'fedblog') {
    return new HeraldError(
      'INVALID_INPUT',
      `${net} refused to finish the sign-in (${reasonOf(err)}): nothing was connected. Connect again; if it ` +
        `keeps failing, the instance may have dropped Herald's registration.`,
    );
  }
  const where = fromEnv
    ? `the environment variables HERALD_${platform.toUpperCase()}_CLIENT_ID and _CLIENT_SECRET (they win over ` +
      `the Networks page)`
    : `the Networks page → ${net} (or \`herald network set ${platform}\`)`;
  return new HeraldError(
    'INVALID_INPUT',
    `${net} refused Herald's app when finishing the sign-in: nothing was connected. Check the app's client ` +
      `id and secret, and that ${net}'s developer portal lists the redirect URI ${redirectUri}, in ${where}; ` +
      `use Test, then connect again.`,
  );
}

/**
 * Bluesky refused the app password sign-in: a handle that does not resolve, a wrong or main
 * password (the adapter's message names which and what to do), or the person's own server not
 * answering. 400 naming the field; the default server (bsky.social) being down stays a 502.
 */
export function blueskyRefusal(err: unknown, ownService: boolean): unknown {
  if (!(err instanceof PlatformError) || err.kind === 'rate_limited') return toHeraldError(err);
  if (err.kind === 'permanent' || err.kind === 'token_expired') {
    return new HeraldError('INVALID_INPUT', `${reasonOf(err)}. Nothing was connected.`, {
      details: [{ path: 'appPassword', message: 'refused by the server' }],
    });
  }
  if (!ownService) return toHeraldError(err);
  return new HeraldError(
    'INVALID_INPUT',
    `The Bluesky server does not answer (${reasonOf(err)}). Check its address, or leave it empty for ` +
      `bsky.social, and connect again.`,
    { details: [{ path: 'service', message: 'does not answer' }] },
  );
}

/**
 * LinkedIn refuses the whole sign-in when the app may not ask for a scope: the analytics one needs
 * a product many apps lack. The answer names the scope and offers connecting without analytics:
 * `details[].path` `analyticsScope` is what a client looks for to offer it (PUT /networks/problog
 * `{analyticsScope: false}`, then connect again).
 */
export function analyticsScopeRefused(description?: string): HeraldError {
  const why = description ? ` (${description.slice(0, 200)})` : '';
  return new HeraldError(
    'INVALID_INPUT',
    `LinkedIn refused the analytics permission r_member_postAnalytics${why}: the LinkedIn app lacks the ` +
      'Community Management API product, so nothing was connected. Connect without analytics (Herald then ' +
      "publishes to LinkedIn but cannot read its posts' numbers; `herald network analytics off`, or PUT " +
      '/networks/problog {analyticsScope: false}, then connect again), or add the product to the app.',
    { details: [{ path: 'analyticsScope', message: 'LinkedIn refused r_member_postAnalytics for this app' }] },
  );
}
