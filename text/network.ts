/**
 * What one network receives for a draft (docs/decisions.md §5) and whether it fits: the network's own
 * text when the draft has one (a line holding only `---` separates posts; media stays with the
 * post at the same position), else each post's plain text. LinkedIn has no threads, so its posts
 * are joined with a blank line into one post that must fit 3000.
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
  if (platform === 'problog' && parts.length > 1) {
    return [{ text: parts.map((p) => p.text).join('\n\n'), media: parts.flatMap((p) => p.media) }];
  }
  return parts;
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
  const verdicts = posts.map((p) => {
    const v = validatePost(platform, p.text, p.media, opts);
    const alt = v.valid && p.alts ? altTextProblem(platform, p.alts, p.media, opts) : undefined;
    return alt ? { ...v, valid: false, reason: alt } : v;
  });
  return { valid: posts.length > 0 && verdicts.every((v) => v.valid), posts: verdicts };
}
