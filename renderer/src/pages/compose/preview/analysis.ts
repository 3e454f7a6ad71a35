/**
 * Counting for the composer, memoised: a keystroke changes one post, so the verdicts, links,
 * entities and overflow points of every other post (and network) are answered from here without
 * counting again, and the changed text is scanned once (graphemes, URLs, mentions, tags) for all
 * five networks. The rules themselves are text/'s; nothing is counted differently here.
 */
import {
  addMeasures,
  countSegments,
  entitiesFor,
  linksIn,
  measureText,
  overflowSearch,
  scanEntities,
  SEGMENT,
  TextFacts,
  validatePost,
  type CountOptions,
  type Entity,
  type EntityScan,
  type MediaKind,
  type Measure,
  type Platform,
  type Verdict,
} from '../../../../../text/index';

const MAX = 4000;

export const optsKey = (o: CountOptions) =>
  `${o.maxCharacters ?? ''},${o.charactersReservedPerUrl ?? ''},${o.maxMediaAttachments ?? ''}${o.comment ? ',c' : ''}`;

/** A bounded map: cleared whole when full (the composer's texts are few; the next keys refill it). */
class BoundedMap<T> extends Map<string, T> {
  constructor(private readonly max = MAX) {
    super();
  }

  override set(key: string, value: T): this {
    if (this.size >= this.max && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}

/** A bounded memo over a BoundedMap (an undefined answer is remembered too). */
function memo<T>(max = MAX) {
  const map = new BoundedMap<T>(max);
  return (key: string, make: () => T): T => {
    const hit = map.get(key);
    if (hit !== undefined || map.has(key)) return hit as T;
    const v = make();
    map.set(key, v);
    return v;
  };
}

// Per text: a few hundred texts at most are live (the parts of a thread, each network's own text,
// the pieces of long ones).
interface Known {
  facts: TextFacts;
  /** A long text's pieces (text/segments.ts): each is counted once, so an edit recounts one. */
  pieces?: string[];
  scan?: EntityScan;
  links?: string[];
  measures?: Map<string, Measure>;
  verdicts?: Map<string, Verdict>;
  entities?: Map<Platform, Entity[]>;
}
const facts = new BoundedMap<Known>(1024);

/** Longer texts are counted in pieces. */
const LONG = 2 * SEGMENT;

/**
 * What is known about one text (its graphemes and URLs, counted once for every network). Asked
 * for every post of every network on every key: a hit allocates nothing.
 */
function factsOf(text: string): Known {
  const hit = facts.get(text);
  if (hit) return hit;
  const pieces = text.length > LONG ? countSegments(text) : undefined;
  const known: Known =
    pieces && pieces.length > 1
      ? {
          facts: TextFacts.joined(
            text,
            pieces.map((p) => factsOf(p).facts),
          ),
          pieces,
        }
      : { facts: new TextFacts(text) };
  facts.set(text, known);
  return known;
}

/** The links of `text` (text/links.ts), found once per text (per piece in a long one). */
export function linksOf(text: string): string[] {
  const f = factsOf(text);
  return (f.links ??= f.pieces ? [...new Set(f.pieces.flatMap(linksOf))] : linksIn(text));
}

/** measureText, remembered per text (a piece), network and options. */
function measureOf(platform: Platform, text: string, opts: CountOptions): Measure {
  const f = factsOf(text);
  const byNetwork = (f.measures ??= new Map());
  const key = `${platform}\u0001${optsKey(opts)}`;
  let m = byNetwork.get(key);
  if (!m) byNetwork.set(key, (m = measureText(platform, text, opts, f.facts)));
  return m;
}

// The network-and-options part of a verdict's key, made once per options object (a thread's
// options are the same objects from key to key).
const networkKeys = new WeakMap<CountOptions, Map<Platform, string>>();
function networkKey(platform: Platform, opts: CountOptions): string {
  let byPlatform = networkKeys.get(opts);
  if (!byPlatform) networkKeys.set(opts, (byPlatform = new Map()));
  let k = byPlatform.get(platform);
  if (k === undefined) byPlatform.set(platform, (k = `${platform}\u0001${optsKey(opts)}`));
  return k;
}

/**
 * validatePost, remembered per text, then per network, options and media kinds. Keyed by the
 * text first: an unchanged post's text is the same string, whose hash the engine keeps, so
 * looking up the parts a key did not touch costs nothing in proportion to their length.
 */
export function verdictOf(
  platform: Platform,
  text: string,
  media: readonly MediaKind[] = [],
  opts: CountOptions = {},
): Verdict {
  const f = factsOf(text);
  const byNetwork = (f.verdicts ??= new Map());
  const key = media.length ? `${networkKey(platform, opts)}\u0001${media.join(',')}` : networkKey(platform, opts);
  let v = byNetwork.get(key);
  if (!v) {
    const measured = f.pieces?.map((p) => measureOf(platform, p, opts)).reduce(addMeasures);
    byNetwork.set(key, (v = validatePost(platform, text, media, opts, f.facts, measured)));
  }
  return v;
}

/** entitiesFor, remembered; the URLs, mentions and tags are found once per text for all networks. */
export function entitiesOf(platform: Platform, text: string): Entity[] {
  const f = factsOf(text);
  const byNetwork = (f.entities ??= new Map());
  let e = byNetwork.get(platform);
  if (!e) byNetwork.set(platform, (e = entitiesFor(platform, text, (f.scan ??= scanEntities(text, f.facts.urls)))));
  return e;
}

const overflows = memo<number | undefined>();
/** The last overflow found per network and options, with how far into the text its search read. */
const lastOverflow = new Map<string, { text: string; at: number; reach: number }>();
/**
 * overflowAt, remembered. Typing past the limit changes the text after the overflow point: when
 * the text up to everything the search looked at is unchanged (and the text still does not fit),
 * the point is the same, so it is not searched for again.
 */
export function overflowOf(platform: Platform, text: string, opts: CountOptions = {}): number | undefined {
  const k = `${platform}\u0001${optsKey(opts)}`;
  return overflows(`${k}\u0001${text}`, () => {
    const last = lastOverflow.get(k);
    if (
      last &&
      text.length > last.reach &&
      last.text.length > last.reach &&
      text.startsWith(last.text.slice(0, last.reach)) &&
      !verdictOf(platform, text, [], opts).valid
    ) {
      return last.at;
    }
    const { at, reach } = overflowSearch(platform, text, opts);
    if (at !== undefined) lastOverflow.set(k, { text, at, reach });
    return at;
  });
}
