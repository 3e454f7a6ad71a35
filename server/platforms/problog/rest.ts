/**
 * One HTTP call to LinkedIn with its failures normalised (docs/decisions.md §19.5). Errors are
 * `{status, serviceErrorCode, message}` (the OAuth endpoints use `{error, error_description}`):
 * any 401 means reconnect (after a refresh where one is possible); 429 means a daily limit,
 * which LinkedIn resets at midnight UTC and announces in no header; 5xx is transient; other 4xx
 * are refused for good. A write whose answer never came is ambiguous: LinkedIn has no
 * idempotency key.
 */
import { PlatformError } from '../errors.js';
import {
  networkCall,
  nextUtcMidnight,
  type NetworkCallOptions,
  type NetworkReply,
  type NetworkRules,
} from '../http.js';

/** LinkedIn's daily limits reset at the next midnight UTC. */
export { nextUtcMidnight };

/** The `LinkedIn-Version` Herald speaks unless configured otherwise (versions live about a year). */
export const DEFAULT_LINKEDIN_VERSION = '202610';

interface LinkedInErrorBody {
  status?: number;
  serviceErrorCode?: number;
  code?: string;
  message?: string;
  error?: string;
  error_description?: string;
}

export type LiReply<T> = NetworkReply<T>;
export type LiCallOptions = NetworkCallOptions;

function describe(body: unknown, status: number): string {
  if (typeof body === 'string') return body.trim().slice(0, 300) || `HTTP ${status}`;
  const b = (body ?? {}) as LinkedInErrorBody;
  return (b.message ?? b.error_description ?? b.error ?? '').trim() || `HTTP ${status}`;
}

/** Turns a LinkedIn answer that is not 2xx into a PlatformError. */
export function linkedinError(status: number, body: unknown, what: string, now = Date.now()): PlatformError {
  const reason = describe(body, status);
  const serviceCode =
    body && typeof body === 'object' && typeof (body as LinkedInErrorBody).serviceErrorCode === 'number'
      ? String((body as LinkedInErrorBody).serviceErrorCode)
      : undefined;
  const opts = { status, code: serviceCode };
  if (status === 401) {
    return new PlatformError(
      'problog',
      'token_expired',
      `LinkedIn did not accept Herald's access (${reason}); the account may need to be connected again`,
      opts,
    );
  }
  if (status === 429) {
    const resetAt = nextUtcMidnight(now);
    return new PlatformError(
      'problog',
      'rate_limited',
      `LinkedIn's daily limit for this account is used up; Herald cannot ${what} until ` +
        `${new Date(resetAt).toISOString()}`,
      { ...opts, resetAt },
    );
  }
  if (status >= 500) {
    return new PlatformError(
      'problog',
      'transient',
      `LinkedIn had a server problem while Herald tried to ${what} (HTTP ${status}: ${reason})`,
      opts,
    );
  }
  if (status === 426) {
    return new PlatformError(
      'problog',
      'permanent',
      `LinkedIn no longer accepts the API version Herald sent (${reason}); update Herald`,
      opts,
    );
  }
  if (status === 403) {
    return new PlatformError(
      'problog',
      'permanent',
      `LinkedIn refused to ${what} (${reason}); check that the LinkedIn app has the "Share on LinkedIn" ` +
        `product and the account granted it`,
      opts,
    );
  }
  return new PlatformError('problog', 'permanent', `LinkedIn refused to ${what}: ${reason}`, opts);
}

const LINKEDIN_RULES: NetworkRules = {
  platform: 'problog',
  error: ({ status, body, what }) => linkedinError(status, body, what),
};

/** Performs one request; throws PlatformError for every failure. */
export const liCall = <T>(url: string, init: RequestInit, opts: LiCallOptions): Promise<LiReply<T>> =>
  networkCall<T>(LINKEDIN_RULES, url, init, opts);

/** Headers every versioned `/rest/*` call carries. */
export function restHeaders(token: string, version: string, json = true): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'linkedin-version': version,
    'x-restli-protocol-version': '2.0.0',
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}
