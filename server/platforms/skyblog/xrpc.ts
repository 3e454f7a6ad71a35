/**
 * One XRPC call to a Bluesky PDS, with its failures normalised (docs/decisions.md §19.2). Every
 * XRPC error body is `{error, message}`; the error name matters more than the status:
 * `ExpiredToken` and `InvalidToken` (both 400) mean the access token must be refreshed, a 429
 * waits until `RateLimit-Reset` (Unix seconds), 5xx is worth a retry, and any other 4xx is the
 * server refusing the request, with its own message.
 */
import { PlatformError } from '../errors.js';
import {
  hostOf,
  joinUrl,
  networkCall,
  resetFromEpochSeconds,
  type NetworkCallOptions,
  type NetworkRules,
} from '../http.js';

/** `write`: a call that creates a post, whose lost answer is `ambiguous`, not `transient`. */
export interface XrpcOptions extends NetworkCallOptions {
  token?: string;
  /** A list repeats the parameter (`uris=a&uris=b`). */
  params?: Record<string, string | string[] | undefined>;
  /** JSON body (POST). */
  json?: unknown;
  /** Raw body (POST), e.g. blob bytes. */
  bytes?: Uint8Array;
  contentType?: string;
  /** POST with no body (refreshSession). */
  post?: boolean;
}

export interface XrpcErrorBody {
  error?: string;
  message?: string;
}

/** Token errors the PDS answers when the access (or refresh) JWT is no longer good. */
export const TOKEN_ERRORS = new Set(['ExpiredToken', 'InvalidToken']);

/** The server's message of a normalised XRPC failure. */
export const serverMessage = (err: PlatformError) =>
  (err.opts.cause as XrpcErrorBody | undefined)?.message ?? err.message;

export function xrpcError(
  status: number,
  headers: Headers,
  body: XrpcErrorBody,
  what: string,
  host: string,
): PlatformError {
  const name = typeof body.error === 'string' ? body.error : undefined;
  const reason = (typeof body.message === 'string' && body.message) || name || `HTTP ${status}`;
  // The server's own words travel as the cause, for messages built further up.
  const opts = { status, code: name, cause: { error: name, message: reason } satisfies XrpcErrorBody };
  if (status === 429 || name === 'RateLimitExceeded') {
    const resetAt = resetFromEpochSeconds(headers.get('ratelimit-reset'));
    const when = resetAt ? ` until ${new Date(resetAt).toISOString()}` : '';
    return new PlatformError(
      'skyblog',
      'rate_limited',
      `${host} rate-limited this account (${reason}); Herald cannot ${what}${when}`,
      { ...opts, resetAt },
    );
  }
  if ((name && TOKEN_ERRORS.has(name)) || status === 401) {
    return new PlatformError(
      'skyblog',
      'token_expired',
      `${host} no longer accepts Herald's session (${reason})`,
      opts,
    );
  }
  if (status >= 500) {
    return new PlatformError(
      'skyblog',
      'transient',
      `${host} had a server problem while Herald tried to ${what} (HTTP ${status}: ${reason})`,
      opts,
    );
  }
  return new PlatformError('skyblog', 'permanent', `${host} refused to ${what}: ${reason}`, opts);
}

export const XRPC_RULES: NetworkRules = {
  platform: 'skyblog',
  notJson: (text) => ({ message: text.replace(/\s+/g, ' ').trim().slice(0, 300) }),
  error: ({ status, headers, body, what, url }) =>
    xrpcError(status, headers, (body ?? {}) as XrpcErrorBody, what, hostOf(url)),
};

export const xrpcUrl = (base: string, method: string) => joinUrl(base, `/xrpc/${method}`);

/** Performs one XRPC request; throws a PlatformError for every failure. */
export async function xrpc<T>(base: string, method: string, opts: XrpcOptions): Promise<T> {
  const url = new URL(xrpcUrl(base, method));
  for (const [k, v] of Object.entries(opts.params ?? {})) {
    if (Array.isArray(v)) for (const one of v) url.searchParams.append(k, one);
    else if (v !== undefined) url.searchParams.set(k, v);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.bytes) {
    body = new Blob([opts.bytes as Uint8Array<ArrayBuffer>]);
    headers['content-type'] = opts.contentType ?? 'application/octet-stream';
  } else if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  const method_ = body !== undefined || opts.post ? 'POST' : 'GET';
  return (await networkCall<T>(XRPC_RULES, url, { method: method_, headers, body }, opts)).body;
}
