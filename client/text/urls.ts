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

const rx = twitterText.regexen;
const DOMAIN_CHAR = rx.validDomainChars;
// A domain's last label, a dot and a top-level domain followed by what the library accepts after
// one: every URL match contains one, so where there is none no URL can be.
const TLD_END = new RegExp(`${rx.validDomainChars.source}\\.(?:${rx.validGTLD.source}|${rx.validCCTLD.source}|${rx.validPunycode.source})`, 'gi');
// What may follow a domain inside a URL (port, path, query): its end bounds a match.
const AFTER_DOMAIN = new RegExp(`${rx.validGeneralUrlPathChars.source}|[?()]`, 'i');
// Characters before which a cut is safe: never the second half of a pair, a composition, an
// emoji sequence or a grapheme cluster. ASCII, and the letters of common scripts.
const SAFE_START = /[\t\n\r\x20-\x7e\u00c0-\u024f\u0400-\u0482\u048a-\u04ff\u05d0-\u05ea\u0621-\u063a\u0641-\u064a\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff\uac00-\ud7a3]/;
// "https://" and the character before a URL: how far before its domain a match may start.
const LEAD = 9;
// A dead stretch shorter than this is left inside its live neighbours: fewer pieces, and the
// regex's work on it is bounded by its length.
const MIN_DEAD = 256;

const isDomainChar = (ch: string) => DOMAIN_CHAR.test(ch);

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
      if (!inRun(b)) { starts[k] = k + 1; continue; }
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

/** twitter-text's extractUrlsWithIndices, linear in the text. */
export function extractUrls(text: string, options: { extractUrlsWithoutProtocol?: boolean } = { extractUrlsWithoutProtocol: true }): UrlEntity[] {
  const out: UrlEntity[] = [];
  for (const p of urlPieces(text)) {
    if (!p.live) continue;
    for (const u of twitterText.extractUrlsWithIndices(text.slice(p.start, p.end), options)) {
      out.push({ url: u.url, indices: [u.indices[0] + p.start, u.indices[1] + p.start] });
    }
  }
  return out;
}

/**
 * twitter-text's parseTweet weighted length and validity, linear in the text. A dead piece's
 * dots become commas (same weight, never part of an emoji) so the library skips URL search.
 */
export function weightedLength(text: string, config: TweetConfig): { weightedLength: number; valid: boolean } {
  const normal = text.normalize();
  const unbounded = { ...config, maxWeightedTweetLength: Number.MAX_SAFE_INTEGER };
  let units = 0;
  for (const p of urlPieces(normal)) {
    const piece = normal.slice(p.start, p.end);
    const parsed = twitterText.parseTweet(p.live ? piece : piece.replace(/\./g, ','), unbounded);
    units += Math.round(parsed.weightedLength * config.scale);
  }
  const weighted = units / config.scale;
  const valid = !twitterText.hasInvalidCharacters(normal) && weighted > 0 && weighted <= config.maxWeightedTweetLength;
  return { weightedLength: weighted, valid };
}
