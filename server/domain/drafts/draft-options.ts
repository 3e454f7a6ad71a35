/**
 * The facts a draft's options are checked with that live on an account: a Mastodon instance's
 * poll limits, kept on the account's meta when it was identified (seconds there, minutes here).
 */
import { pollAsText, type NetworkPollLimits, type Platform, type PostOptionsValue } from '../../../text/index.js';

export function pollLimitsFromMeta(
  platform: Platform,
  meta: Record<string, unknown>,
): Partial<NetworkPollLimits> | undefined {
  if (platform !== 'fedblog') return undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
  const out: Partial<NetworkPollLimits> = {};
  const maxChoices = num(meta.poll_max_options);
  const choiceMax = num(meta.poll_max_characters_per_option);
  const min = num(meta.poll_min_expiration);
  const max = num(meta.poll_max_expiration);
  if (maxChoices) out.maxChoices = maxChoices;
  if (choiceMax) out.choiceMax = choiceMax;
  if (min) out.minMinutes = Math.ceil(min / 60);
  if (max) out.maxMinutes = Math.floor(max / 60);
  return out;
}

/** Bluesky's poll fallback as the preview shows it: the choices as numbered lines of the first post. */
export function withPollText<P extends { text: string }>(
  platform: Platform,
  options: PostOptionsValue | null,
  posts: P[],
): P[] {
  const poll = options?.poll;
  if (platform !== 'skyblog' || !poll || options?.pollFallback !== 'text' || !posts[0]) return posts;
  return [{ ...posts[0], text: pollAsText(posts[0].text, poll) }, ...posts.slice(1)];
}
