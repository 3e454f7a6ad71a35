/**
 * Bluesky after publishing: com.atproto.repo.deleteRecord on the account's PDS, and counts by
 * app.bsky.feed.getPosts (25 posts a call), which the PDS answers through its AppView. A post the
 * AppView leaves out is checked on the PDS before it counts as gone (the AppView may lag).
 * Bluesky posts cannot be edited.
 */
import type { CallContext, PostRef } from '../adapter.js';
import { count, type DeleteOutcome, type MetricsRead, type PartRef } from '../after-publish.js';
import { PlatformError } from '../errors.js';
import { xrpc } from './xrpc.js';

export const GET_POSTS_MAX = 25;

interface Where {
  base: string;
  did: string;
}

function atParts(uri: string): { repo: string; collection: string; rkey: string } {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!m) throw new PlatformError('skyblog', 'permanent', `${uri} is not a Bluesky post address (at://…)`);
  return { repo: m[1]!, collection: m[2]!, rkey: m[3]! };
}

export async function deleteBlueskyPost(ctx: CallContext, where: Where, ref: PartRef): Promise<DeleteOutcome> {
  const at = atParts(ref.id);
  const exists = await recordExists(ctx, where, ref.id);
  if (!exists) return 'gone';
  await xrpc(where.base, 'com.atproto.repo.deleteRecord', {
    what: 'delete the post',
    token: ctx.credentials.accessToken,
    json: { repo: where.did, collection: at.collection, rkey: at.rkey },
    signal: ctx.signal,
  });
  return 'deleted';
}

async function recordExists(ctx: CallContext, where: Where, uri: string): Promise<boolean> {
  try {
    await xrpc(where.base, 'com.atproto.repo.getRecord', {
      what: 'look up the post',
      params: atParts(uri),
      signal: ctx.signal,
    });
    return true;
  } catch (err) {
    if (err instanceof PlatformError && (err.opts.code === 'RecordNotFound' || err.status === 404)) return false;
    throw err;
  }
}

interface PostView {
  uri: string;
  likeCount?: number;
  repostCount?: number;
  replyCount?: number;
  quoteCount?: number;
}

export async function readBlueskyMetrics(ctx: CallContext, where: Where, refs: PostRef[]): Promise<MetricsRead> {
  const out: MetricsRead = new Map();
  const body = await xrpc<{ posts?: PostView[] }>(where.base, 'app.bsky.feed.getPosts', {
    what: 'read the posts’ counts',
    token: ctx.credentials.accessToken,
    params: { uris: refs.slice(0, GET_POSTS_MAX).map((r) => r.id) },
    signal: ctx.signal,
  });
  for (const p of body.posts ?? [])
    out.set(p.uri, {
      likes: count(p.likeCount),
      reposts: count(p.repostCount),
      replies: count(p.replyCount),
      quotes: count(p.quoteCount),
      impressions: null,
    });
  for (const ref of refs) if (!out.has(ref.id) && !(await recordExists(ctx, where, ref.id))) out.set(ref.id, 'gone');
  return out;
}
