/**
 * The draft's post options as Mastodon's POST /api/v1/statuses fields: a poll (never with media;
 * the planner refuses that first) and a quote on the first post, the content warning
 * (`spoiler_text`, which also marks media sensitive), sensitive media, the visibility
 * (followers = private) and who may quote (`quote_approval_policy`, API version 7 and up) on
 * every post of the thread.
 */
import { parseQuoteUrl } from '../../../text/quote-url.js';
import type { PostInput } from '../adapter.js';

const VISIBILITY = { public: 'public', unlisted: 'unlisted', followers: 'private' } as const;
const QUOTE_POLICY = { everyone: 'public', followers: 'followers', nobody: 'nobody' } as const;

export interface MastoOptionFields {
  fields: Record<string, unknown>;
  /** The id of a status on this instance to quote (the URL's own host), when the options name one. */
  quoteId?: string;
}

export function mastoOptionFields(post: PostInput, server: string, apiVersion: number): MastoOptionFields {
  const o = post.options.post;
  const fields: Record<string, unknown> = {};
  if (!o) return { fields };
  const first = !post.replyTo;
  if (o.visibility) fields.visibility = VISIBILITY[o.visibility];
  if (o.contentWarning) {
    fields.spoiler_text = o.contentWarning;
    fields.sensitive = true;
  }
  if (o.sensitiveMedia && post.media.length > 0) fields.sensitive = true;
  if (o.quoteControl && apiVersion >= 7) fields.quote_approval_policy = QUOTE_POLICY[o.quoteControl];
  if (first && o.poll) {
    fields.poll = {
      options: o.poll.choices,
      expires_in: o.poll.durationMinutes * 60,
      multiple: o.poll.multiple === true,
    };
  }
  const quoted = first && o.quoteUrl ? parseQuoteUrl(o.quoteUrl) : null;
  const sameHost = quoted && new URL(quoted.url).host === new URL(server).host;
  return { fields, ...(quoted?.platform === 'fedblog' && sameHost && quoted.id ? { quoteId: quoted.id } : {}) };
}
