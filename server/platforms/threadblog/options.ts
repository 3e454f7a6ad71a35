/**
 * The draft's post options as Threads container parameters: a poll (`poll_attachment`, TEXT posts
 * only; the planner refuses one with media), the topic tag and a quote on the first post; who may
 * reply, the content warning (one SPOILER entity over the whole text) and spoiler media on every
 * post. Threads quotes by media id, which a post's link does not hold: the quoted post is looked
 * up among this account's own posts by its link (`findOwn`).
 */
import { parseQuoteUrl } from '../../../text/quote-url.js';
import type { PostInput } from '../adapter.js';
import { PlatformError } from '../errors.js';

const REPLY_CONTROL = {
  everyone: 'everyone',
  following: 'accounts_you_follow',
  mentioned: 'mentioned_only',
  followers: 'followers_only',
  nobody: 'parent_post_author_only',
} as const;

export async function threadsOptionParams(
  post: PostInput,
  findOwn: (code: string) => Promise<string | null>,
): Promise<Record<string, string | undefined>> {
  const o = post.options.post;
  const out: Record<string, string | undefined> = {};
  const control = post.options.replyControl ?? (o?.replyControl ? REPLY_CONTROL[o.replyControl] : undefined);
  if (control) out.reply_control = control;
  if (!o) return out;
  const first = !post.replyTo;
  if (o.contentWarning && post.text)
    out.text_entities = JSON.stringify([{ entity_type: 'SPOILER', offset: 0, length: [...post.text].length }]);
  if (o.sensitiveMedia && post.media.length > 0) out.is_spoiler_media = 'true';
  if (!first) return out;
  if (o.topicTag) out.topic_tag = o.topicTag;
  if (o.poll) {
    const keys = ['option_a', 'option_b', 'option_c', 'option_d'];
    out.poll_attachment = JSON.stringify(Object.fromEntries(o.poll.choices.map((c, i) => [keys[i], c])));
  }
  const quoted = !post.quote && o.quoteUrl ? parseQuoteUrl(o.quoteUrl) : null;
  if (quoted?.platform === 'threadblog' && quoted.code) {
    const id = await findOwn(quoted.code);
    if (!id)
      throw new PlatformError(
        'threadblog',
        'permanent',
        `Threads quotes by post id, and ${quoted.url} is not among this account's posts: quote it in the Threads app`,
      );
    out.quote_post_id = id;
  }
  return out;
}
