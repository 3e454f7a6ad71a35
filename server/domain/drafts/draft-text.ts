/**
 * The text side of drafts: tweets as stored (sanitised HTML, plain text, positions, template
 * head and tail) and as checked (each target network's count and limit, docs/decisions.md §4).
 */
import {
  countOptionsFromMeta,
  strictest,
  TextFacts,
  partOptions,
  validatePost,
  type CountOptions,
  type MediaKind,
  type Platform,
  type Verdict,
} from '../../../text/index.js';
import { createHash } from 'node:crypto';
import type { AccountRow } from '../../db/repos/accounts.repo.js';
import { htmlToPlain, normaliseContent, plainToHtml } from '../content/html.js';

export interface MediaRef {
  mediaId: string;
  altText?: string;
}

export interface TweetInput {
  content: string;
  position?: number;
  media?: MediaRef[];
}

export interface PreparedTweet {
  position: number;
  content: string;
  plainText: string;
  media: MediaRef[];
}

export interface TemplateParts {
  headHtml: string;
  headPlain: string;
  tailHtml: string;
  tailPlain: string;
}

/** The rules a draft is checked against: one set of counting options per target account. */
export type TargetRules = Map<Platform, CountOptions[]>;

const sideHtml = (html: string, plain: string) => (html.trim() !== '' ? html : plainToHtml(plain));

/**
 * Sanitises each post, orders the posts by the positions given (stable; a post without one keeps
 * its place in the list) and numbers them 0..n-1; a template's head becomes a paragraph before
 * the first post and its tail one after the last.
 */
export function prepareTweets(input: TweetInput[], template?: TemplateParts): PreparedTweet[] {
  const ordered = input
    .map((t, i) => ({ t, key: t.position ?? i, i }))
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .map(({ t }) => t);
  const out = ordered.map((t, position) => ({
    position,
    ...normaliseContent(t.content),
    media: (t.media ?? []).map(copyRef),
  }));
  if (template && out.length > 0) {
    const head = sideHtml(template.headHtml, template.headPlain);
    const tail = sideHtml(template.tailHtml, template.tailPlain);
    if (head !== '') {
      const first = out[0];
      first.content = head + first.content;
      first.plainText = htmlToPlain(first.content);
    }
    if (tail !== '') {
      const last = out[out.length - 1];
      last.content = last.content + tail;
      last.plainText = htmlToPlain(last.content);
    }
  }
  return out;
}

const copyRef = (m: MediaRef): MediaRef =>
  m.altText === undefined ? { mediaId: m.mediaId } : { mediaId: m.mediaId, altText: m.altText };

const parseMeta = (meta: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(meta) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** Target rules from the target accounts; with none, microblog with its defaults (docs/decisions.md §4). */
export function rulesFor(targets: AccountRow[]): TargetRules {
  const rules: TargetRules = new Map();
  for (const a of targets) {
    const platform = a.platform as Platform;
    const list = rules.get(platform) ?? [];
    list.push(countOptionsFromMeta(platform, parseMeta(a.meta)));
    rules.set(platform, list);
  }
  if (rules.size === 0) rules.set('microblog', [{}]);
  return rules;
}

/** The binding verdict for one network among its accounts' options. */
export function verdictFor(
  platform: Platform,
  text: string,
  media: MediaKind[],
  options: CountOptions[] = [{}],
  facts?: TextFacts,
): Verdict {
  return strictest((options.length ? options : [{}]).map((o) => validatePost(platform, text, media, o, facts)));
}

export interface TweetCheck {
  characterCount: number;
  isValid: boolean;
  validation: Record<string, Verdict>;
}

/** A stable key for a set of rules, so checks can be remembered across reads. */
export function rulesKey(rules: TargetRules): string {
  return JSON.stringify([...rules].sort((a, b) => a[0].localeCompare(b[0])));
}

// Counting is pure but not free (up to a few ms for 100,000 characters on five networks), and
// drafts are read far more often than written, so results are kept: one map per set of rules,
// keyed by media kinds and text. A long text is keyed by its SHA-256 instead (hashing is ~20×
// cheaper than counting, and the key stays small), so listing drafts never counts a stored text
// again once it was counted on write or on a first read (issue #19 item 1). The count is capped
// (the oldest set of rules goes first), so memory stays bounded (tens of MB at most); the cap is
// sized to hold a large library (10,000 drafts of 3 posts) so full listings stay warm.
const CACHE_MAX = 60_000;
const CACHE_TEXT_MAX = 4000;
const cache = new Map<string, Map<string, TweetCheck>>();
let cached = 0;

const textKey = (text: string) =>
  text.length > CACHE_TEXT_MAX ? `\u0001sha256:${createHash('sha256').update(text).digest('base64')}` : text;

/**
 * checkTweet, remembered by (rules, media kinds, text, whether it is a later part). Callers must not
 * mutate the result.
 */
export function checkTweetCached(
  plainText: string,
  media: MediaKind[],
  rules: TargetRules,
  key: string,
  later = false,
): TweetCheck {
  // A later part is a comment on LinkedIn, with its own limit.
  if (later && rules.has('problog')) key = `${key}\u0001later`;
  let byText = cache.get(key);
  if (!byText) {
    byText = new Map();
    cache.set(key, byText);
  }
  const k = media.length === 0 ? textKey(plainText) : `${media.join(',')}\u0000${textKey(plainText)}`;
  const hit = byText.get(k);
  if (hit) return hit;
  const result = checkTweet(plainText, media, rules, later);
  if (cached >= CACHE_MAX) {
    // Drop the oldest set of rules whole (accounts changed since): simple and rarely needed.
    const [oldestKey, oldest] = cache.entries().next().value!;
    cached -= oldest.size;
    cache.delete(oldestKey);
    if (oldestKey === key) {
      byText = new Map();
      cache.set(key, byText);
    }
  }
  byText.set(k, result);
  cached += 1;
  return result;
}

export function checkTweet(plainText: string, media: MediaKind[], rules: TargetRules, later = false): TweetCheck {
  const validation: Record<string, Verdict> = {};
  let isValid = plainText.trim() !== '' || media.length > 0;
  // One text, several networks: grapheme clusters and URLs are worked out once.
  const facts = new TextFacts(plainText);
  for (const [platform, options] of rules) {
    const own = later ? options.map((o) => partOptions(platform, 1, o)) : options;
    const v = verdictFor(platform, plainText, media, own, facts);
    validation[platform] = v;
    if (!v.valid) isValid = false;
  }
  return { characterCount: facts.graphemes.count, isValid, validation };
}
