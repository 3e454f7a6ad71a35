/**
 * Confirming a handed-off post (docs/decisions.md §14, "Mastodon hand-off"): when its entry falls due,
 * the network was to publish it itself (scheduling/hand-off.service.ts). The publication then
 * runs like any other (planned, charged, its part marked sending, published with its URL, the
 * `post.published` event), except that the adapter's `publishPost` is replaced by a lookup: the
 * account's recent posts are searched for the post's text from its time on (`findRecentPost`;
 * Mastodon deletes the ScheduledStatus when it publishes, and Herald asks for no read scope to
 * look at scheduled statuses). Not there yet: a transient failure, so the retry policy looks
 * again after about 1 and 5 minutes; never sent by Herald, so never twice.
 */
import type { PlatformAdapter } from '../../platforms/adapter.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';

/** What a handed-off publication carries in its options. */
export interface HandedOff {
  /** The network's id of the scheduled post. */
  id: string;
  /** The instant the network was to publish it. */
  at: number;
}

/** The adapter with `publishPost` replaced by finding the post the network published itself. */
export function confirmingAdapter(adapter: PlatformAdapter, handedOff: HandedOff): PlatformAdapter {
  return {
    ...adapter,
    publishPost: async (ctx, post) => {
      const found = await adapter.findRecentPost(ctx, {
        text: post.text,
        since: handedOff.at,
        idempotencyKey: post.idempotencyKey,
      });
      if (found) return found;
      throw new PlatformError(
        adapter.platform,
        'transient',
        `${NETWORK_NAMES[adapter.platform]} was to publish this post itself at ` +
          `${new Date(handedOff.at).toISOString()} (scheduled post ${handedOff.id}) and does not show it yet; ` +
          `Herald looks again`,
        { code: 'hand_off_unconfirmed' },
      );
    },
  };
}
