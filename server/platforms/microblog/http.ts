/**
 * One HTTP call to X, with X's failures normalised (docs/decisions.md §19.1): 401 means the
 * access token is no good (refresh), 429 carries the reset from `x-rate-limit-reset` or, when a
 * 24-hour allowance is spent, from its own reset header; 5xx is transient; a write whose answer
 * never came is ambiguous (X has no idempotency key). Both error shapes X uses, RFC 7807
 * problems and `{errors: [...]}`, become one sentence a person can act on.
 */
import { PlatformError } from '../errors.js';
import {
  networkCall,
  resetFromEpochSeconds,
  type NetworkCallOptions,
  type NetworkReply,
  type NetworkRules,
} from '../http.js';

export const X = 'X';

export type XReply<T> = NetworkReply<T>;
export type XCallOptions = NetworkCallOptions;

interface XProblem {
  title?: string;
  detail?: string;
  type?: string;
  status?: number;
  error?: string;
  error_description?: string;
  errors?: { message?: string; title?: string; detail?: string; code?: number; parameters?: Record<string, unknown> }[];
}

/** The most useful human text in an X error body, whatever its shape. */
export function describeXError(body: unknown, status: number): string {
  if (typeof body === 'string') return body.trim().slice(0, 300) || `HTTP ${status}`;
  const p = (body ?? {}) as XProblem;
  const fromList = (Array.isArray(p.errors) ? p.errors : [])
    .map((e) => {
      const text = e.message ?? e.detail ?? e.title ?? '';
      const params = e.parameters && typeof e.parameters === 'object' ? Object.keys(e.parameters) : [];
      return params.length && text && !params.some((k) => text.includes(k)) ? `${text} (${params.join(', ')})` : text;
    })
    .filter(Boolean);
  const generic = /one or more parameters to your request was invalid/i;
  const parts: string[] = [];
  if (p.detail && !(fromList.length && generic.test(p.detail))) parts.push(p.detail);
  for (const m of fromList) if (!parts.includes(m)) parts.push(m);
  if (!parts.length && p.error_description) parts.push(p.error_description);
  if (!parts.length && p.title) parts.push(p.title);
  if (!parts.length && p.error) parts.push(p.error);
  return parts.join('; ') || `HTTP ${status}`;
}

/** When a 429 lifts: a spent 24-hour allowance wins over the 15-minute window. */
export function rateLimitReset(headers: Headers): number | undefined {
  for (const scope of ['user', 'app']) {
    if (headers.get(`x-${scope}-limit-24hour-remaining`)?.trim() === '0') {
      const at = resetFromEpochSeconds(headers.get(`x-${scope}-limit-24hour-reset`));
      if (at) return at;
    }
  }
  return resetFromEpochSeconds(headers.get('x-rate-limit-reset'));
}

/** Turns an X answer that is not 2xx into a PlatformError. */
export function xError(status: number, headers: Headers, body: unknown, what: string): PlatformError {
  const reason = describeXError(body, status);
  const problemType =
    body && typeof body === 'object' && typeof (body as XProblem).type === 'string' ? (body as XProblem).type! : '';
  if (status === 401) {
    return new PlatformError(
      'microblog',
      'token_expired',
      `X did not accept Herald's access (${reason}); the account may need to be connected again`,
      { status },
    );
  }
  if (status === 429 || /rate-limit-exceeded/.test(problemType)) {
    const resetAt = rateLimitReset(headers);
    const when = resetAt ? ` until ${new Date(resetAt).toISOString()}` : '';
    return new PlatformError(
      'microblog',
      'rate_limited',
      `X's rate limit for this account is used up; Herald cannot ${what}${when}`,
      { status, resetAt },
    );
  }
  if (status >= 500) {
    return new PlatformError(
      'microblog',
      'transient',
      `X had a server problem while Herald tried to ${what} (HTTP ${status}: ${reason})`,
      { status },
    );
  }
  if (status === 403 && /duplicate content/i.test(reason)) {
    return new PlatformError(
      'microblog',
      'permanent',
      'X refused the post because this account already published the same text; change the wording to post it again',
      { status, code: 'duplicate' },
    );
  }
  if (/usage-capped/.test(problemType) || /usage.?cap/i.test(reason)) {
    return new PlatformError(
      'microblog',
      'permanent',
      `X refused to ${what}: the X developer app has used up its monthly allowance (${reason}); raise the ` +
        `plan or wait for the next cycle`,
      { status, code: 'usage-capped' },
    );
  }
  if (status === 403) {
    return new PlatformError(
      'microblog',
      'permanent',
      `X refused to ${what} (${reason}); check the account's permissions, the text length and the media`,
      { status },
    );
  }
  return new PlatformError('microblog', 'permanent', `X refused to ${what}: ${reason}`, { status });
}

const X_RULES: NetworkRules = {
  platform: 'microblog',
  error: ({ status, headers, body, what }) => xError(status, headers, body, what),
};

/** Performs one request; throws PlatformError for every failure. */
export const xCall = <T>(url: string, init: RequestInit, opts: XCallOptions): Promise<XReply<T>> =>
  networkCall<T>(X_RULES, url, init, opts);
