/**
 * What one network receives for a draft (docs/decisions.md §5) and whether it fits: the network's own
 * text when the draft has one (a line holding only `---` separates posts; media stays with the
 * post at the same position), else each post's plain text. LinkedIn has no threads: the first part
 * goes as the post (3000) and each later part as a comment on it, in order (1250 each). Herald's
 * comments carry text only, so the later parts' media go with the post, where nothing is lost.
 */
import { validatePost, type CountOptions, type MediaKind, type Platform, type Verdict } from './counting.js';
import { splitThreadText } from './split.js';
import { altTextProblem } from './alt-text.js';

export interface NetworkPost<M> {
  text: string;
  media: M[];
}

export function postsForNetwork<M>(
  platform: Platform,
  posts: readonly { plainText: string; media: readonly M[] }[],
  override?: string,
): NetworkPost<M>[] {
  let parts: NetworkPost<M>[];
  if (override !== undefined && override.trim() !== '') {
    parts = splitThreadText(override).map((text, i) => ({ text, media: [...(posts[i]?.media ?? [])] }));
  } else {
    parts = posts.map((p) => ({ text: p.plainText, media: [...p.media] }));
  }
  parts = parts.filter((p) => p.text.trim() !== '' || p.media.length > 0);
  return platform === 'problog' ? asPostAndComments(parts) : parts;
}

/** LinkedIn's shape of a thread: every part's media on the post, the later parts as text-only comments. */
export function asPostAndComments<P extends { text: string; media: unknown[] }>(parts: P[]): P[] {
  if (parts.length < 2) return parts;
  const media = parts.flatMap((p) => p.media);
  const comments = parts.slice(1).filter((p) => p.text.trim() !== '');
  return [{ ...parts[0], media } as P, ...comments.map((p) => ({ ...p, media: [] }) as P)];
}

const commentOptions = new WeakMap<CountOptions, CountOptions>();
const NO_OPTIONS: CountOptions = Object.freeze({});

/**
 * The counting options of part `index`: on LinkedIn a later part is a comment, with the comment's
 * limit. The same options give the same (frozen) object, so callers can remember by it.
 */
export function partOptions(platform: Platform, index: number, opts: CountOptions = NO_OPTIONS): CountOptions {
  if (platform !== 'problog' || index === 0) return opts;
  let c = commentOptions.get(opts);
  if (!c) commentOptions.set(opts, (c = Object.freeze({ ...opts, comment: true })));
  return c;
}

/**
 * Each post's verdict for the network, and whether the whole thread may be sent. `alts`: each
 * item's alt text, checked against the network's alt-text limit (alt-text.ts).
 */
export function checkNetworkPosts(
  platform: Platform,
  posts: readonly { text: string; media: readonly MediaKind[]; alts?: readonly (string | null | undefined)[] }[],
  opts: CountOptions = {},
): { valid: boolean; posts: Verdict[] } {
  const verdicts = posts.map((p, i) => {
    const v = validatePost(platform, p.text, p.media, partOptions(platform, i, opts));
    const alt = v.valid && p.alts ? altTextProblem(platform, p.alts, p.media, opts) : undefined;
    return alt ? { ...v, valid: false, reason: alt } : v;
  });
  return { valid: posts.length > 0 && verdicts.every((v) => v.valid), posts: verdicts };
}
