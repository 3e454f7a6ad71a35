/**
 * X (microblog) over its real API v2 (docs/decisions.md §19.1): OAuth 2.0 + PKCE with rotating refresh
 * tokens, GET /2/users/me, POST /2/tweets (replies, quotes, communities, media), v2 media upload
 * with alt text, follow, and a lookup of recent posts to settle a post whose answer was lost.
 * A POST /2/tweets without an answer is `ambiguous`, never retried here: X has no idempotency
 * key and a blind retry either duplicates the post or hits the duplicate-content 403.
 */
import type { CallContext, Identity, PlatformAdapter, PostInput, PostRef } from './adapter.js';
import { PlatformError } from './errors.js';
import { bearer, joinUrl } from './http.js';
import { xCall } from './microblog/http.js';
import { deleteXPost, readXMetrics } from './microblog/after-publish.js';
import { checkXMediaMix, uploadXMedia } from './microblog/media.js';
import { microblogOAuth, refreshX } from './microblog/oauth.js';
import { xOptionFields } from './microblog/options.js';

interface XUser {
  id: string;
  name?: string;
  username: string;
  profile_image_url?: string;
  public_metrics?: { followers_count?: number; following_count?: number; tweet_count?: number };
}

interface XTweet {
  id: string;
  text: string;
  created_at?: string;
  referenced_tweets?: { type: string; id: string }[];
}

/** The public web address of a post. */
export function xPostUrl(username: string | undefined, id: string): string {
  return username ? `https://x.com/${encodeURIComponent(username)}/status/${id}` : `https://x.com/i/web/status/${id}`;
}

/** A community may be given as its id or its URL (`…/i/communities/<id>`). */
function communityIdOf(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  const last = trimmed.split('/').pop() ?? trimmed;
  if (!/^\d{1,19}$/.test(last))
    throw new PlatformError('microblog', 'permanent', `"${value}" is not an X community id or community link`);
  return last;
}

/** What X will echo back for a text: entities decoded, links (t.co-wrapped) and spacing folded. */
function comparable(text: string): string {
  return text
    .normalize('NFC')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\bhttps?:\/\/\S+/gi, '<link>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** X appends a t.co link for attached media; a match may differ by trailing links only. */
function sameText(published: string, wanted: string): boolean {
  const a = comparable(published);
  const b = comparable(wanted);
  if (a === b) return true;
  return a.replace(/( <link>)+$/, '') === b.replace(/( <link>)+$/, '');
}

function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

async function identify(ctx: Parameters<PlatformAdapter['identify']>[0]): Promise<Identity> {
  const url = new URL(joinUrl(ctx.network.apiUrl, '/2/users/me'));
  url.searchParams.set('user.fields', 'public_metrics,profile_image_url');
  const { body } = await xCall<{ data?: XUser }>(
    url.toString(),
    { headers: bearer(ctx.credentials.accessToken) },
    { what: 'read the account profile', signal: ctx.signal },
  );
  const user = body.data;
  if (!user?.id || !user.username)
    throw new PlatformError('microblog', 'transient', 'X answered the profile request without the user');
  return {
    platformUserId: String(user.id),
    username: user.username,
    displayName: user.name ?? user.username,
    avatar: user.profile_image_url ?? '',
    followersCount: user.public_metrics?.followers_count ?? 0,
    followingCount: user.public_metrics?.following_count ?? 0,
  };
}

async function publishPost(ctx: CallContext, post: PostInput): Promise<PostRef> {
  checkXMediaMix(post.media);
  if (!post.text.trim() && post.media.length === 0)
    throw new PlatformError('microblog', 'permanent', 'An X post needs text or media');
  const mediaIds: string[] = [];
  for (const item of post.media) mediaIds.push(await uploadXMedia(ctx, item));

  const body: Record<string, unknown> = {};
  if (post.text) body.text = post.text;
  if (mediaIds.length) body.media = { media_ids: mediaIds };
  if (post.replyTo) body.reply = { in_reply_to_tweet_id: post.replyTo.id };
  if (post.quote) body.quote_tweet_id = post.quote.id;
  if (post.options.communityId) body.community_id = communityIdOf(post.options.communityId);
  Object.assign(body, xOptionFields(post));

  const { body: answer } = await xCall<{ data?: { id?: string } }>(
    joinUrl(ctx.network.apiUrl, '/2/tweets'),
    {
      method: 'POST',
      headers: { ...bearer(ctx.credentials.accessToken), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    { what: 'publish the post', write: true, signal: ctx.signal },
  );
  const id = answer.data?.id;
  // X answered success without an id: it may well have posted, so this must be reconciled.
  if (!id)
    throw new PlatformError(
      'microblog',
      'ambiguous',
      "X answered without the new post's id; Herald will check whether it was published",
    );
  return { id: String(id), url: xPostUrl(ctx.account.username, String(id)) };
}

async function findRecentPost(
  ctx: CallContext,
  query: { text: string; replyTo?: PostRef; since: number },
): Promise<PostRef | null> {
  // A little slack for clock differences between this machine and X.
  const since = query.since - 2 * 60_000;
  let next: string | undefined;
  for (let page = 0; page < 4; page++) {
    const url = new URL(
      joinUrl(ctx.network.apiUrl, `/2/users/${encodeURIComponent(ctx.account.platformUserId)}/tweets`),
    );
    url.searchParams.set('max_results', '100');
    url.searchParams.set('tweet.fields', 'created_at,referenced_tweets');
    url.searchParams.set('start_time', isoSeconds(since));
    if (next) url.searchParams.set('pagination_token', next);
    const { body } = await xCall<{ data?: XTweet[]; meta?: { next_token?: string } }>(
      url.toString(),
      { headers: bearer(ctx.credentials.accessToken) },
      { what: 'look up recent posts', signal: ctx.signal },
    );
    for (const tweet of body.data ?? []) {
      if (tweet.created_at && Date.parse(tweet.created_at) < since) continue;
      const parent = tweet.referenced_tweets?.find((r) => r.type === 'replied_to')?.id;
      if ((query.replyTo?.id ?? undefined) !== (parent ?? undefined)) continue;
      if (!sameText(tweet.text, query.text)) continue;
      return { id: String(tweet.id), url: xPostUrl(ctx.account.username, String(tweet.id)) };
    }
    next = body.meta?.next_token;
    if (!next) return null;
  }
  throw new PlatformError(
    'microblog',
    'transient',
    'This account posted too much since then for Herald to be sure whether the post went out; check on X',
  );
}

async function follow(ctx: CallContext, targetUserId: string): Promise<void> {
  await xCall(
    joinUrl(ctx.network.apiUrl, `/2/users/${encodeURIComponent(ctx.account.platformUserId)}/following`),
    {
      method: 'POST',
      headers: { ...bearer(ctx.credentials.accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ target_user_id: targetUserId }),
    },
    { what: 'follow the account', signal: ctx.signal },
  );
}

export const microblogAdapter: PlatformAdapter = {
  platform: 'microblog',
  oauth: microblogOAuth,
  identify,
  refresh: (ctx) => refreshX(ctx.network, ctx.credentials),
  publishPost,
  findRecentPost,
  follow,
  deletePost: deleteXPost,
  editNote: "X's API cannot edit a published post; X allows deleting it (and posting the new text)",
  readMetrics: readXMetrics,
  metricsBatch: 100,
  metricsReadPriceKey: 'xReadPriceUsd',
};
