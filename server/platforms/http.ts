/**
 * The one HTTP call every adapter makes to its network. The plumbing is the same for all five
 * (a time limit joined with the caller's signal, the answer read as text, JSON when it parses,
 * a lost answer classified by `networkFailure`); what differs is each network's reading of a
 * failed answer (docs/decisions.md §19), which the adapter passes in as
 * `NetworkRules`. The rate-limit reset parsers for the three header styles the networks use
 * live here too.
 */
import type { Platform } from '../core/config.js';
import { networkFailure, type PlatformError } from './errors.js';

export interface NetworkReply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface NetworkCallOptions {
  /** What the call does, for messages ("publish the post"). */
  what: string;
  /** A write whose lost answer means the network may have committed it (`ambiguous`). */
  write?: boolean;
  signal?: AbortSignal;
  /** Herald's own time limit for the whole exchange (default 60 s). */
  timeoutMs?: number;
}

/** How one network reads its answers. */
export interface NetworkRules {
  platform: Platform;
  /** The network's classification of an answer that failed. */
  error(failure: { status: number; headers: Headers; body: unknown; what: string; url: string }): PlatformError;
  /** Whether an answer failed (default: its status is not 2xx). */
  failed?(status: number, body: unknown): boolean;
  /** The body of an answer that is not JSON (default: the text itself). */
  notJson?(text: string): unknown;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** Performs one request; throws a PlatformError for every failure. */
export async function networkCall<T>(
  rules: NetworkRules,
  url: string | URL,
  init: RequestInit,
  opts: NetworkCallOptions,
): Promise<NetworkReply<T>> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, signal });
    text = await res.text();
  } catch (err) {
    throw networkFailure(rules.platform, err, { write: opts.write ?? false });
  }
  const body = parseBody(text, rules.notJson);
  const failed = rules.failed ? rules.failed(res.status, body) : res.status < 200 || res.status > 299;
  if (failed) throw rules.error({ status: res.status, headers: res.headers, body, what: opts.what, url: String(url) });
  return { status: res.status, headers: res.headers, body: body as T };
}

function parseBody(text: string, notJson: (text: string) => unknown = (t) => t): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return notJson(text);
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Joins a configured base URL and an API path. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** The host of a server URL, for messages (the URL itself when it does not parse). */
export const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** Waits `ms`, or rejects when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Epoch ms from a reset header in Unix seconds (X's `x-rate-limit-reset`, Bluesky's `RateLimit-Reset`). */
export function resetFromEpochSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value.trim());
  return /^\d+(\.\d+)?$/.test(value.trim()) && seconds > 0 ? seconds * 1000 : undefined;
}

/** Epoch ms from an ISO 8601 reset header (Mastodon's), possibly with more than millisecond precision. */
export function resetFromIsoDate(value: string | null): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim().replace(/(\.\d{3})\d+/, '$1');
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? at : undefined;
}

/** The next midnight UTC, when limits announced in no header (LinkedIn's daily ones) reset. */
export function nextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/**
 * `base` with `params` appended, spaces as %20 (as X and LinkedIn document their scope lists), not the form-style '+'.
 */
export function withQuery(base: string, params: [string, string][]): string {
  const url = new URL(base);
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  url.search = url.search ? `${url.search.slice(1)}&${query}` : query;
  return url.toString();
}
