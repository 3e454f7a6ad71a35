/**
 * Where a post stops fitting a network: the UTF-16 index of the first character past the limit,
 * found by asking countText (the network's own rule) about prefixes, so no counting rule is
 * repeated here. Prefixes are probed galloping (the limit, then steps of an eighth of it, doubling)
 * and then bisected, so the work is in proportion to where the overflow starts, not to the length
 * of the text.
 */
import { countText, graphemeBoundaries, limitFor, type CountOptions, type Platform } from './counting.js';

/** Never between the halves of a surrogate pair. */
const snap = (text: string, i: number) =>
  i > 0 && i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00 ? i - 1 : i;

/**
 * The index where `text` crosses `platform`'s limit (the start of the grapheme cluster that
 * crosses it), or undefined when the whole text fits.
 */
export function overflowAt(platform: Platform, text: string, opts: CountOptions = {}): number | undefined {
  return overflowSearch(platform, text, opts).at;
}

/**
 * overflowAt, with how far into the text the search read (`reach`: no character at or past it,
 * nor the text's length, changed the answer; Infinity when the search read to the end). An edit
 * at or past `reach` of a text that still does not fit leaves the point where it was.
 */
export function overflowSearch(
  platform: Platform,
  text: string,
  opts: CountOptions = {},
): { at: number | undefined; reach: number } {
  let reach = 0;
  const fits = (end: number) => {
    // A prefix's count reads the prefix; snapping `end` read the character at it.
    reach = Math.max(reach, end === text.length ? Infinity : end + 1);
    return end === 0 || countText(platform, text.slice(0, end), opts).valid;
  };
  if (text.length === 0 || countText(platform, text, opts).valid) return { at: undefined, reach: Infinity };
  // Galloping: the largest probed prefix that fits, and the first that does not.
  let lo = 0;
  let hi = text.length;
  // From the limit, small steps first: text just past the limit (typing on past it) is then
  // searched without reading to its end, so the answer holds while the end changes.
  const limit = Math.max(16, limitFor(platform, opts));
  for (let step = limit; ;) {
    const probe = snap(text, Math.min(text.length, lo + step));
    if (probe >= hi) {
      reach = Infinity; // stopped by the text's end
      break;
    }
    if (fits(probe)) {
      step = lo === 0 ? Math.max(16, limit >> 3) : step * 2;
      lo = probe;
    } else {
      hi = probe;
      break;
    }
  }
  // Bisect: lo fits, hi does not.
  while (hi - lo > 1) {
    let mid = snap(text, (lo + hi) >> 1);
    if (mid <= lo) mid = lo + 1;
    if (mid >= hi) break;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  // The cluster holding index lo crosses the limit: mark from where it starts.
  const from = Math.max(0, lo - 32);
  const to = lo + 32;
  reach = Math.max(reach, to >= text.length ? Infinity : to);
  const starts = graphemeBoundaries(text.slice(from, Math.min(text.length, to))).map((b) => b + from);
  let start = lo;
  for (const b of starts) if (b <= lo) start = b;
  return { at: start, reach };
}
