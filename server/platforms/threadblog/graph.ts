/**
 * One call to the Threads Graph API with its failures normalised (docs/decisions.md §19.4). Graph
 * errors are `{error: {message, type, code, error_subcode, is_transient, ...}}`: code 190 means
 * the token is no good (refresh, else reconnect); codes 4/17/32/613 and HTTP 429 are rate
 * limits (Threads sends no reset time); `is_transient` and 5xx are worth retrying; code 24 with
 * subcode 4279009 is the "Media Not Found" race of publishing a container too early. Anything
 * else is refused for good, with Threads' own words.
 */
import { PlatformError } from '../errors.js';
import { networkCall, type NetworkCallOptions, type NetworkRules } from '../http.js';

/** The Graph version Herald speaks; real paths are `https://graph.threads.net/v1.0/...`. */
export const GRAPH_VERSION = 'v1.0';

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
}

/** PlatformError.code for the publish-too-early race, which the adapter retries. */
export const MEDIA_NOT_FOUND = 'media_not_found';

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
/** Graph's "unknown error" and "service temporarily unavailable". */
const TRANSIENT_CODES = new Set([1, 2]);

function describe(err: GraphErrorBody, status: number): string {
  const parts = [err.error_user_title, err.error_user_msg ?? err.message].filter(
    (p): p is string => !!p && p.trim() !== '',
  );
  return parts.join(': ') || `HTTP ${status}`;
}

/** Turns a Threads answer that is not 2xx (or a 2xx carrying `error`) into a PlatformError. */
export function graphError(status: number, body: unknown, what: string): PlatformError {
  const err: GraphErrorBody =
    body && typeof body === 'object' && 'error' in body && typeof (body as { error: unknown }).error === 'object'
      ? ((body as { error: GraphErrorBody }).error ?? {})
      : { message: typeof body === 'string' ? body.trim().slice(0, 300) : undefined };
  const reason = describe(err, status);
  const opts = { status, code: err.code === undefined ? undefined : String(err.code) };
  if (err.code === 190 || (status === 401 && err.code === undefined)) {
    return new PlatformError(
      'threadblog',
      'token_expired',
      `Threads did not accept Herald's access (${reason}); the account may need to be connected again`,
      opts,
    );
  }
  if (status === 429 || (err.code !== undefined && RATE_LIMIT_CODES.has(err.code))) {
    return new PlatformError(
      'threadblog',
      'rate_limited',
      `Threads is limiting this account's requests (${reason}); Herald cannot ${what} for now`,
      opts,
    );
  }
  if (err.code === 24 && err.error_subcode === 4279009) {
    return new PlatformError(
      'threadblog',
      'transient',
      `Threads could not find the post's media yet while Herald tried to ${what} (${reason})`,
      { ...opts, code: MEDIA_NOT_FOUND },
    );
  }
  if (
    err.is_transient === true ||
    status >= 500 ||
    (err.code !== undefined && TRANSIENT_CODES.has(err.code) && err.type !== 'OAuthException')
  ) {
    return new PlatformError(
      'threadblog',
      'transient',
      `Threads had a temporary problem while Herald tried to ${what} (${reason})`,
      opts,
    );
  }
  return new PlatformError('threadblog', 'permanent', `Threads refused to ${what}: ${reason}`, opts);
}

/** `write`: a lost answer may mean Threads committed it (threads_publish). */
export type GraphCallOptions = NetworkCallOptions;

const GRAPH_RULES: NetworkRules = {
  platform: 'threadblog',
  // Graph may answer 200 with an `error` object: that is a failure too.
  failed: (status, body) =>
    status < 200 || status > 299 || (body !== null && typeof body === 'object' && 'error' in body),
  error: ({ status, body, what }) => graphError(status, body, what),
};

/** Performs one request; throws PlatformError for every failure. */
export async function graphCall<T>(url: string, init: RequestInit, opts: GraphCallOptions): Promise<T> {
  return (await networkCall<T>(GRAPH_RULES, url, init, opts)).body;
}

/** `<api>/v1.0<path>?<params>`; the token travels as the documented `access_token` parameter. */
export function graphUrl(
  apiUrl: string,
  path: string,
  params: Record<string, string | undefined>,
  opts: { versioned?: boolean } = {},
): string {
  const base = apiUrl.replace(/\/+$/, '');
  const url = new URL(`${base}${opts.versioned === false ? '' : `/${GRAPH_VERSION}`}${path}`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** A POST whose parameters go in a form body (Graph reads query and form alike). */
export function formPost(params: Record<string, string | undefined>): RequestInit {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, v);
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  };
}
