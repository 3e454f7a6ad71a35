/**
 * Threads (threadblog) over its real Graph API (docs/decisions.md §19.4): OAuth with a long-lived
 * token, GET /me, and publishing in two steps: a container (TEXT, IMAGE/VIDEO with alt text, or
 * a CAROUSEL of item containers) is created, polled until FINISHED, then published with
 * threads_publish, whose answer is the media id later replies need. Threads fetches media
 * itself, so every item needs a public URL; there is no byte upload: files of this computer go
 * through the media relay (threadblog/relayed-media.ts). Publishing too early
 * answers "Media Not Found" (code 24 / 4279009), which is retried a few times; a
 * threads_publish without an answer is `ambiguous`, never retried here.
 */
import { deleteThreadsPost, readThreadsMetrics } from './threadblog/after-publish.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallContext, Identity, MediaItem, PlatformAdapter, PostInput, PostRef } from './adapter.js';
import { inOrder, RelayedUploads } from './threadblog/relayed-media.js';
import { PlatformError } from './errors.js';
import { threadsOptionParams } from './threadblog/options.js';
import type { NetworkQuota } from './quotas.js';
import { formPost, graphCall, graphUrl, MEDIA_NOT_FOUND } from './threadblog/graph.js';
import { refreshThreads, threadblogOAuth } from './threadblog/oauth.js';

export interface ThreadblogOptions {
  /** Wait between container status checks, ms (Threads suggests checking every few seconds). */
  pollIntervalMs?: number;
  /** Longest wait for a container to be ready, ms. */
  processingTimeoutMs?: number;
  /** How often threads_publish is retried after "Media Not Found", and the wait before each retry. */
  mediaNotFoundRetries?: number;
  retryDelayMs?: number;
}

const DEFAULTS: Required<ThreadblogOptions> = {
  pollIntervalMs: 3_000,
  processingTimeoutMs: 5 * 60_000,
  mediaNotFoundRetries: 3,
  retryDelayMs: 5_000,
};

/** Threads allows 2–20 items in a carousel. */
const CAROUSEL_MAX = 20;

interface ThreadsPost {
  id: string;
  text?: string;
  timestamp?: string;
  permalink?: string;
  replied_to?: { id?: string };
}

/** The profile page, for a post whose permalink Threads does not give (flagged content). */
export function threadsProfileUrl(username: string): string {
  return `https://www.threads.net/@${encodeURIComponent(username)}`;
}

/** Threads echoes text back as sent, give or take normalisation and trailing spaces. */
function sameText(published: string | undefined, wanted: string): boolean {
  const fold = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();
  return fold(published ?? '') === fold(wanted);
}

async function wait(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch (err) {
    throw new PlatformError('threadblog', 'transient', 'Publishing to Threads was cancelled', { cause: err });
  }
}

/** Every item needs a public URL Threads can download, or the media relay to give it one. */
function checkMedia(media: MediaItem[], relay: CallContext['mediaRelay']): void {
  if (media.length > CAROUSEL_MAX) {
    throw new PlatformError(
      'threadblog',
      'permanent',
      `A Threads post can carry at most ${CAROUSEL_MAX} images or videos (this one has ${media.length})`,
    );
  }
  RelayedUploads.check(media, relay);
}

function mediaParams(item: MediaItem, url: string): Record<string, string | undefined> {
  const video = item.kind === 'video';
  return {
    media_type: video ? 'VIDEO' : 'IMAGE',
    [video ? 'video_url' : 'image_url']: url,
    alt_text: item.altText || undefined,
  };
}

export function createThreadblogAdapter(options: ThreadblogOptions = {}): PlatformAdapter {
  const opts = { ...DEFAULTS, ...options };

  const call = <T>(
    ctx: Pick<CallContext, 'network' | 'credentials' | 'signal'>,
    path: string,
    init: { params?: Record<string, string | undefined>; post?: boolean },
    what: string,
    write = false,
  ) => {
    const token = ctx.credentials.accessToken;
    const url = init.post
      ? graphUrl(ctx.network.apiUrl, path, {})
      : graphUrl(ctx.network.apiUrl, path, { ...init.params, access_token: token });
    const req = init.post ? formPost({ ...init.params, access_token: token }) : { method: 'GET' };
    return graphCall<T>(url, req, { what, write, signal: ctx.signal });
  };

  async function createContainer(
    ctx: CallContext,
    params: Record<string, string | undefined>,
    what: string,
  ): Promise<string> {
    const answer = await call<{ id?: string }>(
      ctx,
      `/${encodeURIComponent(ctx.account.platformUserId)}/threads`,
      { params, post: true },
      what,
    );
    if (!answer.id)
      throw new PlatformError('threadblog', 'transient', "Threads answered without the new container's id");
    return String(answer.id);
  }

  /** Polls a container until Threads has fetched and checked its content. */
  async function waitUntilReady(ctx: CallContext, containerId: string, relayed = false): Promise<void> {
    const deadline = Date.now() + opts.processingTimeoutMs;
    for (let tries = 0; ; tries++) {
      // Short waits first (an image is often ready within a second), then Threads' pace.
      const pause = Math.min(opts.pollIntervalMs, 100 * (tries + 1));
      const c = await call<{ status?: string; error_message?: string }>(
        ctx,
        `/${encodeURIComponent(containerId)}`,
        { params: { fields: 'status,error_message' } },
        'check that the post is ready',
      );
      if (c.status === 'FINISHED' || c.status === 'PUBLISHED') return;
      if (c.status === 'ERROR' && relayed) {
        throw new PlatformError(
          'threadblog',
          'permanent',
          `Threads could not fetch the file from the media relay (${c.error_message || 'no reason given'}): ` +
            `its address must be reachable from the internet; check the relay's endpoint or publicBaseUrl`,
        );
      }
      if (c.status === 'ERROR') {
        throw new PlatformError(
          'threadblog',
          'permanent',
          `Threads could not prepare the post (${c.error_message || 'no reason given'}); check that its ` +
            `media URLs are public and the files are supported images or videos`,
        );
      }
      if (c.status === 'EXPIRED')
        throw new PlatformError('threadblog', 'transient', 'The prepared Threads post expired before it was published');
      if (Date.now() + pause > deadline) {
        throw new PlatformError(
          'threadblog',
          'transient',
          `Threads was still processing the post after ${Math.round(opts.processingTimeoutMs / 1000)} s`,
        );
      }
      await wait(pause, ctx.signal);
    }
  }

  /** threads_publish, retried while Threads says the container's media is not there yet. */
  async function publishContainer(ctx: CallContext, containerId: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await call<{ id?: string }>(
          ctx,
          `/${encodeURIComponent(ctx.account.platformUserId)}/threads_publish`,
          { params: { creation_id: containerId }, post: true },
          'publish the post',
          true,
        );
        // A success without the id: the post may well exist, so it must be reconciled.
        if (!answer.id)
          throw new PlatformError(
            'threadblog',
            'ambiguous',
            "Threads answered without the new post's id; Herald will check whether it was published",
          );
        return String(answer.id);
      } catch (err) {
        if (
          !(err instanceof PlatformError && err.opts.code === MEDIA_NOT_FOUND) ||
          attempt >= opts.mediaNotFoundRetries
        )
          throw err;
        await wait(opts.retryDelayMs, ctx.signal);
      }
    }
  }

  async function permalink(ctx: CallContext, mediaId: string): Promise<string> {
    try {
      const post = await call<{ permalink?: string }>(
        ctx,
        `/${encodeURIComponent(mediaId)}`,
        { params: { fields: 'id,permalink' } },
        "read the post's link",
      );
      if (post.permalink) return post.permalink;
    } catch {
      // The post is published; a missing link must not turn that into a failure.
    }
    return threadsProfileUrl(ctx.account.username);
  }

  /** One of this account's posts by the code in its link (a quote's URL names no id). */
  async function ownPostByCode(ctx: CallContext, code: string): Promise<string | null> {
    const answer = await call<{ data?: ThreadsPost[] }>(
      ctx,
      `/${encodeURIComponent(ctx.account.platformUserId)}/threads`,
      { params: { fields: 'id,permalink', limit: '100' } },
      'find the quoted post',
    );
    const hit = (answer.data ?? []).find((p) => p.permalink?.split('/').filter(Boolean).pop() === code);
    return hit ? String(hit.id) : null;
  }

  /** The post's container: text alone, one item, or a carousel of up to 20 (uploads overlapped). */
  async function prepare(ctx: CallContext, post: PostInput, uploads: RelayedUploads): Promise<string> {
    const common: Record<string, string | undefined> = {
      text: post.text || undefined,
      reply_to_id: post.replyTo?.id,
      quote_post_id: post.quote?.id,
      ...(await threadsOptionParams(post, (code) => ownPostByCode(ctx, code))),
    };
    if (post.media.length === 0) return createContainer(ctx, { media_type: 'TEXT', ...common }, 'prepare the post');
    if (post.media.length === 1) {
      const item = post.media[0];
      const { url, object } = await uploads.urlFor(item);
      const id = await createContainer(
        ctx,
        { ...mediaParams(item, url), ...common },
        'prepare the post with its media',
      );
      await waitUntilReady(ctx, id, uploads.relayed(item));
      await uploads.release(object);
      return id;
    }
    // Each item's container is made as soon as its upload ends (RelayedUploads runs a few at a
    // time), and waited for there, so Threads fetches one file while the next ones upload; its
    // object goes once Threads has it.
    const children = await inOrder(post.media, CAROUSEL_MAX, async (item) => {
      const { url, object } = await uploads.urlFor(item);
      const id = await createContainer(
        ctx,
        { ...mediaParams(item, url), is_carousel_item: 'true' },
        'prepare an image of the post',
      );
      await waitUntilReady(ctx, id, uploads.relayed(item));
      await uploads.release(object);
      return id;
    });
    return createContainer(
      ctx,
      { media_type: 'CAROUSEL', children: children.join(','), ...common },
      'prepare the post',
    );
  }

  async function publishPost(ctx: CallContext, post: PostInput): Promise<PostRef> {
    checkMedia(post.media, ctx.mediaRelay);
    if (!post.text.trim() && post.media.length === 0)
      throw new PlatformError('threadblog', 'permanent', 'A Threads post needs text or media');
    const uploads = new RelayedUploads(ctx.mediaRelay, ctx.signal);
    let containerId: string;
    try {
      containerId = await prepare(ctx, post, uploads);
    } finally {
      await uploads.releaseAll();
    }
    await waitUntilReady(ctx, containerId);
    const mediaId = await publishContainer(ctx, containerId);
    return { id: mediaId, url: await permalink(ctx, mediaId) };
  }

  async function identify(ctx: Parameters<PlatformAdapter['identify']>[0]): Promise<Identity> {
    const me = await call<{ id?: string; username?: string; name?: string; threads_profile_picture_url?: string }>(
      ctx,
      '/me',
      { params: { fields: 'id,username,name,threads_profile_picture_url' } },
      'read the account profile',
    );
    if (!me.id || !me.username)
      throw new PlatformError('threadblog', 'transient', 'Threads answered the profile request without the user');
    return {
      platformUserId: String(me.id),
      username: me.username,
      displayName: me.name || me.username,
      avatar: me.threads_profile_picture_url ?? '',
      // Follower counts need the threads_manage_insights permission, which Herald does not ask for.
      followersCount: 0,
      followingCount: 0,
      meta: { profileUrl: threadsProfileUrl(me.username) },
    };
  }

  /**
   * Top-level posts are listed under /threads, replies under /replies; a reply is looked for in
   * both, and any failure to look is thrown so the post waits for the person instead. /replies
   * comes first because only it says what a post replies to: a post it shows under another
   * parent is not taken from /threads (which may list replies too, without their parent).
   */
  async function findRecentPost(
    ctx: CallContext,
    query: { text: string; replyTo?: PostRef; since: number },
  ): Promise<PostRef | null> {
    const since = query.since - 2 * 60_000;
    const lists = query.replyTo ? ['replies', 'threads'] : ['threads'];
    const otherParent = new Set<string>();
    for (const list of lists) {
      const fields = list === 'replies' ? 'id,text,timestamp,permalink,replied_to' : 'id,text,timestamp,permalink';
      const answer = await call<{ data?: ThreadsPost[] }>(
        ctx,
        `/${encodeURIComponent(ctx.account.platformUserId)}/${list}`,
        {
          params: { fields, since: String(Math.floor(since / 1000)), limit: '50' },
        },
        'look up recent posts',
      );
      for (const p of answer.data ?? []) {
        if (p.timestamp && Date.parse(p.timestamp) < since) continue;
        if (query.replyTo && p.replied_to?.id && p.replied_to.id !== query.replyTo.id) {
          otherParent.add(String(p.id));
          continue;
        }
        if (otherParent.has(String(p.id))) continue;
        if (!sameText(p.text, query.text)) continue;
        return { id: String(p.id), url: p.permalink ?? threadsProfileUrl(ctx.account.username) };
      }
    }
    return null;
  }

  /** GET /{user-id}/threads_publishing_limit (docs/decisions.md §19.4): rolling 24 h counts of posts and replies. */
  async function publishingQuota(ctx: CallContext): Promise<NetworkQuota[]> {
    type Config = { quota_total?: number; quota_duration?: number };
    const answer = await call<{
      data?: { quota_usage?: number; config?: Config; reply_quota_usage?: number; reply_config?: Config }[];
    }>(
      ctx,
      `/${encodeURIComponent(ctx.account.platformUserId)}/threads_publishing_limit`,
      { params: { fields: 'quota_usage,config,reply_quota_usage,reply_config' } },
      'read the publishing quota',
    );
    const d = answer.data?.[0];
    if (!d)
      throw new PlatformError('threadblog', 'transient', 'Threads answered the quota request without its figures');
    const window = (c: Config | undefined, limit: number) => ({
      limit: c?.quota_total ?? limit,
      windowMs: (c?.quota_duration ?? 86_400) * 1000,
    });
    return [
      { counts: 'post', used: d.quota_usage ?? 0, ...window(d.config, 250) },
      { counts: 'reply', used: d.reply_quota_usage ?? 0, ...window(d.reply_config, 1000) },
    ];
  }

  return {
    platform: 'threadblog',
    publishingQuota,
    oauth: threadblogOAuth,
    identify,
    refresh: (ctx) => refreshThreads(ctx.network, ctx.credentials, ctx.signal),
    // Long-lived tokens are renewed with themselves, so only while still valid.
    refreshMode: () => 'before_expiry',
    publishPost,
    findRecentPost,
    deletePost: deleteThreadsPost,
    editNote: 'Threads cannot edit a post through its API; Threads allows deleting it (and posting the new text)',
    readMetrics: readThreadsMetrics,
  };
}

export const threadblogAdapter = createThreadblogAdapter();
