/** Adds each network's video limits to a draft's per-network verdicts (the composer's and the API's). */
import type { Platform } from '../../core/config.js';
import type { MediaFacts } from '../../db/repos/publish-inputs.repo.js';
import { videoProblem } from '../../../text/video-limits.js';

interface Checked {
  valid: boolean;
  posts: { valid: boolean; reason?: string }[];
}

export function withVideoLimits<T extends Checked>(
  platform: Platform,
  meta: Record<string, unknown>,
  posts: readonly { media: readonly { mediaId: string }[] }[],
  facts: Map<string, MediaFacts>,
  checked: T,
): T {
  let valid = checked.valid;
  const out = checked.posts.map((v, i) => {
    if (!v.valid) return v;
    for (const m of posts[i]?.media ?? []) {
      const f = facts.get(m.mediaId);
      if (f?.type !== 'video') continue;
      const reason = videoProblem(platform, f, meta);
      if (reason) {
        valid = false;
        return { ...v, valid: false, reason };
      }
    }
    return v;
  });
  return { ...checked, valid, posts: out };
}
