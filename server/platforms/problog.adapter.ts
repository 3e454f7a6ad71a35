/**
 * LinkedIn (problog) over its real REST API (docs/decisions.md §19.5): OAuth, /v2/userinfo for the
 * member's person URN, POST /rest/posts with the versioned headers and the text escaped as
 * "little text", images through the Images API, link cards as article shares (their thumbnail
 * through the Images API too), the new post's URN from the `x-restli-id`
 * header. LinkedIn has no threads: a thread's first part is the post and each later part (a reply
 * here) a comment on it (problog/comments.ts). A write without an answer is `ambiguous`, never
 * retried here.
 */
import { deleteLinkedinPost, editLinkedinPost, readLinkedinMetrics } from './problog/after-publish.js';
import type { CallContext, Identity, PlatformAdapter, PostInput, PostLinkCard, PostRef } from './adapter.js';
import { PlatformError } from './errors.js';
import { linkedInOptionFields } from './problog/options.js';
import { uploadImage, uploadImageBytes, type ImageOptions } from './problog/images.js';
import { uploadDocument, uploadVideo } from './problog/video.js';
import { escapeLittleText, unescapeLittleText } from './problog/little-text.js';
import { problogOAuth, refreshLinkedIn } from './problog/oauth.js';
import { joinUrl } from './http.js';
import { DEFAULT_LINKEDIN_VERSION, liCall, restHeaders } from './problog/rest.js';
import { deleteComment, findComment, isComment, postUrnOf, publishComment } from './problog/comments.js';

export interface ProblogOptions {
  /** The `LinkedIn-Version` header (YYYYMM). */
  version?: string;
  /** Wait between image status checks, ms. */
  pollIntervalMs?: number;
  /** Longest wait for LinkedIn to process an uploaded image, ms. */
  processingTimeoutMs?: number;
}

/** LinkedIn allows 2–20 images in a multi-image post. */
const IMAGES_MAX = 20;

interface UserInfo {
  sub?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
}

interface LinkedInPost {
  id?: string;
  author?: string;
  commentary?: string;
  createdAt?: number;
  publishedAt?: number;
  lifecycleState?: string;
}

/** The public web address of a post (the URN unencoded, as LinkedIn's own links have it). */
export function linkedinPostUrl(urn: string): string {
  return `https://www.linkedin.com/feed/update/${urn}`;
}

/** The author URN of the account: kept on the account when it was connected. */
function authorOf(ctx: Pick<CallContext, 'account'>): string {
  const urn = ctx.account.meta.personUrn;
  return typeof urn === 'string' && urn ? urn : `urn:li:person:${ctx.account.platformUserId}`;
}

const fold = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

export function createProblogAdapter(options: ProblogOptions = {}): PlatformAdapter {
  const images: ImageOptions = {
    version: options.version ?? DEFAULT_LINKEDIN_VERSION,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    processingTimeoutMs: options.processingTimeoutMs ?? 60_000,
  };
  const version = images.version;

  async function identify(ctx: Parameters<PlatformAdapter['identify']>[0]): Promise<Identity> {
    const { body } = await liCall<UserInfo>(
      joinUrl(ctx.network.apiUrl, '/v2/userinfo'),
      {
        headers: { authorization: `Bearer ${ctx.credentials.accessToken}`, accept: 'application/json' },
      },
      { what: 'read the account profile', signal: ctx.signal },
    );
    if (!body.sub)
      throw new PlatformError('problog', 'transient', 'LinkedIn answered the profile request without the member id');
    const name = body.name || [body.given_name, body.family_name].filter(Boolean).join(' ') || body.sub;
    return {
      platformUserId: body.sub,
      // LinkedIn members have no handle; their name stands in for it.
      username: name,
      displayName: name,
      avatar: body.picture ?? '',
      // Connection and follower counts need permissions Herald does not ask for.
      followersCount: 0,
      followingCount: 0,
      meta: { personUrn: `urn:li:person:${body.sub}` },
    };
  }

  /** The article of a link card, its thumbnail uploaded through the Images API (a refused thumbnail only drops it). */
  async function article(ctx: CallContext, author: string, card: PostLinkCard) {
    const out: Record<string, string> = { source: card.url, title: card.title || card.url };
    if (card.description) out.description = card.description;
    if (card.thumb) {
      try {
        out.thumbnail = await uploadImageBytes(
          ctx,
          author,
          new Blob([card.thumb.bytes as Uint8Array<ArrayBuffer>], { type: card.thumb.mime }),
          card.thumb.mime,
          images,
        );
      } catch (err) {
        if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'rate_limited')) throw err;
      }
    }
    return out;
  }

  async function publishPost(ctx: CallContext, post: PostInput): Promise<PostRef> {
    if (post.replyTo) {
      // The plan puts every part's media on the post: a comment here carries text only.
      if (post.media.length > 0)
        throw new PlatformError('problog', 'permanent', "Herald's LinkedIn comments carry text only, not media");
      return publishComment(ctx, {
        postUrn: postUrnOf(post.root, post.replyTo),
        actor: authorOf(ctx),
        text: post.text,
        version: ctx.network.version ?? version,
      });
    }
    if (post.media.length > IMAGES_MAX) {
      throw new PlatformError(
        'problog',
        'permanent',
        `A LinkedIn post can carry at most ${IMAGES_MAX} images (this one has ${post.media.length})`,
      );
    }
    if (!post.text.trim() && post.media.length === 0)
      throw new PlatformError('problog', 'permanent', 'A LinkedIn post needs text or images');
    const author = authorOf(ctx);
    const uploaded: { id: string; altText?: string; title?: string }[] = [];
    const single = post.media.find((m) => m.kind === 'video' || m.kind === 'document');
    if (single && post.media.length > 1)
      throw new PlatformError('problog', 'permanent', `A LinkedIn ${single.kind} goes alone in its post`);
    for (const item of post.media) {
      if (item.kind === 'video' || item.kind === 'document') {
        const id =
          item.kind === 'video'
            ? await uploadVideo(ctx, author, item, version, ctx.onProcessing)
            : await uploadDocument(ctx, author, item, version);
        uploaded.push({ id, title: item.title || (item.kind === 'document' ? 'Document' : undefined) });
        continue;
      }
      const id = await uploadImage(ctx, author, item, images);
      uploaded.push(item.altText ? { id, altText: item.altText } : { id });
    }
    const body: Record<string, unknown> = {
      author,
      commentary: escapeLittleText(post.text),
      visibility: post.options.visibility ?? 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    if (uploaded.length === 1) body.content = { media: uploaded[0] };
    if (uploaded.length > 1) body.content = { multiImage: { images: uploaded } };
    // A link card is an article share (docs/decisions.md §19.5); images win over it.
    if (uploaded.length === 0 && post.linkCard) body.content = { article: await article(ctx, author, post.linkCard) };
    if (post.quote) body.reshareContext = { parent: post.quote.id };
    Object.assign(body, linkedInOptionFields(post));

    const res = await liCall(
      joinUrl(ctx.network.apiUrl, '/rest/posts'),
      {
        method: 'POST',
        headers: {
          ...restHeaders(ctx.credentials.accessToken, ctx.network.version ?? version),
          'x-restli-method': 'CREATE',
        },
        body: JSON.stringify(body),
      },
      { what: 'publish the post', write: true, signal: ctx.signal },
    );
    const urn = res.headers.get('x-restli-id') ?? res.headers.get('x-linkedin-id');
    // Created without saying what: the post may well exist, so it must be reconciled.
    if (!urn)
      throw new PlatformError(
        'problog',
        'ambiguous',
        "LinkedIn answered without the new post's id; Herald will check whether it was published",
      );
    return { id: urn, url: linkedinPostUrl(urn) };
  }

  /**
   * Reads the member's recent posts (GET /rest/posts?q=author). LinkedIn grants that read only
   * to some apps; when it refuses, the error goes up and the post waits for the person.
   */
  async function findRecentPost(
    ctx: CallContext,
    query: { text: string; since: number; replyTo?: PostRef },
  ): Promise<PostRef | null> {
    const author = authorOf(ctx);
    if (query.replyTo) {
      const postUrn = postUrnOf(undefined, query.replyTo);
      return findComment(ctx, { ...query, postUrn, actor: author, version: ctx.network.version ?? version });
    }
    const url = new URL(joinUrl(ctx.network.apiUrl, '/rest/posts'));
    url.searchParams.set('author', author);
    url.searchParams.set('q', 'author');
    url.searchParams.set('count', '50');
    url.searchParams.set('sortBy', 'CREATED');
    const { body } = await liCall<{ elements?: LinkedInPost[] }>(
      url.toString(),
      {
        headers: restHeaders(ctx.credentials.accessToken, ctx.network.version ?? version, false),
      },
      { what: 'look up recent posts', signal: ctx.signal },
    );
    const since = query.since - 2 * 60_000;
    const wanted = fold(query.text);
    for (const p of body.elements ?? []) {
      if (!p.id || (p.author && p.author !== author)) continue;
      const at = p.createdAt ?? p.publishedAt;
      if (at !== undefined && at < since) continue;
      if (fold(unescapeLittleText(p.commentary ?? '')) !== wanted) continue;
      return { id: p.id, url: linkedinPostUrl(p.id) };
    }
    return null;
  }

  return {
    platform: 'problog',
    linkCards: true,
    oauth: problogOAuth,
    identify,
    refresh: (ctx) => refreshLinkedIn(ctx.network, ctx.credentials, ctx.signal),
    publishPost,
    findRecentPost,
    deletePost: (ctx, ref) =>
      isComment(ref.id)
        ? deleteComment(ctx, ref, { actor: authorOf(ctx), version: ctx.network.version ?? version })
        : deleteLinkedinPost(ctx, ref, version),
    editPost: (ctx, ref, text) => editLinkedinPost(ctx, ref, text, version),
    readMetrics: (ctx, refs) => readLinkedinMetrics(ctx, refs, version),
  };
}

export const problogAdapter = createProblogAdapter();
