/**
 * How long a post is, counted the way each network counts it (docs/decisions.md §19
 * §4.3, §5.5), and whether its text and media fit. The server, the client library, the CLI and
 * the UI all import this one module, so it must stay free of Node-only imports.
 *
 * - microblog (X): twitter-text's weighted length (URLs 23, CJK and emoji 2), limit 280.
 * - skyblog (Bluesky): 300 grapheme clusters and at most 3000 UTF-8 bytes.
 * - fedblog (Mastodon): grapheme clusters, each http(s) URL counting the instance's
 *   `characters_reserved_per_url`, a remote mention `@user@domain` counting as `@user`;
 *   limit the instance's `max_characters` (500 unless the account says otherwise).
 * - threadblog (Threads): 500; Meta measures emoji by their UTF-8 bytes, so an emoji grapheme
 *   counts its byte length (conservative: never under what Threads counts).
 * - problog (LinkedIn): 3000 grapheme clusters (the text as the member sees it); a thread's later
 *   parts go as comments on the post, 1250 each (`comment`).
 */
import twitterText from 'twitter-text';
import { graphemeStats, utf8Bytes, type GraphemeStats } from './graphemes.js';
import { findUrls, weightedLength, type FoundUrls } from './urls.js';
import type { UrlEntity } from 'twitter-text';

import { NETWORK_LABELS, type Platform } from './networks.js';

export { PLATFORMS, NETWORK_LABELS, type Platform } from './networks.js';

export type MediaKind = 'image' | 'gif' | 'video' | 'document';

/** Per-account facts that change the rules (Mastodon instance limits, a longer X limit). */
export interface CountOptions {
  /** Character limit replacing the network's default (Mastodon `max_characters`, X premium). */
  maxCharacters?: number;
  /** Mastodon: what every URL counts, whatever its length (default 23). */
  charactersReservedPerUrl?: number;
  /** Mastodon: attachments allowed per post (default 4). */
  maxMediaAttachments?: number;
  /** Mastodon: the instance's `description_limit` for alt text (default 1,500). */
  altTextLimit?: number;
  /** LinkedIn: the text goes as a comment on the post (a thread's later part), not as a post. */
  comment?: boolean;
}

/** The verdict on one post for one network, as tweets carry it in `validation`. */
export interface Verdict {
  count: number;
  limit: number;
  valid: boolean;
  /** Why it is not valid, in words a person can act on. */
  reason?: string;
}

export const DEFAULT_LIMITS: Record<Platform, number> = {
  microblog: 280,
  skyblog: 300,
  fedblog: 500,
  threadblog: 500,
  problog: 3000,
};
/** What one LinkedIn comment holds: a thread's later parts go as comments on its first. */
export const LINKEDIN_COMMENT_LIMIT = 1250;
export const SKYBLOG_MAX_BYTES = 3000;
export const FEDBLOG_URL_LENGTH = 23;

/** The spec's Limits table: what one post may carry. */
export const MEDIA_LIMITS: Record<
  Platform,
  { images: number; video: number; gifAlone: boolean; videoAllowed: boolean }
> = {
  microblog: { images: 4, video: 1, gifAlone: true, videoAllowed: true },
  skyblog: { images: 4, video: 1, gifAlone: false, videoAllowed: true },
  fedblog: { images: 4, video: 1, gifAlone: true, videoAllowed: true },
  threadblog: { images: 20, video: 1, gifAlone: false, videoAllowed: true },
  problog: { images: 20, video: 1, gifAlone: false, videoAllowed: true },
};

let segmenter: Intl.Segmenter | undefined;
const graphemeSegmenter = () => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

// Pure ASCII has one grapheme per code unit except CR LF, which is one cluster; the fast path
// matters because drafts are counted on every read.
const ASCII = /^[\x00-\x7f]*$/;

// Intl.Segmenter slows down more than linearly on long strings (V8 20: 100,000 CJK characters
// took seconds). Long text is segmented in windows; a window's last cluster may continue past
// it, so it is dropped and the next window starts where that cluster started.
const WINDOW = 2048;

/** Grapheme clusters of `text` as [start index, cluster], in order. */
function* clusters(text: string): Generator<[number, string]> {
  const seg = graphemeSegmenter();
  let from = 0;
  let size = WINDOW;
  while (from < text.length) {
    let to = Math.min(text.length, from + size);
    // Never between the halves of a surrogate pair: a lone half would end the cluster before it.
    if (to < text.length && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to--;
    const parts = Array.from(seg.segment(text.slice(from, to)), (x) => [x.index + from, x.segment] as [number, string]);
    if (to === text.length) {
      yield* parts;
      return;
    }
    if (parts.length < 2) {
      size *= 2;
      continue;
    } // one cluster longer than the window
    for (let i = 0; i < parts.length - 1; i++) yield parts[i];
    from = parts[parts.length - 1][0];
    size = WINDOW;
  }
}

/** Grapheme clusters: what a person sees as characters. */
export function graphemeCount(text: string): number {
  if (ASCII.test(text)) return asciiGraphemes(text);
  return graphemeStats(text).count;
}

function asciiGraphemes(text: string): number {
  let crlf = 0;
  for (let i = text.indexOf('\r\n'); i !== -1; i = text.indexOf('\r\n', i + 2)) crlf++;
  return text.length - crlf;
}

/**
 * What counting one text for several networks shares (grapheme clusters, URLs, bytes), worked
 * out once, when first asked. Pass one to countText/validatePost for each network of the same
 * text; nothing is kept beyond it.
 */
export class TextFacts {
  private g?: GraphemeStats;
  private u?: FoundUrls;
  private x?: UrlEntity[];
  private b?: number;
  constructor(readonly text: string) {}
  /**
   * The facts of `text` from those of its pieces (cut as text/segments.ts cuts, where no cluster
   * or URL spans a cut): graphemes, bytes and URLs are added up instead of found again.
   */
  static joined(text: string, pieces: readonly TextFacts[]): TextFacts {
    const f = new TextFacts(text);
    const g: GraphemeStats = { count: 0, emojiBytes: 0 };
    const u: FoundUrls = { all: [], schemed: [] };
    let b = 0;
    let at = 0;
    const moved = (x: UrlEntity): UrlEntity => ({ url: x.url, indices: [x.indices[0] + at, x.indices[1] + at] });
    for (const p of pieces) {
      g.count += p.graphemes.count;
      g.emojiBytes += p.graphemes.emojiBytes;
      b += p.utf8;
      u.all.push(...p.urls.all.map(moved));
      u.schemed.push(...p.urls.schemed.map(moved));
      at += p.text.length;
    }
    if (at !== text.length) throw new Error('TextFacts.joined: the pieces are not the text');
    f.g = g;
    f.u = u;
    f.b = b;
    return f;
  }
  get graphemes(): GraphemeStats {
    if (!this.g) {
      if (ASCII.test(this.text)) {
        const n = asciiGraphemes(this.text);
        this.g = { count: n, emojiBytes: n };
      } else this.g = graphemeStats(this.text);
    }
    return this.g;
  }
  get urls(): FoundUrls {
    return (this.u ??= findUrls(this.text));
  }
  /** X's URLs: those of the NFC text, as parseTweet finds them. */
  get xUrls(): UrlEntity[] {
    if (!this.x) {
      const normal = this.text.normalize();
      this.x = normal === this.text ? this.urls.all : findUrls(normal).all;
    }
    return this.x;
  }
  get utf8(): number {
    return (this.b ??= utf8Bytes(this.text));
  }
}

const factsFor = (text: string, facts?: TextFacts) => (facts && facts.text === text ? facts : new TextFacts(text));

/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  return Array.from(clusters(text), ([, g]) => g);
}

/** UTF-16 indices where a grapheme cluster starts, plus text.length. */
export function graphemeBoundaries(text: string): number[] {
  const out = Array.from(clusters(text), ([i]) => i);
  out.push(text.length);
  return out;
}

export function utf8Length(text: string): number {
  return utf8Bytes(text);
}

// A remote mention: `@user@domain` where the domain has a dot.
const REMOTE_MENTION =
  /(^|[^\p{L}\p{N}_])@([\p{L}\p{N}_]+(?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

/** Mastodon counts only links it will really turn into links: those with a scheme. */
function fedblogCountable(text: string, reserved: number, urls: UrlEntity[]): string {
  let out = '';
  let at = 0;
  for (const u of urls) {
    const [start, end] = u.indices;
    out += text.slice(at, start).replace(REMOTE_MENTION, '$1@$2') + 'x'.repeat(reserved);
    at = end;
  }
  return out + text.slice(at).replace(REMOTE_MENTION, '$1@$2');
}

export function limitFor(platform: Platform, opts: CountOptions = {}): number {
  const own = opts.maxCharacters;
  if ((platform === 'fedblog' || platform === 'microblog') && typeof own === 'number' && own > 0) return own;
  if (platform === 'problog' && opts.comment) return LINKEDIN_COMMENT_LIMIT;
  return DEFAULT_LIMITS[platform];
}

/**
 * What a network counts of a text, before it is held against the limit. Every part adds up: the
 * measure of a text cut where nothing spans the cut (text/segments.ts) is the sum of its pieces'.
 */
export interface Measure {
  /** The network's count (X: weighted length; Threads: emoji by their bytes; else graphemes). */
  count: number;
  /** UTF-8 bytes (Bluesky). */
  bytes?: number;
  /** X refuses some of its characters. */
  invalid?: boolean;
}

/** The sum of two measures of one network. */
export const addMeasures = (a: Measure, b: Measure): Measure => ({
  count: a.count + b.count,
  bytes: a.bytes === undefined && b.bytes === undefined ? undefined : (a.bytes ?? 0) + (b.bytes ?? 0),
  invalid: a.invalid || b.invalid || undefined,
});

// X's own validity check runs on the sum; each part is weighed against no limit.
let unlimitedX: typeof twitterText.configs.defaults | undefined;

/** What `platform` counts of `text` (Mastodon's count depends on the instance's URL length). */
export function measureText(platform: Platform, text: string, opts: CountOptions = {}, shared?: TextFacts): Measure {
  const facts = factsFor(text, shared);
  switch (platform) {
    case 'microblog': {
      unlimitedX ??= { ...twitterText.configs.defaults, maxWeightedTweetLength: Number.POSITIVE_INFINITY };
      const parsed = weightedLength(text, unlimitedX, facts.xUrls);
      // Unlimited, a weighed text is refused only for its characters (an empty one has none).
      return parsed.valid || parsed.weightedLength === 0
        ? { count: parsed.weightedLength }
        : { count: parsed.weightedLength, invalid: true };
    }
    case 'skyblog':
      return { count: facts.graphemes.count, bytes: facts.utf8 };
    case 'fedblog': {
      const countable = fedblogCountable(text, opts.charactersReservedPerUrl ?? FEDBLOG_URL_LENGTH, facts.urls.schemed);
      return { count: countable === text ? facts.graphemes.count : graphemeCount(countable) };
    }
    case 'threadblog':
      return { count: facts.graphemes.emojiBytes };
    case 'problog':
      return { count: facts.graphemes.count };
  }
}

/** A measure held against `platform`'s limit. */
export function verdictOfMeasure(platform: Platform, m: Measure, opts: CountOptions = {}): Verdict {
  const limit = limitFor(platform, opts);
  const { count } = m;
  switch (platform) {
    case 'microblog': {
      // parseTweet calls empty text invalid; emptiness is judged by validatePost.
      if (count === 0 || (!m.invalid && count <= limit)) return { count, limit, valid: true };
      const reason =
        count > limit ? `${count} of ${limit} weighted characters on X` : 'X refuses some of these characters';
      return { count, limit, valid: false, reason };
    }
    case 'skyblog': {
      const bytes = m.bytes ?? 0;
      if (count > limit) return { count, limit, valid: false, reason: `${count} of ${limit} characters on Bluesky` };
      if (bytes > SKYBLOG_MAX_BYTES)
        return { count, limit, valid: false, reason: `${bytes} of ${SKYBLOG_MAX_BYTES} bytes on Bluesky` };
      return { count, limit, valid: true };
    }
    case 'fedblog':
      return count > limit
        ? { count, limit, valid: false, reason: `${count} of ${limit} characters on this Mastodon instance` }
        : { count, limit, valid: true };
    case 'threadblog':
      return count > limit
        ? { count, limit, valid: false, reason: `${count} of ${limit} characters on Threads` }
        : { count, limit, valid: true };
    case 'problog':
      return count > limit
        ? {
            count,
            limit,
            valid: false,
            reason: `${count} of ${limit} characters ${opts.comment ? 'in a LinkedIn comment' : 'on LinkedIn'}`,
          }
        : { count, limit, valid: true };
  }
}

/**
 * The network's own count of `text` against its limit. Text only: an empty text is within the
 * limit here; `validatePost` decides whether a post may be empty.
 */
export function countText(platform: Platform, text: string, opts: CountOptions = {}, shared?: TextFacts): Verdict {
  return verdictOfMeasure(platform, measureText(platform, text, opts, shared), opts);
}

/** Whether one post's media fits the network; undefined when it does, else the reason. */
export function checkMedia(
  platform: Platform,
  media: readonly MediaKind[],
  opts: CountOptions = {},
): string | undefined {
  if (media.length === 0) return undefined;
  const rule = MEDIA_LIMITS[platform];
  const name = NETWORK_LABELS[platform];
  if (media.includes('document')) {
    if (platform !== 'problog') return `${name} does not take documents (PDF): documents are LinkedIn only`;
    if (media.length > 1) return 'A document (PDF) goes alone in its post, without other media';
    return undefined;
  }
  const videos = media.filter((m) => m === 'video').length;
  const gifs = media.filter((m) => m === 'gif').length;
  if (videos > 0 && !rule.videoAllowed) return `${name} takes images only here, not video`;
  if (videos > 0) return media.length > rule.video ? `${name} takes one video per post, alone` : undefined;
  if (gifs > 0 && rule.gifAlone && media.length > 1) return `${name} takes one GIF per post, alone`;
  const max = platform === 'fedblog' && opts.maxMediaAttachments ? opts.maxMediaAttachments : rule.images;
  return media.length > max ? `${name} takes at most ${max} images per post` : undefined;
}

/** A post's full verdict for one network: not empty, text within the limit, media allowed. */
export function validatePost(
  platform: Platform,
  text: string,
  media: readonly MediaKind[] = [],
  opts: CountOptions = {},
  facts?: TextFacts,
  /** The text's measure when the caller has it (text/segments.ts sums one from its pieces). */
  measured?: Measure,
): Verdict {
  const verdict = measured ? verdictOfMeasure(platform, measured, opts) : countText(platform, text, opts, facts);
  if (text.trim() === '' && media.length === 0) return { ...verdict, valid: false, reason: 'the post is empty' };
  const mediaProblem = checkMedia(platform, media, opts);
  if (mediaProblem) return { ...verdict, valid: false, reason: mediaProblem };
  return verdict;
}

/**
 * Of several verdicts for one network (one per account, e.g. two Mastodon instances), the one
 * that binds: an invalid one first, else the one with the least room left.
 */
export function strictest(verdicts: Verdict[]): Verdict {
  return verdicts.reduce((a, b) => {
    if (a.valid !== b.valid) return a.valid ? b : a;
    return b.limit - b.count < a.limit - a.count ? b : a;
  });
}

/** Counting options from an account's non-secret meta JSON (Mastodon instance limits). */
export function countOptionsFromMeta(platform: Platform, meta: Record<string, unknown>): CountOptions {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined);
  if (platform === 'fedblog') {
    return {
      maxCharacters: num(meta.max_characters),
      charactersReservedPerUrl: num(meta.characters_reserved_per_url),
      maxMediaAttachments: num(meta.max_media_attachments),
      altTextLimit: num(meta.description_limit),
    };
  }
  if (platform === 'microblog') return { maxCharacters: num(meta.max_characters) };
  return {};
}
