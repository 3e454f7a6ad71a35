/**
 * One HTTP call to a Mastodon instance, with its failures normalised (docs/decisions.md §19.3):
 * errors are `{error, error_description?}` and the status code is what counts; 401 means the
 * token was revoked (Mastodon tokens never expire, so there is nothing to refresh); 429 waits
 * until `X-RateLimit-Reset`, an ISO 8601 timestamp (with microseconds), not epoch seconds.
 */
import { PlatformError } from '../errors.js';
import {
  hostOf,
  networkCall,
  resetFromIsoDate,
  type NetworkCallOptions,
  type NetworkReply,
  type NetworkRules,
} from '../http.js';

export type MastoReply<T> = NetworkReply<T>;

export interface MastoCallOptions extends NetworkCallOptions {
  /** Statuses other than 2xx the caller handles itself (the media poll's 206 is 2xx anyway). */
  accept?: number[];
}

/** Mastodon's reset header: ISO 8601, possibly with more than millisecond precision. */
export const parseIsoReset = resetFromIsoDate;

export function describeMastoError(body: unknown, status: number): string {
  if (typeof body === 'string')
    return (
      body
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 300) || `HTTP ${status}`
    );
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown };
  const parts = [b.error_description, b.error].filter((x): x is string => typeof x === 'string' && x.length > 0);
  return parts[0] ?? `HTTP ${status}`;
}

/** Media that is still being processed cannot be attached yet; this is worth a retry. */
export const isStillProcessing = (err: unknown) => err instanceof PlatformError && err.opts.code === 'media_processing';

export function mastoError(status: number, headers: Headers, body: unknown, what: string, host: string): PlatformError {
  const reason = describeMastoError(body, status);
  if (status === 401) {
    return new PlatformError(
      'fedblog',
      'token_expired',
      `${host} no longer accepts Herald's access (${reason}); connect the Mastodon account again`,
      { status },
    );
  }
  if (status === 429) {
    const resetAt = parseIsoReset(headers.get('x-ratelimit-reset'));
    const when = resetAt ? ` until ${new Date(resetAt).toISOString()}` : '';
    return new PlatformError(
      'fedblog',
      'rate_limited',
      `${host} rate-limited this account; Herald cannot ${what}${when}`,
      { status, resetAt },
    );
  }
  if (status >= 500) {
    return new PlatformError(
      'fedblog',
      'transient',
      `${host} had a server problem while Herald tried to ${what} (HTTP ${status}: ${reason})`,
      { status },
    );
  }
  if (status === 422 && /not finished processing/i.test(reason)) {
    return new PlatformError('fedblog', 'transient', `${host} has not finished processing the media (${reason})`, {
      status,
      code: 'media_processing',
    });
  }
  if (status === 403) {
    return new PlatformError(
      'fedblog',
      'permanent',
      `${host} refused to ${what} (${reason}); connect the account again to grant Herald the permissions it needs`,
      { status },
    );
  }
  if (status === 404) {
    return new PlatformError(
      'fedblog',
      'permanent',
      `${host} could not ${what}: ${reason} (the post or account may have been deleted)`,
      { status },
    );
  }
  return new PlatformError('fedblog', 'permanent', `${host} refused to ${what}: ${reason}`, { status });
}

/** Performs one request; throws PlatformError for every failure. */
export function mastoCall<T>(url: string, init: RequestInit, opts: MastoCallOptions): Promise<MastoReply<T>> {
  const rules: NetworkRules = {
    platform: 'fedblog',
    failed: (status) => (status < 200 || status > 299) && !opts.accept?.includes(status),
    error: ({ status, headers, body, what }) => mastoError(status, headers, body, what, hostOf(url)),
  };
  return networkCall<T>(rules, url, init, opts);
}
