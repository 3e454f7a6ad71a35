/**
 * Grapheme clusters counted in one linear pass, equal to Intl.Segmenter's answer.
 *
 * Intl.Segmenter costs about a microsecond a cluster and more than linear time on long strings,
 * and counting a post for five networks used to run it five times. Most text is made of
 * characters whose cluster boundaries are certain without it: letters, digits, punctuation and
 * spaces (grapheme class Other), combining marks that only attach to what precedes them, and
 * control characters that stand alone. Those are counted directly; only stretches around other
 * characters (emoji, Hangul jamo, Indic conjuncts, Prepend, surrogate pairs) go to the
 * segmenter, cut where a boundary is certain (between two simple characters, around a control
 * character) and batched into one string with a control character between stretches.
 * test/unit/graphemes.test.ts checks every BMP character's class and random mixes against
 * Intl.Segmenter.
 */

/** Needs the segmenter (emoji, jamo, Indic marks, surrogates, anything not known here). */
export const COMPLEX = 0;
/** Grapheme class Other (or a Hangul syllable), not an emoji: a boundary between two of them. */
export const SIMPLE = 1;
/** Extend or ZWJ outside Indic scripts: joins the cluster before it (not after a control). */
export const JOINS = 2;
/** Control, CR, LF: a cluster of its own (CR LF together). */
export const ALONE = 3;
const UNKNOWN = 255;

const classes = new Uint8Array(65536).fill(UNKNOWN);
const SIMPLE_CHAR = /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}]$/u;
const NOT_SIMPLE = /^[\p{Extended_Pictographic}\p{Lm}\p{M}\u0d4e\u0e33\u0eb3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]$/u;
// Combining marks of Latin, Greek, Cyrillic, Hebrew and Arabic and for symbols, variation
// selectors, ZWNJ and ZWJ: grapheme class Extend/ZWJ, and no Indic conjunct linkers among them.
const JOINING = new RegExp(
  String.raw`^[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-` +
    String.raw`\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u1ab0-\u1abd\u1dc0-\u1dff\u200c` +
    String.raw`\u200d\u20d0-\u20f0\ufe00-\ufe0f\ufe20-\ufe2f]$`,
  'u',
);
// Control and format characters that are grapheme class Control (not ZWJ/ZWNJ, not Prepend).
const CONTROL =
  /^[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff0-\ufffb]$/u;

function classify(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return COMPLEX;
  const ch = String.fromCharCode(c);
  if (CONTROL.test(ch)) return ALONE;
  if (JOINING.test(ch)) return JOINS;
  if (SIMPLE_CHAR.test(ch) && !NOT_SIMPLE.test(ch)) return SIMPLE;
  return COMPLEX;
}

/** The class this module gives a UTF-16 code unit (exported for the tests). */
export function classOf(c: number): number {
  const k = classes[c];
  return k !== UNKNOWN ? k : (classes[c] = classify(c));
}

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** UTF-8 length, as TextEncoder gives it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export interface GraphemeStats {
  /** Grapheme clusters. */
  count: number;
  /** Clusters, each emoji cluster counted by its UTF-8 bytes (Threads). */
  emojiBytes: number;
}

let segmenter: Intl.Segmenter | undefined;
const WINDOW = 2048;
const SEPARATOR = '\u0001';

/** Adds the clusters of `s` (any length; segmented in windows, as one pass would) to `out`. */
function segmentInto(s: string, out: GraphemeStats): void {
  const seg = (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
  let from = 0;
  let size = WINDOW;
  while (from < s.length) {
    let to = Math.min(s.length, from + size);
    // Never between the halves of a surrogate pair: a lone half would end the cluster before it.
    if (to < s.length && (s.charCodeAt(to - 1) & 0xfc00) === 0xd800) to--;
    const last = to === s.length;
    let lastStart = -1;
    let lastText = '';
    let n = 0;
    let bytes = 0;
    for (const x of seg.segment(last && from === 0 ? s : s.slice(from, to))) {
      if (lastStart >= 0) {
        n++;
        bytes += EMOJI.test(lastText) ? utf8Bytes(lastText) : 1;
      }
      lastStart = x.index;
      lastText = x.segment;
    }
    if (last) {
      if (lastStart >= 0) {
        n++;
        bytes += EMOJI.test(lastText) ? utf8Bytes(lastText) : 1;
      }
      out.count += n;
      out.emojiBytes += bytes;
      return;
    }
    // The window's last cluster may continue past it: start the next window there.
    if (n === 0) {
      size *= 2;
      continue;
    }
    out.count += n;
    out.emojiBytes += bytes;
    from += lastStart;
    size = WINDOW;
  }
}

/** Grapheme clusters of `text` and Threads' emoji-weighted count, in one linear pass. */
export function graphemeStats(text: string): GraphemeStats {
  const out: GraphemeStats = { count: 0, emojiBytes: 0 };
  const n = text.length;
  let batch: string[] = [];
  let batchLength = 0;
  const flush = () => {
    if (batch.length === 0) return;
    segmentInto(batch.join(SEPARATOR), out);
    out.count -= batch.length - 1;
    out.emojiBytes -= batch.length - 1;
    batch = [];
    batchLength = 0;
  };
  let prev = ALONE; // the start of the text is a boundary, as after a control character
  let cut = 0; // the last certain boundary
  let sinceCut = 0; // clusters counted directly since then
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const k = c < 0x80 ? (c >= 0x20 && c < 0x7f ? SIMPLE : ALONE) : classOf(c);
    if (k === SIMPLE) {
      out.count++;
      out.emojiBytes++;
      cut = i;
      sinceCut = 1;
    } else if (k === JOINS) {
      if (prev === ALONE) {
        out.count++;
        out.emojiBytes++;
        cut = i;
        sinceCut = 1;
      }
    } else if (k === ALONE) {
      out.count++;
      out.emojiBytes++;
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      cut = i + 1;
      sinceCut = 0;
    } else {
      // A stretch for the segmenter: from the last certain boundary to the next one (before a
      // control character, after one, or between two simple characters).
      out.count -= sinceCut;
      out.emojiBytes -= sinceCut;
      let j = i + 1;
      let before = COMPLEX;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        const kj = d < 0x80 ? (d >= 0x20 && d < 0x7f ? SIMPLE : ALONE) : classOf(d);
        if (kj === ALONE || (kj === SIMPLE && before === SIMPLE)) break;
        before = kj;
      }
      const stretch = text.slice(cut, j);
      if (stretch.length > WINDOW) {
        flush();
        segmentInto(stretch, out);
      } else {
        batch.push(stretch);
        batchLength += stretch.length + 1;
        if (batchLength > WINDOW) flush();
      }
      i = j - 1;
      cut = j;
      sinceCut = 0;
      prev = COMPLEX;
      continue;
    }
    prev = k;
  }
  flush();
  return out;
}
