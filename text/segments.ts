/**
 * Long text counted in pieces, so that an edit recounts only the piece it touched. A text is cut
 * before a space (or line feed) that follows a printable ASCII character: nothing any network
 * counts spans such a cut (no URL, mention, emoji, grapheme cluster or Unicode composition holds
 * a space, and the character before it joins nothing after it), so each network's measure of the
 * text is the sum of its pieces' (test/unit/count-segments.test.ts checks that against the whole).
 * Cuts are found from the start, each the first safe place at least SEGMENT characters after the
 * last: an edit leaves every piece before it as it was.
 */
import { addMeasures, measureText, type CountOptions, type Measure, type Platform } from './counting.js';

/** About how long a piece is. */
export const SEGMENT = 1024;

const PRINTABLE = (c: number) => c > 0x20 && c < 0x7f;

/** `text` in pieces (one piece when it is short or has no safe cut). */
export function countSegments(text: string, size = SEGMENT): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = from + size; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x20 || c === 0x0a) && PRINTABLE(text.charCodeAt(i - 1))) {
      out.push(text.slice(from, i));
      from = i;
      i = from + size - 1;
    }
  }
  out.push(from === 0 ? text : text.slice(from));
  return out;
}

/**
 * measureText of `text`, summed from its pieces; `measurePiece` measures one (a caller that
 * remembers pieces answers the unchanged ones without counting them again).
 */
export function measureInPieces(
  platform: Platform,
  text: string,
  opts: CountOptions = {},
  measurePiece: (piece: string) => Measure = (piece) => measureText(platform, piece, opts),
  size = SEGMENT,
): Measure {
  return countSegments(text, size).map(measurePiece).reduce(addMeasures);
}
