/**
 * Where a post stops fitting a network: the UTF-16 index of the first character past the limit,
 * found by asking countText (the network's own rule) about prefixes, so no counting rule is
 * repeated here. Prefixes are probed galloping (limit, 2×, 4× … units) and then bisected, so
 * the work is in proportion to where the overflow starts, not to the length of the text.
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
  const fits = (end: number) => end === 0 || countText(platform, text.slice(0, end), opts).valid;
  if (fits(text.length)) return undefined;
  // Galloping: the largest probed prefix that fits, and the first that does not.
  let lo = 0;
  let hi = text.length;
  for (let step = Math.max(16, limitFor(platform, opts)); ; step *= 2) {
    const probe = snap(text, Math.min(text.length, lo + step));
    if (probe >= hi) break;
    if (fits(probe)) lo = probe;
    else {
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
  const starts = graphemeBoundaries(text.slice(from, Math.min(text.length, lo + 32))).map((b) => b + from);
  let start = lo;
  for (const b of starts) if (b <= lo) start = b;
  return start;
}
