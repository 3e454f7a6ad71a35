/**
 * The draft's post options as LinkedIn Posts API fields: a poll as `content.poll` (its question
 * the given one, else the post's text; the duration rounded up to 1, 3, 7 or 14 days; the
 * planner refuses a poll with media or without a question that fits), the visibility
 * (followers = CONNECTIONS), resharing turned off (quoteControl nobody), and a reshare of the
 * LinkedIn post the quote URL names.
 */
import { linkedInPollDays } from '../../../text/post-options.js';
import { parseQuoteUrl } from '../../../text/quote-url.js';
import type { PostInput } from '../adapter.js';

const DURATION = { 1: 'ONE_DAY', 3: 'THREE_DAYS', 7: 'SEVEN_DAYS', 14: 'FOURTEEN_DAYS' } as const;
const VISIBILITY = { public: 'PUBLIC', followers: 'CONNECTIONS' } as const;

export function linkedInOptionFields(post: PostInput): Record<string, unknown> {
  const o = post.options.post;
  const out: Record<string, unknown> = {};
  if (!o) return out;
  if (o.visibility === 'public' || o.visibility === 'followers') out.visibility = VISIBILITY[o.visibility];
  if (o.quoteControl === 'nobody') out.isReshareDisabledByAuthor = true;
  if (o.poll) {
    out.content = {
      poll: {
        question: o.poll.question ?? post.text.trim(),
        options: o.poll.choices.map((text) => ({ text })),
        settings: { duration: DURATION[linkedInPollDays(o.poll.durationMinutes)] },
      },
    };
  }
  const quoted = !post.quote && o.quoteUrl ? parseQuoteUrl(o.quoteUrl) : null;
  if (quoted?.platform === 'problog' && quoted.id) out.reshareContext = { parent: quoted.id };
  return out;
}
