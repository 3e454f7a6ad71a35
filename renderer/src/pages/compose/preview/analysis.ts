/**
 * Counting for the composer, memoised: a keystroke changes one post, so the verdicts and
 * overflow points of every other post (and network) are answered from here without counting
 * again. The rules themselves are text/'s; nothing is counted differently here.
 */
import { overflowAt, TextFacts, validatePost, type CountOptions, type MediaKind, type Platform, type Verdict } from '../../../../../text/index';

const MAX = 4000;
const verdicts = new Map<string, Verdict>();
const overflows = new Map<string, number | undefined>();
let lastFacts: TextFacts | undefined;

export const optsKey = (o: CountOptions) => `${o.maxCharacters ?? ''},${o.charactersReservedPerUrl ?? ''},${o.maxMediaAttachments ?? ''}`;

function remember<T>(map: Map<string, T>, key: string, make: () => T): T {
  if (map.has(key)) return map.get(key) as T;
  if (map.size >= MAX) map.clear();
  const v = make();
  map.set(key, v);
  return v;
}

/** validatePost, remembered per network, options, media kinds and text. */
export function verdictOf(platform: Platform, text: string, media: readonly MediaKind[] = [], opts: CountOptions = {}): Verdict {
  return remember(verdicts, `${platform}\u0001${optsKey(opts)}\u0001${media.join(',')}\u0001${text}`, () => {
    // The same text is usually counted for every network in a row: share what they share.
    if (lastFacts?.text !== text) lastFacts = new TextFacts(text);
    return validatePost(platform, text, media, opts, lastFacts);
  });
}

/** overflowAt, remembered. */
export function overflowOf(platform: Platform, text: string, opts: CountOptions = {}): number | undefined {
  return remember(overflows, `${platform}\u0001${optsKey(opts)}\u0001${text}`, () => overflowAt(platform, text, opts));
}
