/**
 * Rich-text facets for a Bluesky post (docs/decisions.md §19.2): links, mentions and hashtags, each
 * with an index in UTF-8 bytes of `text` (start inclusive, end exclusive), never UTF-16 code
 * units: an emoji before a link moves a JS index by 2 but a byte offset by 4. The text is never
 * changed after the offsets are computed. Mentions carry a DID; a handle that does not resolve
 * gets no facet (it stays plain text).
 */

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** A span found in the text, in UTF-16 indexes (converted to bytes at the end). */
interface Span {
  start: number;
  end: number;
  kind: 'link' | 'mention' | 'tag';
  /** The URL, the handle (without @) or the tag (without #). */
  value: string;
}

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
/** A handle: two or more DNS labels, the last one starting with a letter. */
const HANDLE = `${LABEL}(?:\\.${LABEL})*\\.[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`;
const MENTION_RE = new RegExp(`(^|[\\s(])@(${HANDLE})(?![a-zA-Z0-9-]|\\.[a-zA-Z0-9])`, 'gu');
const URL_RE = /(^|[\s(])(https?:\/\/[^\s]+)/giu;
/** Bare domains become links only for these common endings, to avoid "file.txt"-style noise. */
const BARE_TLDS = new Set([
  'com',
  'org',
  'net',
  'io',
  'dev',
  'app',
  'social',
  'co',
  'me',
  'info',
  'blog',
  'xyz',
  'edu',
  'gov',
  'uk',
  'de',
  'fr',
  'jp',
  'ca',
  'eu',
]);
const BARE_RE = new RegExp(`(^|[\\s(])((?:${LABEL}\\.)+([a-zA-Z]{2,24})(?:/[^\\s]*)?)`, 'gu');
const TAG_RE = /(^|\s)[#＃]([^\s#＃]+)/gu;
const TRAILING_PUNCT = /[.,;:!?'"\u2019\u201d]+$/u;

function trimUrl(raw: string): string {
  let url = raw.replace(TRAILING_PUNCT, '');
  // A closing parenthesis belongs to the URL only when the URL opened one.
  while (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) {
    url = url.slice(0, -1).replace(TRAILING_PUNCT, '');
  }
  return url;
}

function isWebUrl(candidate: string): boolean {
  try {
    const u = new URL(candidate);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length;

const overlaps = (a: Span, taken: Span[]) => taken.some((b) => a.start < b.end && b.start < a.end);

/** Finds links, mentions and hashtags; later kinds never overlap earlier ones. */
export function detectSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(URL_RE)) {
    const start = m.index! + m[1].length;
    const url = trimUrl(m[2]);
    if (isWebUrl(url)) spans.push({ start, end: start + url.length, kind: 'link', value: url });
  }
  for (const m of text.matchAll(BARE_RE)) {
    const start = m.index! + m[1].length;
    const raw = trimUrl(m[2]);
    const tld = /^(?:[^./]+\.)+([a-zA-Z]{2,24})/.exec(raw)?.[1]?.toLowerCase();
    if (!tld || !BARE_TLDS.has(tld)) continue;
    const span: Span = { start, end: start + raw.length, kind: 'link', value: `https://${raw}` };
    if (!overlaps(span, spans) && isWebUrl(span.value)) spans.push(span);
  }
  for (const m of text.matchAll(MENTION_RE)) {
    const start = m.index! + m[1].length;
    const span: Span = { start, end: start + 1 + m[2].length, kind: 'mention', value: m[2].toLowerCase() };
    if (!overlaps(span, spans)) spans.push(span);
  }
  for (const m of text.matchAll(TAG_RE)) {
    const start = m.index! + m[1].length;
    const tag = m[2].replace(/\p{P}+$/u, '');
    if (!tag || /^\d+$/.test(tag) || graphemes(tag) > 64) continue;
    const span: Span = { start, end: start + 1 + tag.length, kind: 'tag', value: tag };
    if (!overlaps(span, spans)) spans.push(span);
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** UTF-8 byte offset of a UTF-16 index of `text`. */
export const byteOffset = (text: string, index: number) => Buffer.byteLength(text.slice(0, index), 'utf8');

/**
 * The facets of `text`. `resolve` turns a handle into a DID, or null when it does not resolve
 * (that mention gets no facet).
 */
export async function buildFacets(text: string, resolve: (handle: string) => Promise<string | null>): Promise<Facet[]> {
  const facets: Facet[] = [];
  const dids = new Map<string, string | null>();
  for (const span of detectSpans(text)) {
    const index = { byteStart: byteOffset(text, span.start), byteEnd: byteOffset(text, span.end) };
    if (span.kind === 'link')
      facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#link', uri: span.value }] });
    else if (span.kind === 'tag')
      facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: span.value }] });
    else {
      if (!dids.has(span.value)) dids.set(span.value, await resolve(span.value));
      const did = dids.get(span.value);
      if (did) facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
    }
  }
  return facets;
}

/** Bluesky's length rule: at most 300 graphemes and 3000 bytes. */
export function textProblem(text: string): string | null {
  const g = graphemes(text);
  if (g > 300) return `Bluesky posts are limited to 300 characters; this one has ${g}`;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > 3000) return `Bluesky posts are limited to 3000 bytes; this one has ${bytes}`;
  return null;
}
