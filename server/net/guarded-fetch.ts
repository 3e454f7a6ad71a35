/**
 * The one way Herald fetches a URL a user gave it (media URLs, link cards, connection URLs):
 * server/net/ holds the network guard every service uses, outside any one service. Against SSRF:
 * - only http and https, no credentials in the URL;
 * - the host is resolved once (with an injectable resolver) and every answer must be a public
 *   address (address-policy.ts); IP literals are checked as they are, after WHATWG URL parsing
 *   has normalised decimal, octal, hex and short IPv4 forms;
 * - the connection goes to the checked address only: the request's `lookup` returns that address,
 *   so a second DNS answer (rebinding) is never used;
 * - every redirect is checked the same way, at most 3 of them;
 * - 10 s for the whole fetch, body included; the body's size is capped by whoever consumes it.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { HeraldError } from '../core/errors.js';
import { blockedReason, ipLiteral, isLoopbackOrPrivate } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** What one fetch asks for: its Accept header, and the Content-Length refused outright. */
export interface FetchOptions {
  /** Default: images and videos (media URLs). */
  accept?: string;
  /**
   * A declared length over this is refused before the body is read (the media service passes its cap); default none.
   */
  maxLength?: number;
  /** Says what the URL was for in messages; default "a media URL". */
  what?: string;
}

export interface GuardOptions {
  /** DNS resolution; default: the system resolver (dns.lookup, all answers). */
  resolve?: Resolver;
  /**
   * Exact `address:port` pairs exempt from the address checks. Empty unless a caller passes it;
   * tests name their loopback servers here. Never read from the environment.
   */
  allow?: ReadonlySet<string>;
  timeoutMs?: number;
  maxRedirects?: number;
  /** HERALD_ALLOW_PRIVATE_ADDRESSES: loopback and private ranges pass (address-policy.ts). */
  allowPrivate?: boolean;
}

/** A URL refused by the guard: 400 INVALID_INPUT with the reason. */
export class UrlRefused extends HeraldError {
  /**
   * `policy`: the address policy refused it (scheme, credentials, a non-public address, also
   * after a redirect); `unreadable`: the name does not resolve or the redirects do not end.
   */
  constructor(
    url: string,
    reason: string,
    readonly kind: 'policy' | 'unreadable' = 'policy',
  ) {
    super('INVALID_INPUT', `Herald will not fetch ${safeForMessage(url)}: ${reason}`);
  }
}

function safeForMessage(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'this URL';
  }
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

interface Target {
  url: URL;
  address: ResolvedAddress;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class GuardedFetcher {
  private readonly resolve: Resolver;
  private readonly allow: ReadonlySet<string>;
  private readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly maxRedirects: number;

  constructor(opts: GuardOptions = {}) {
    this.resolve = opts.resolve ?? systemResolver;
    this.allow = opts.allow ?? new Set();
    this.allowPrivate = opts.allowPrivate ?? false;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.maxRedirects = opts.maxRedirects ?? 3;
  }

  /** Parses and checks one URL; answers the address to connect to. */
  async check(raw: string | URL): Promise<Target> {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new UrlRefused('', 'it is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UrlRefused(url.href, 'only http and https URLs are fetched');
    if (url.username || url.password) throw new UrlRefused(url.href, 'URLs with credentials are not fetched');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const literal = ipLiteral(url.hostname);
    let answers: ResolvedAddress[];
    if (literal) {
      answers = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
    } else {
      try {
        answers = await this.resolve(url.hostname);
      } catch {
        throw new UrlRefused(url.href, 'its host name does not resolve', 'unreadable');
      }
    }
    if (answers.length === 0) throw new UrlRefused(url.href, 'its host name does not resolve', 'unreadable');
    for (const a of answers) {
      if (this.allow.has(`${a.address}:${port}`)) continue;
      if (this.allowPrivate && isLoopbackOrPrivate(a.address)) continue;
      const why = blockedReason(a.address);
      if (why)
        throw new UrlRefused(url.href, `it points to a ${why} address, and Herald fetches only public addresses`);
    }
    return { url, address: answers[0] };
  }

  /**
   * Fetches `raw` and hands the body of the final 2xx answer (and its URL, after redirects) to
   * `consume`, whose result is returned. The timeout covers consuming the body too.
   */
  async fetch<T>(
    raw: string,
    consume: (body: http.IncomingMessage, url: URL) => Promise<T>,
    opts: FetchOptions = {},
  ): Promise<T> {
    const maxLength = opts.maxLength ?? Number.POSITIVE_INFINITY;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    const timedOut = () =>
      new HeraldError('INVALID_INPUT', `Fetching ${safeForMessage(raw)} took longer than ${this.timeoutMs / 1000} s`);
    try {
      let current: string | URL = raw;
      for (let hop = 0; ; hop++) {
        const target: Target = await abortable(this.check(current), controller.signal);
        const res = await this.request(target, controller.signal, opts.accept ?? 'image/*, video/*');
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location) {
          res.destroy();
          if (hop >= this.maxRedirects)
            throw new UrlRefused(target.url.href, `more than ${this.maxRedirects} redirects`, 'unreadable');
          current = new URL(res.headers.location, target.url);
          continue;
        }
        if (status < 200 || status > 299) {
          res.destroy();
          throw new HeraldError(
            'INVALID_INPUT',
            `${safeForMessage(target.url.href)} answered HTTP ${status} for ${opts.what ?? 'a media URL'}`,
          );
        }
        const length = Number(res.headers['content-length']);
        if (Number.isFinite(length) && length > maxLength) {
          res.destroy();
          throw new HeraldError(
            'INVALID_INPUT',
            `The media at ${safeForMessage(target.url.href)} is over the ${maxLength / 1024 / 1024} MB limit`,
            { status: 413 },
          );
        }
        try {
          return await consume(res, target.url);
        } finally {
          res.destroy();
        }
      }
    } catch (err) {
      if (controller.signal.aborted && !(err instanceof HeraldError)) throw timedOut();
      if (!(err instanceof HeraldError))
        throw new HeraldError('INVALID_INPUT', `Could not fetch ${safeForMessage(raw)}: the download failed`, {
          cause: err,
        });
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private request(target: Target, signal: AbortSignal, accept: string): Promise<http.IncomingMessage> {
    const { address, family } = target.address;
    // Whatever name the client library asks about, the answer is the address already checked.
    const lookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
      if (opts?.all) cb(null, [{ address, family }]);
      else cb(null, address, family);
    }) as unknown as LookupFunction;
    const mod = target.url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(target.url, {
        method: 'GET',
        agent: false,
        signal,
        lookup,
        headers: { 'user-agent': 'Herald media fetch', accept },
      });
      req.on('response', resolve);
      req.on('error', (err) =>
        reject(
          signal.aborted
            ? err
            : new HeraldError('INVALID_INPUT', `Could not fetch ${safeForMessage(target.url.href)}: ${err.message}`),
        ),
      );
      req.end();
    });
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
