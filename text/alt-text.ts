/**
 * Alt text against each network's limit, counted the way that network counts (docs/decisions.md
 * §11): Bluesky in grapheme clusters, the others in characters (Unicode code points, as X, Mastodon,
 * Threads and LinkedIn measure a string). Alt text over a limit makes the post invalid for that
 * network and is never cut: the reason names the item and both numbers. The composer and the
 * server both import this, so they count alike.
 */
import { graphemeCount, type CountOptions, type MediaKind } from './counting.js';
import { ALT_TEXT_LIMITS } from './draft-limits.js';
import { NETWORK_LABELS, type Platform } from './networks.js';

/** The alt-text limit of `platform` for an account (a Mastodon instance's own `description_limit`). */
export function altTextLimit(platform: Platform, opts: CountOptions = {}): number {
  if (platform === 'fedblog' && opts.altTextLimit && opts.altTextLimit > 0) return opts.altTextLimit;
  return ALT_TEXT_LIMITS[platform];
}

/** How long `alt` is as `platform` counts it. */
export function altTextCount(platform: Platform, alt: string): number {
  if (platform === 'skyblog') return graphemeCount(alt);
  let n = 0;
  for (const _ of alt) n++;
  return n;
}

const KIND_WORD: Record<MediaKind, string> = { image: 'image', gif: 'GIF', video: 'video', document: 'document' };

/**
 * Why a post's alt texts do not fit `platform`, or undefined. `alts[i]` belongs to the post's
 * item `i`, of kind `kinds[i]` (image when unknown).
 */
export function altTextProblem(
  platform: Platform,
  alts: readonly (string | null | undefined)[],
  kinds: readonly MediaKind[] = [],
  opts: CountOptions = {},
): string | undefined {
  const limit = altTextLimit(platform, opts);
  for (let i = 0; i < alts.length; i++) {
    const alt = alts[i]?.trim() ?? '';
    // Most alt texts are far under every limit: only long ones are counted.
    if (alt.length <= limit) continue;
    const count = altTextCount(platform, alt);
    if (count <= limit) continue;
    const item = `${KIND_WORD[kinds[i] ?? 'image']} ${i + 1}`;
    return `the alt text of ${item} has ${count} characters, over ${NETWORK_LABELS[platform]}'s limit of ${limit}`;
  }
  return undefined;
}
