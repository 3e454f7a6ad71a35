/**
 * One HTTP call to a Mastodon instance, with its failures normalised (platforms.md §3.5, §3.6):
 * errors are `{error, error_description?}` and the status code is what counts; 401 means the
 * token was revoked (Mastodon tokens never expire, so there is nothing to refresh); 429 waits
 * until `X-RateLimit-Reset`, an ISO 8601 timestamp (with microseconds), not epoch seconds.
 */
import { networkFailure, PlatformError } from '../errors.js';

export interface MastoReply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface MastoCallOptions {
  /** What the call does, for messages ("publish the post"). */
  what: string;
  write?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Statuses other than 2xx the caller handles itself (the media poll's 206 is 2xx anyway). */
  accept?: number[];
}

/** Parses Mastodon's reset header: ISO 8601, possibly with more than millisecond precision. */
export function parseIsoReset(value: string | null): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim().replace(/(\.\d{3})\d+/, '$1');
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? at : undefined;
}

export function describeMastoError(body: unknown, status: number): string {
  if (typeof body === 'string') return body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300) || `HTTP ${status}`;
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown };
  const parts = [b.error_description, b.error].filter((x): x is string => typeof x === 'string' && x.length > 0);
  return parts[0] ?? `HTTP ${status}`;
}

/** Media that is still being processed cannot be attached yet; this is worth a retry. */
export const isStillProcessing = (err: unknown) => err instanceof PlatformError && err.opts.code === 'media_processing';

export function mastoError(status: number, headers: Headers, body: unknown, what: string, host: string): PlatformError {
  const reason = describeMastoError(body, status);
  if (status === 401) {
    return new PlatformError('fedblog', 'token_expired', `${host} no longer accepts Herald's access (${reason}); connect the Mastodon account again`, { status });
  }
  if (status === 429) {
    const resetAt = parseIsoReset(headers.get('x-ratelimit-reset'));
    const when = resetAt ? ` until ${new Date(resetAt).toISOString()}` : '';
    return new PlatformError('fedblog', 'rate_limited', `${host} rate-limited this account; Herald cannot ${what}${when}`, { status, resetAt });
  }
  if (status >= 500) {
    return new PlatformError('fedblog', 'transient', `${host} had a server problem while Herald tried to ${what} (HTTP ${status}: ${reason})`, { status });
  }
  if (status === 422 && /not finished processing/i.test(reason)) {
    return new PlatformError('fedblog', 'transient', `${host} has not finished processing the media (${reason})`, { status, code: 'media_processing' });
  }
  if (status === 403) {
    return new PlatformError('fedblog', 'permanent', `${host} refused to ${what} (${reason}); connect the account again to grant Herald the permissions it needs`, { status });
  }
  if (status === 404) {
    return new PlatformError('fedblog', 'permanent', `${host} could not ${what}: ${reason} (the post or account may have been deleted)`, { status });
  }
  return new PlatformError('fedblog', 'permanent', `${host} refused to ${what}: ${reason}`, { status });
}

function parseBody(text: string): unknown {
  if (!text) return {};
  try { return JSON.parse(text); } catch { return text; }
}

export const hostOf = (serverUrl: string) => {
  try { return new URL(serverUrl).host; } catch { return serverUrl; }
};

/** Performs one request; throws PlatformError for every failure. */
export async function mastoCall<T>(url: string, init: RequestInit, opts: MastoCallOptions): Promise<MastoReply<T>> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 60_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, signal });
    text = await res.text();
  } catch (err) {
    throw networkFailure('fedblog', err, { write: opts.write ?? false });
  }
  const body = parseBody(text);
  if ((res.status < 200 || res.status > 299) && !opts.accept?.includes(res.status)) {
    throw mastoError(res.status, res.headers, body, opts.what, hostOf(url));
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
