/**
 * Link cards built by Herald (docs/decisions.md §16 "Composer"): the page a post links to is fetched
 * through the one guarded fetcher (address policy after DNS and on every redirect), with a
 * short time cap and only its head read (at most PAGE_MAX_BYTES), and its Open Graph /
 * Twitter-card / <title> facts make the card. Answers are kept in a small LRU with a TTL, so the
 * composer asking again while someone types, and the publish after it, fetch the page once.
 *
 * A page that cannot be read (an error status, not HTML, too slow, nothing in its head) gives no
 * card: null, never an error. Only the address policy's refusal is an error (400 INVALID_INPUT,
 * the same for every user-supplied URL).
 */
import type http from 'node:http';
import type { Deps } from '../deps.js';
import { HeraldError, notFound } from '../../core/errors.js';
import { GuardedFetcher, UrlRefused } from '../../net/guarded-fetch.js';
import { sniffType } from '../media/media-types.js';
import { CardParser, type LinkCard } from './card-parse.js';

export type { LinkCard } from './card-parse.js';

/** A card as an adapter gets it: the page's facts and, when it has one, the thumbnail's bytes. */
export interface CardWithThumb {
  url: string;
  title: string;
  description: string;
  thumb?: { bytes: Buffer; mime: string };
}

/** Only the head is wanted; a page's head fits well within this. */
export const PAGE_MAX_BYTES = 1024 * 1024;
/** A thumbnail bigger than this is not fetched (networks want well under 1 MB after shrinking). */
export const THUMB_MAX_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 5_000;
const CACHE_ENTRIES = 500;
const THUMB_CACHE_ENTRIES = 50;
const THUMB_CACHE_MAX_BYTES = 2 * 1024 * 1024;
const CARD_TTL_MS = 60 * 60_000;
const NONE_TTL_MS = 10 * 60_000;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

function charsetOf(contentType: string | undefined): string {
  const m = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '');
  return m?.[1] ?? 'utf-8';
}

/** Reads chunks into the parser until the head is over or the cap is reached. */
async function readHead(body: http.IncomingMessage, parser: CardParser): Promise<void> {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charsetOf(body.headers['content-type']));
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  let read = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = PAGE_MAX_BYTES - read;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    read += part.byteLength;
    parser.write(decoder.decode(part, { stream: true }));
    if (parser.done || read >= PAGE_MAX_BYTES) break;
  }
}

async function readCapped(body: http.IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    read += chunk.byteLength;
    if (read > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const refused = () =>
  new HeraldError(
    'INVALID_INPUT',
    'Herald makes link cards only of pages at public http(s) addresses (HERALD_ALLOW_PRIVATE_ADDRESSES lets ' +
      'loopback and private ones through)',
    {
      details: [{ path: 'query.url', message: 'not a public http(s) address' }],
    },
  );

export class LinkCardsService {
  /** The fetcher for pages and thumbnails; replaceable (tests shorten its time cap). */
  fetcher: GuardedFetcher;
  private readonly cache = new Map<string, { until: number; card: LinkCard | null }>();
  private readonly inflight = new Map<string, Promise<LinkCard | null>>();
  /** Recent thumbnails (small ones only): the composer shows one, the publish right after sends it. */
  private readonly thumbs = new Map<string, { until: number; thumb: { bytes: Buffer; mime: string } | null }>();
  /** Pages actually fetched (not answered from the cache), for tests and diagnostics. */
  fetches = 0;

  constructor(
    private readonly deps: Deps,
    fetcher?: GuardedFetcher,
  ) {
    this.fetcher =
      fetcher ?? new GuardedFetcher({ allowPrivate: deps.config.allowPrivateAddresses, timeoutMs: TIMEOUT_MS });
  }

  private key(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new HeraldError('INVALID_INPUT', 'url must be an absolute http(s) URL', {
        details: [{ path: 'query.url', message: 'not a URL' }],
      });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused();
    url.hash = '';
    return url.href;
  }

  /** The card kept for this URL, if any (undefined: not known; null: known to have none). */
  cached(raw: string): LinkCard | null | undefined {
    const key = this.key(raw);
    const hit = this.cache.get(key);
    if (!hit) return undefined;
    if (hit.until <= this.deps.clock.now()) {
      this.cache.delete(key);
      return undefined;
    }
    // Most recently used last: the oldest is the first to go.
    this.cache.delete(key);
    this.cache.set(key, hit);
    return hit.card;
  }

  private remember(key: string, card: LinkCard | null): void {
    this.cache.delete(key);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { until: this.deps.clock.now() + (card ? CARD_TTL_MS : NONE_TTL_MS), card });
  }

  /** GET /link-preview: the card of the page at `raw`, or null when it cannot be read. */
  async preview(raw: string): Promise<LinkCard | null> {
    const key = this.key(raw);
    const hit = this.cached(key);
    if (hit !== undefined) return hit;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.load(key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async load(key: string): Promise<LinkCard | null> {
    this.fetches += 1;
    try {
      const card = await this.fetcher.fetch(
        key,
        async (body, finalUrl) => {
          if (!HTML_TYPES.test(String(body.headers['content-type'] ?? ''))) return null;
          const parser = new CardParser(key, finalUrl.href);
          await readHead(body, parser);
          return parser.card();
        },
        {
          accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1',
          maxLength: Number.POSITIVE_INFINITY,
          what: 'a link card',
        },
      );
      this.remember(key, card);
      return card;
    } catch (err) {
      // The address policy's refusal is the caller's error: one body whatever the address, so the
      // answer tells nothing about which private range or service is there.
      if (err instanceof UrlRefused && err.kind === 'policy') throw refused();
      this.remember(key, null);
      return null;
    }
  }

  /** The thumbnail's bytes when they are a still or animated image Herald reads (PNG, JPEG, WebP, GIF). */
  async thumbnail(imageUrl: string): Promise<{ bytes: Buffer; mime: string } | null> {
    const hit = this.thumbs.get(imageUrl);
    if (hit && hit.until > this.deps.clock.now()) return hit.thumb;
    const thumb = await this.readThumbnail(imageUrl);
    if (!thumb || thumb.bytes.byteLength <= THUMB_CACHE_MAX_BYTES) {
      this.thumbs.delete(imageUrl);
      if (this.thumbs.size >= THUMB_CACHE_ENTRIES) this.thumbs.delete(this.thumbs.keys().next().value!);
      this.thumbs.set(imageUrl, { until: this.deps.clock.now() + (thumb ? CARD_TTL_MS : NONE_TTL_MS), thumb });
    }
    return thumb;
  }

  /**
   * GET /link-preview/image: the image of a page's card, for the composer to show (its pages may
   * load images only from Herald itself). Only a card's own image, never an arbitrary URL.
   */
  async cardImage(pageUrl: string): Promise<{ bytes: Buffer; mime: string }> {
    const card = await this.preview(pageUrl);
    const thumb = card?.imageUrl ? await this.thumbnail(card.imageUrl) : null;
    if (!thumb) throw notFound('Link card image');
    return thumb;
  }

  private async readThumbnail(imageUrl: string): Promise<{ bytes: Buffer; mime: string } | null> {
    try {
      const bytes = await this.fetcher.fetch(imageUrl, (body) => readCapped(body, THUMB_MAX_BYTES), {
        accept: 'image/*',
        maxLength: THUMB_MAX_BYTES,
        what: 'a link card image',
      });
      if (!bytes || bytes.byteLength === 0) return null;
      const info = await sniffType(bytes.subarray(0, 16 * 1024));
      return info.kind === 'video' ? null : { bytes, mime: info.mime };
    } catch {
      return null;
    }
  }

  /**
   * The card a publish sends for `url`, with its thumbnail: null when the page gives no card or
   * the address policy refuses it (a card is never worth failing a post for).
   */
  async forPublish(url: string): Promise<CardWithThumb | null> {
    let card: LinkCard | null;
    try {
      card = await this.preview(url);
    } catch {
      return null;
    }
    if (!card) return null;
    const thumb = card.imageUrl ? await this.thumbnail(card.imageUrl) : null;
    return { url: card.url, title: card.title, description: card.description, ...(thumb ? { thumb } : {}) };
  }
}
