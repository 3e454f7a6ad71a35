/**
 * Turning long text into a thread that fits one network (the CLI's `--split`, the composer),
 * and reading per-network thread text where a line holding only `---` separates posts.
 *
 * The splitter breaks at the end of a paragraph or sentence when that leaves a reasonably full
 * post, else at a space, and only when one word is longer than a whole post between grapheme
 * clusters. It never breaks inside a URL, a mention or a hashtag, unless that one token alone
 * cannot fit a post. Read back: every part is a slice of the text, and only whitespace lies
 * between consecutive parts (the whitespace at a break is dropped, as networks trim it anyway).
 */
import twitterText from 'twitter-text';
import { extractUrls } from './urls.js';
import { countText, graphemeBoundaries, limitFor, type CountOptions, type Platform } from './counting.js';

// Breaking spaces: not NBSP (U+00A0), figure space (U+2007) or narrow NBSP (U+202F).
const SPACE = /[ \t\n\r\f\v\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/;
const isSpace = (ch: string | undefined) => ch !== undefined && SPACE.test(ch);
const SENTENCE_END = /[.!?\u2026\u203c\u2047-\u2049][\])"'\u2019\u201d\u00bb]*$/u;
const CJK_SENTENCE_END = new Set(['\u3002', '\uff01', '\uff1f', '\uff0e']);
const MENTION = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*(?:@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)?/gu;

/** Posts of per-network thread text: split at lines holding only `---`, trimmed, empty ones dropped. */
export function splitThreadText(text: string): string[] {
  // Line by line (m flag), so two separator lines in a row are both separators.
  return text
    .split(/^[ \t]*---[ \t]*$/m)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** Joins posts back into per-network thread text. */
export function joinThreadText(posts: readonly string[]): string {
  return posts.join('\n---\n');
}

/** [start, end) spans a break must not fall inside: URLs, mentions, hashtags. */
function protectedSpans(text: string): [number, number][] {
  const spans: [number, number][] = extractUrls(text).map((u) => u.indices);
  for (const h of twitterText.extractHashtagsWithIndices(text)) spans.push(h.indices);
  for (const m of text.matchAll(MENTION)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

interface Candidates {
  sentence: number[];
  word: number[];
  inside: Uint8Array;
}

/** Sentence and word ends, ascending; `inside` marks positions within a protected span. */
function candidates(text: string, spans: [number, number][]): Candidates {
  const inside = new Uint8Array(text.length + 1);
  for (const [s, e] of spans) inside.fill(1, s + 1, e);
  const c: Candidates = { sentence: [], word: [], inside };
  for (let i = 1; i <= text.length; i++) {
    if (inside[i]) continue;
    const atEnd = i === text.length;
    if (atEnd || (isSpace(text[i]) && !isSpace(text[i - 1]))) {
      c.word.push(i);
      let j = i;
      while (j < text.length && isSpace(text[j]) && text[j] !== '\n') j++;
      if (atEnd || text[j] === '\n' || SENTENCE_END.test(text.slice(Math.max(0, i - 4), i))) c.sentence.push(i);
    } else if (CJK_SENTENCE_END.has(text[i - 1]) && !isSpace(text[i])) {
      c.sentence.push(i);
    }
  }
  return c;
}

/** Grapheme ends in (from, to]: outside protected spans, and all of them. Segmenting is slow, so only a window. */
function graphemeEnds(
  text: string,
  from: number,
  to: number,
  inside: Uint8Array,
): { grapheme: number[]; any: number[] } {
  const any = graphemeBoundaries(text.slice(from, to))
    .map((b) => b + from)
    .filter((b) => b > from && (b < to || to === text.length));
  return { grapheme: any.filter((b) => !inside[b]), any };
}

/** Index of the first entry of `ends` (ascending) greater than `pos`. */
function firstAfter(ends: number[], pos: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid] <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The largest end among `ends` (ascending) after `pos` whose piece fits: galloping then binary
 * search, so the work is in proportion to one post, not to the rest of the text.
 */
function largestFitting(
  ends: number[],
  pos: number,
  limitEnd: number,
  fits: (end: number) => boolean,
): number | undefined {
  let lo = firstAfter(ends, pos);
  // Only ends within the window: never count the whole rest of a long text.
  const top = firstAfter(ends, limitEnd);
  if (lo >= top || !fits(ends[lo])) return undefined;
  let hi = top;
  for (let step = 1; lo + step < top; step *= 2) {
    if (fits(ends[lo + step])) lo += step;
    else {
      hi = lo + step;
      break;
    }
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(ends[mid])) lo = mid;
    else hi = mid;
  }
  return ends[lo];
}

/**
 * Splits `text` into posts that each fit `platform` (counted by its own rule, with the
 * account's options). Text that already fits comes back as one post.
 */
export function splitForPlatform(text: string, platform: Platform, opts: CountOptions = {}): string[] {
  const fitsText = (piece: string) => countText(platform, piece, opts).valid;
  const parts: string[] = [];
  const skip = (i: number) => {
    while (i < text.length && isSpace(text[i])) i++;
    return i;
  };
  let pos = skip(0);
  if (pos >= text.length) return parts;
  const spans = protectedSpans(text);
  const c = candidates(text, spans);
  // No post can fit in more than this many UTF-16 units, unless a URL that its network counts as
  // a fixed length runs past it: the window then stretches to the end of that URL.
  const span = Math.max(1024, limitFor(platform, opts) * 12);
  const windowEnd = (from: number) => {
    let end = Math.min(text.length, from + span);
    for (const [s, e] of spans) if (s < end && end < e) end = e;
    return end;
  };
  while (pos < text.length) {
    const piece = (end: number) => text.slice(pos, end).replace(/\s+$/u, '');
    const fits = (end: number) => {
      const p = piece(end);
      return p.length > 0 && fitsText(p);
    };
    const limitEnd = windowEnd(pos);
    const word = largestFitting(c.word, pos, limitEnd, fits);
    let sentence = largestFitting(c.sentence, pos, limitEnd, fits);
    // A sentence end that leaves a post much shorter than the word break would is not worth it.
    if (sentence !== undefined && word !== undefined && sentence - pos < 0.4 * (word - pos)) sentence = undefined;
    let end = sentence ?? word;
    if (end === undefined) {
      // One token longer than a post: between graphemes outside protected spans, else anywhere,
      // so a post always moves forward.
      // Segmenting is slow: start with a window about one post long and grow it while it all fits.
      let to = Math.min(limitEnd, pos + 2 * limitFor(platform, opts) + 16);
      let g = graphemeEnds(text, pos, to, c.inside);
      while (to < limitEnd && g.any.length > 0 && fits(g.any[g.any.length - 1])) {
        to = Math.min(limitEnd, pos + 2 * (to - pos));
        g = graphemeEnds(text, pos, to, c.inside);
      }
      end =
        largestFitting(g.grapheme, pos, limitEnd, fits) ??
        largestFitting(g.any, pos, limitEnd, fits) ??
        g.any[0] ??
        limitEnd;
    }
    parts.push(piece(end));
    pos = skip(end);
  }
  return parts;
}
