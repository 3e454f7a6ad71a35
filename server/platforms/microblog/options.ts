/**
 * The draft's post options as X's POST /2/tweets fields: a poll and a quote on the first post
 * (X takes neither with media, nor both together: the planner refuses those first), who may
 * reply and the disclosure flags on every post of the thread. Values X has no field for are
 * listed as dropped by text/post-options.ts and never reach here.
 */
import { parseQuoteUrl } from '../../../text/quote-url.js';
import type { PostInput } from '../adapter.js';

const REPLY_SETTINGS = {
  following: 'following',
  mentioned: 'mentionedUsers',
  accounts_you_follow: 'following',
  mentioned_only: 'mentionedUsers',
} as const;

export function xOptionFields(post: PostInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const o = post.options.post;
  const first = !post.replyTo;
  const control = post.options.replyControl ?? o?.replyControl;
  if (control && control in REPLY_SETTINGS) out.reply_settings = REPLY_SETTINGS[control as keyof typeof REPLY_SETTINGS];
  if (!o) return out;
  if (first && o.poll) out.poll = { options: o.poll.choices, duration_minutes: o.poll.durationMinutes };
  const quoted = first && !post.quote && o.quoteUrl ? parseQuoteUrl(o.quoteUrl) : null;
  if (quoted?.platform === 'microblog' && quoted.id) out.quote_tweet_id = quoted.id;
  if (o.aiGenerated) out.made_with_ai = true;
  if (o.paidPartnership) out.paid_partnership = true;
  return out;
}
