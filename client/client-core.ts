/**
 * The core of the typed Herald client: options, `HeraldError`, the API key header and the one
 * `request` every method goes through (retries of 429s, Idempotency-Key). No Node-only imports:
 * the UI, the CLI, tests and users' scripts all use it.
 */
import type { z } from 'zod';
import type { messageResponse } from '../server/contracts/common.js';
import type * as networks from '../server/contracts/networks.js';

/** A contract's input: what a caller sends (defaults still optional). */
export type In<T extends z.ZodType> = z.input<T>;
/** A contract's output: what the API answers. */
export type Out<T extends z.ZodType> = z.output<T>;
/** The answer of routes that only say what they did. */
export type Message = Out<typeof messageResponse>;
/** A query string's fields, as the route reads them once parsed (all optional on the wire). */
export type QueryOf<T extends z.ZodType> = Partial<z.output<T>>;

/** The networks connected by OAuth (a browser round trip ending at GET /<network>/callback). */
export type OAuthNetwork = 'microblog' | 'fedblog' | 'threadblog' | 'problog';
/** A network whose app (client id and secret) is set in Settings → Networks. */
export type NetworkAppPlatform = In<typeof networks.appPlatform>;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4780/api/v1';

/** An error answered by the API (or a failure to reach it, with code NETWORK_ERROR). */
export class HeraldError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: { path: string; message: string }[],
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'HeraldError';
  }
}

/** How a HeraldClient reaches the API and retries. */
export interface ClientOptions {
  /** Base URL including /api/v1. Default: HERALD_BASE_URL, else http://127.0.0.1:4780/api/v1. */
  baseUrl?: string;
  /** API key. Default: HERALD_API_KEY. */
  apiKey?: string;
  /** Retry a 429 after its Retry-After, up to this many times (`true`: 3; default: no retry). */
  retryRateLimited?: number | boolean;
  /** Longest Retry-After honoured, seconds (default 60). */
  maxRetryAfter?: number;
  fetch?: typeof fetch;
  /** Extra headers on every request (e.g. a User-Agent). */
  headers?: Record<string, string>;
}

function env(name: string): string | undefined {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return g.process?.env?.[name];
}

/** A query string as sent: undefined fields are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/**
 * Options of one call that creates or publishes (the routes whose RouteDef says `idempotent: true`).
 * `idempotencyKey` (1-255 visible ASCII) is sent as `Idempotency-Key`: per user, for 24 hours, the
 * same call with the same key gets the first answer again instead of running twice, also across
 * a restart of Herald. Without one, the client makes one up whenever it may send the request more
 * than once (`retryRateLimited`), so a retried write is never applied twice.
 */
export interface WriteOptions {
  idempotencyKey?: string;
}

/** A fresh Idempotency-Key (Web Crypto: browsers and Node alike). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function isHttpUrl(s: string): boolean {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
}

/** Retry-After in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * Transport and auth shared by every area of methods; HeraldClient (herald-client.ts) is this plus
 * the areas.
 */
export class ClientCore {
  readonly baseUrl: string;
  apiKey: string | undefined;
  protected readonly opts: ClientOptions;
  protected readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions = {}) {
    this.opts = opts;
    this.baseUrl = (opts.baseUrl ?? env('HERALD_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (!isHttpUrl(this.baseUrl)) {
      throw new HeraldError(
        'INVALID_INPUT',
        0,
        `The base URL "${this.baseUrl}" is not an http(s) URL (like ${DEFAULT_BASE_URL})`,
      );
    }
    this.apiKey = opts.apiKey ?? env('HERALD_API_KEY');
    this.fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Low-level call; every method of every area goes through it. */
  async request<T>(
    method: string,
    path: string,
    init: {
      body?: unknown;
      query?: Query;
      auth?: boolean;
      form?: FormData;
      raw?: boolean;
      idempotent?: WriteOptions;
      text?: { type: string; data: string };
      asText?: boolean;
    } = {},
  ): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...this.opts.headers };
    if (init.auth !== false) {
      if (!this.apiKey)
        throw new HeraldError(
          'INVALID_API_KEY',
          401,
          'No API key: pass apiKey, set HERALD_API_KEY, or run `herald login`',
        );
      headers['svc-key'] = this.apiKey;
    }
    let body: BodyInit | undefined;
    if (init.form) body = init.form;
    else if (init.text) {
      body = init.text.data;
      headers['content-type'] = `${init.text.type}; charset=utf-8`;
    } else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const retry = this.opts.retryRateLimited;
    const retries = retry === true ? 3 : typeof retry === 'number' ? retry : 0;
    // One key for every attempt: a resend is then the same request, answered once.
    const idempotencyKey =
      init.idempotent?.idempotencyKey ?? (init.idempotent && retries > 0 ? newIdempotencyKey() : undefined);
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method, headers, body });
      } catch (err) {
        const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
        throw new HeraldError(
          'NETWORK_ERROR',
          0,
          `Herald is not reachable at ${this.baseUrl} (${cause}); is it running?`,
        );
      }
      if (res.ok && init.raw) return (await res.blob()) as T;
      if (res.ok && init.asText) return (await res.text()) as T;
      const text = await res.text();
      let data: any;
      try {
        data = text ? JSON.parse(text) : {};
      } catch {
        data = undefined;
      }
      if (res.ok) return (data ?? text) as T;
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (
        res.status === 429 &&
        attempt < retries &&
        retryAfter !== undefined &&
        retryAfter <= (this.opts.maxRetryAfter ?? 60)
      ) {
        await new Promise((r) => setTimeout(r, retryAfter * 1000));
        continue;
      }
      throw new HeraldError(
        data?.error ?? 'HTTP_ERROR',
        res.status,
        data?.message ?? `HTTP ${res.status}`,
        data?.details,
        retryAfter,
      );
    }
  }
}
