/**
 * twitter-text's URL extraction and weighted length, with the same answers in linear time.
 *
 * twitter-text finds URLs with one backtracking regex tried at every position. Where a long run
 * of domain-like text (`a.a.a.…`, a CJK paragraph glued to a link) cannot end in a top-level
 * domain, each position costs the length of the run: 40,000 characters took over a second, a
 * megabyte over a minute. A URL's domain must end in a known top-level domain, so the text is
 * cut into pieces: "live" stretches around each place a TLD could end a domain, where the
 * original regex runs exactly as before, and "dead" stretches in between, where no match can
 * start or end and the regex is not run at all. Cuts fall only where nothing spans them (no
 * URL, emoji sequence, surrogate pair or Unicode composition), so adding up the pieces gives the
 * original answer; test/unit/counting-linear.test.ts checks that against twitter-text itself.
 */
import twitterText, { type TweetConfig, type UrlEntity } from 'twitter-text';
import * as twemojiRegex from 'twemoji-parser/dist/lib/regex.js';

/**
 * The patterns built from the library's regexen, made on first use: reading `twitterText.regexen`
 * loads twitter-text (with core-js), which the server defers until a post is first counted
 * (scripts/build.mjs, lazyTwitterText) and should not pay for at start-up.
 */
let built: ReturnType<typeof buildPatterns> | undefined;
function buildPatterns() {
  const rx = twitterText.regexen;
  return {
    DOMAIN_CHAR: rx.validDomainChars,
    // A domain's last label, a dot and a top-level domain followed by what the library accepts
    // after one: every URL match contains one, so where there is none no URL can be.
    TLD_END: new RegExp(
      `${rx.validDomainChars.source}\\.(?:${rx.validGTLD.source}|${rx.validCCTLD.source}|${rx.validPunycode.source})`,
      'gi',
    ),
    // What may follow a domain inside a URL (port, path, query): its end bounds a match.
    AFTER_DOMAIN: new RegExp(`${rx.validGeneralUrlPathChars.source}|[?()]`, 'i'),
    // The library's own patterns, as extractUrlsWithIndices uses them (own copies: lastIndex is state).
    EXTRACT_URL: new RegExp(rx.extractUrl.source, rx.extractUrl.flags),
    ASCII_DOMAIN: new RegExp(rx.validAsciiDomain.source, rx.validAsciiDomain.flags),
    BAD_BEFORE_BARE: rx.invalidUrlWithoutProtocolPrecedingChars,
    TCO: rx.validTcoUrl,
  };
}
const patterns = () => (built ??= buildPatterns());
// Characters before which a cut is safe: never the second half of a pair, a composition, an
// emoji sequence or a grapheme cluster. ASCII, and the letters of common scripts.
const SAFE_START = new RegExp(
  String.raw`[\t\n\r\x20-\x7e\u00c0-\u024f\u0400-\u0482\u048a-\u04ff\u05d0-\u05ea\u0621-\u063a\u0641-\u064a\u3041` +
    String.raw`-\u3096\u30a1-\u30fa\u4e00-\u9fff\uac00-\ud7a3]`,
);
// "https://" and the character before a URL: how far before its domain a match may start.
const LEAD = 9;
// A dead stretch shorter than this is left inside its live neighbours: fewer pieces, and the
// regex's work on it is bounded by its length.
const MIN_DEAD = 256;

const isDomainChar = (ch: string) => patterns().DOMAIN_CHAR.test(ch);

/**
 * Where the domain ending at the label before `dot` could start, at the earliest. `runStart(i)`
 * is where the stretch of subdomain-like text ending at i starts.
 */
function domainStart(t: string, dot: number, runStart: (i: number) => number): number {
  // The last label (before the TLD) holds domain characters and hyphens only.
  let j = dot - 1;
  while (j > 0 && (t[j - 1] === '-' || isDomainChar(t[j - 1]))) j--;
  if (j === 0 || t[j - 1] !== '.') return j;
  // Labels before it may hold `_` too; a dot always sits between domain characters.
  return Math.min(j, runStart(j));
}

const inRun = (ch: string) => ch === '.' || ch === '_' || ch === '-' || isDomainChar(ch);

/** runStart(i) for `t`, computed forward once as far as asked (linear in all). */
function runStarts(t: string): (i: number) => number {
  const starts = new Int32Array(t.length);
  let done = 0;
  return (i) => {
    for (; done <= i; done++) {
      const k = done;
      const b = t[k];
      if (!inRun(b)) {
        starts[k] = k + 1;
        continue;
      }
      const a = k > 0 ? t[k - 1] : undefined;
      const joins = a !== undefined && inRun(a) && !(a === '.' && !isDomainChar(b)) && !(b === '.' && !isDomainChar(a));
      starts[k] = joins ? starts[k - 1] : k;
    }
    return starts[i];
  };
}

/** [start, end) pieces of `t` in order; `live` ones may hold URLs, the others cannot. */
export function urlPieces(t: string): { start: number; end: number; live: boolean }[] {
  const live: [number, number][] = [];
  const { TLD_END, AFTER_DOMAIN } = patterns();
  TLD_END.lastIndex = 0;
  let m: RegExpExecArray | null;
  let liveEnd = 0;
  const runStart = runStarts(t);
  while ((m = TLD_END.exec(t)) !== null) {
    const dot = m.index + 1;
    let end = m.index + m[0].length;
    if (end > liveEnd || live.length === 0) {
      // Port, path and query run on from the TLD while their characters last.
      if (t[end] === ':' || t[end] === '/' || t[end] === '?') while (end < t.length && AFTER_DOMAIN.test(t[end])) end++;
    }
    let start = Math.max(0, domainStart(t, dot, runStart) - LEAD);
    // A later TLD may let a domain start before earlier stretches: they join it.
    while (live.length > 0 && start - live[live.length - 1][1] < MIN_DEAD) {
      const [s0, e0] = live.pop()!;
      start = Math.min(start, s0);
      end = Math.max(end, e0);
    }
    // Back to a safe cut, never into the previous live stretch.
    const floor = live.length > 0 ? live[live.length - 1][1] : 0;
    while (start > floor && !SAFE_START.test(t[start])) start--;
    live.push([start, end]);
    liveEnd = Math.max(liveEnd, end);
    // A match is found again from its TLD: the next candidate may overlap this one.
    TLD_END.lastIndex = m.index + 1;
  }
  const pieces: { start: number; end: number; live: boolean }[] = [];
  let at = 0;
  for (const [s, e] of live) {
    if (s > at) pieces.push({ start: at, end: s, live: false });
    pieces.push({ start: s, end: e, live: true });
    at = e;
  }
  if (at < t.length || pieces.length === 0) pieces.push({ start: at, end: t.length, live: false });
  return pieces;
}

// Domains the library's IDNA check passes through unchanged: ASCII without `@`, not punycode.
const PLAIN_DOMAIN = /^(?!xn--)[\x00-\x3f\x41-\x7f]*$/;

export interface FoundUrls {
  /** extractUrlsWithIndices(text) (bare domains too, the default). */
  all: UrlEntity[];
  /** extractUrlsWithIndices(text, { extractUrlsWithoutProtocol: false }). */
  schemed: UrlEntity[];
}

/**
 * extractUrlsWithIndices for both options in one run of the library's regex (its matches do not
 * depend on the option), with the match's groups instead of the slow legacy RegExp.$n and the
 * IDNA label check done in place for plain ASCII domains. False when a domain needs the library's
 * own IDNA code: the caller then asks the library.
 */
function scanPiece(text: string, offset: number, out: FoundUrls): boolean {
  const wantAll = text.includes('.');
  const wantSchemed = text.includes(':');
  if (!wantAll && !wantSchemed) return true;
  const all: UrlEntity[] = [];
  const schemed: UrlEntity[] = [];
  const { EXTRACT_URL: re, ASCII_DOMAIN, BAD_BEFORE_BARE, TCO } = patterns();
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const before = m[2] ?? '';
    let url = m[3];
    const protocol = m[4] ?? '';
    const domain = m[5] ?? '';
    const path = m[7];
    let end = re.lastIndex;
    const start = end - url.length;
    if (!PLAIN_DOMAIN.test(domain)) {
      re.lastIndex = 0;
      return false;
    }
    // isValidUrl: every label 1..63 characters, the whole URL (with a scheme) at most 4096.
    if (domain.split('.').some((l) => l.length < 1 || l.length > 63)) continue;
    if ((protocol || 'https://').length + url.length > 4096) continue;
    if (!protocol) {
      if (!wantAll || BAD_BEFORE_BARE.test(before)) continue;
      let last: UrlEntity | null = null;
      let asciiEnd = 0;
      domain.replace(ASCII_DOMAIN, (ascii: string) => {
        const asciiStart = domain.indexOf(ascii, asciiEnd);
        asciiEnd = asciiStart + ascii.length;
        last = { url: ascii, indices: [start + asciiStart, start + asciiEnd] };
        all.push(last);
        return ascii;
      });
      if (last === null) continue;
      if (path) {
        const l = last as UrlEntity;
        l.url = url.replace(domain, l.url);
        l.indices[1] = end;
      }
    } else {
      // t.co URLs take no further path characters.
      const tco = TCO.exec(url);
      if (tco) {
        if (tco[1] && tco[1].length > 40) continue;
        url = tco[0];
        end = start + url.length;
      }
      if (wantAll) all.push({ url, indices: [start, end] });
      if (wantSchemed) schemed.push({ url, indices: [start, end] });
    }
  }
  for (const u of all) out.all.push({ url: u.url, indices: [u.indices[0] + offset, u.indices[1] + offset] });
  for (const u of schemed) out.schemed.push({ url: u.url, indices: [u.indices[0] + offset, u.indices[1] + offset] });
  return true;
}

/** Both of twitter-text's URL lists for `text`, linear in the text. */
export function findUrls(text: string): FoundUrls {
  const out: FoundUrls = { all: [], schemed: [] };
  for (const p of urlPieces(text)) {
    if (!p.live) continue;
    const piece = text.slice(p.start, p.end);
    if (scanPiece(piece, p.start, out)) continue;
    for (const [list, options] of [
      [out.all, { extractUrlsWithoutProtocol: true }],
      [out.schemed, { extractUrlsWithoutProtocol: false }],
    ] as const) {
      for (const u of twitterText.extractUrlsWithIndices(piece, options))
        list.push({ url: u.url, indices: [u.indices[0] + p.start, u.indices[1] + p.start] });
    }
  }
  return out;
}

/** twitter-text's extractUrlsWithIndices, linear in the text. */
export function extractUrls(
  text: string,
  options: { extractUrlsWithoutProtocol?: boolean } = { extractUrlsWithoutProtocol: true },
): UrlEntity[] {
  const found = findUrls(text);
  return options.extractUrlsWithoutProtocol ? found.all : found.schemed;
}

// twemoji-parser's pattern, which parseTweet's emoji weighting runs (its parse() also builds an
// image URL for every emoji, most of its time). A CommonJS module: its default export, however
// the bundler hands it over.
const EMOJI_RE: RegExp = (() => {
  const mod = twemojiRegex as unknown as { default?: unknown } | RegExp;
  const d = mod instanceof RegExp ? mod : (mod.default as { default?: RegExp } | RegExp | undefined);
  const re = d instanceof RegExp ? d : d?.default;
  if (!(re instanceof RegExp)) throw new Error('twemoji-parser regex not found');
  return new RegExp(re.source, re.flags);
})();

const weightTables = new WeakMap<TweetConfig['ranges'], Uint16Array>();
function weightTable(config: TweetConfig): Uint16Array {
  let table = weightTables.get(config.ranges);
  if (!table) {
    table = new Uint16Array(65536).fill(config.defaultWeight);
    // getCharacterWeight: the first range holding the code unit wins.
    for (let c = 0; c < 65536; c++) {
      for (const r of config.ranges)
        if (c >= r.start && c <= r.end) {
          table[c] = r.weight;
          break;
        }
    }
    weightTables.set(config.ranges, table);
  }
  return table;
}

/**
 * twitter-text's parseTweet weighted length and validity, in one linear pass: at each position
 * a URL counts transformedURLLength, else an emoji (twemoji-parser's match) defaultWeight, else
 * the code unit's weight (for a surrogate pair, its second half's), exactly as parseTweet walks
 * the text. `urls`: findUrls of the NFC text when the caller has it.
 */
export function weightedLength(
  text: string,
  config: TweetConfig,
  urls?: UrlEntity[],
): { weightedLength: number; valid: boolean } {
  const t = text.normalize();
  const found = urls ?? findUrls(t).all;
  // parseTweet keys entities by their start (a later one with the same start wins).
  const byStart = new Map<number, number>();
  for (const u of found) byStart.set(u.indices[0], u.url.length);
  const urlStarts = [...byStart.keys()].sort((a, b) => a - b);
  const table = weightTable(config);
  const n = t.length;
  let units = 0;
  let nextUrl = 0;
  let emojiAt = -1;
  let emojiLength = 0;
  const emoji = config.emojiParsingEnabled ? EMOJI_RE : undefined;
  if (emoji) emoji.lastIndex = 0;
  const advanceEmoji = (i: number) => {
    while (emoji && emojiAt < i && emojiAt !== Infinity) {
      const m = emoji.exec(t);
      if (m === null) {
        emojiAt = Infinity;
        break;
      }
      emojiAt = m.index;
      emojiLength = m[0].length;
    }
  };
  for (let i = 0; i < n; i++) {
    while (nextUrl < urlStarts.length && urlStarts[nextUrl] < i) nextUrl++;
    if (nextUrl < urlStarts.length && urlStarts[nextUrl] === i) {
      units += config.transformedURLLength * config.scale;
      i += byStart.get(i)! - 1;
      continue;
    }
    if (emoji) {
      advanceEmoji(i);
      if (emojiAt === i) {
        units += config.defaultWeight;
        i += emojiLength - 1;
        continue;
      }
    }
    const c = t.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i < n - 1) {
      const d = t.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        units += table[d];
        continue;
      }
    }
    units += table[c];
  }
  const weighted = units / config.scale;
  const valid = !twitterText.hasInvalidCharacters(t) && weighted > 0 && weighted <= config.maxWeightedTweetLength;
  return { weightedLength: weighted, valid };
}
