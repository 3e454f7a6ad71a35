/**
 * Mastodon (fedblog) over its real REST API, per instance (docs/decisions.md §19.3): app registration
 * and OAuth with PKCE, verify_credentials plus the instance's limits, v2 media with async
 * processing, and POST /api/v1/statuses with an Idempotency-Key equal to the post's key, the
 * same on every retry. That key makes a lost answer safe to repeat: the instance returns the
 * status it already created instead of a second one, so the adapter repeats it once itself.
 */
import { deleteMastodonPost, editMastodonPost, readMastodonMetrics } from './fedblog/after-publish.js';
import type {
  AccountInfo,
  CallContext,
  Identity,
  NetworkScheduled,
  PlatformAdapter,
  PostInput,
  PostRef,
} from './adapter.js';
import { PlatformError } from './errors.js';
import { mastoOptionFields } from './fedblog/options.js';
import { bearer, hostOf, joinUrl, sleep } from './http.js';
import { isStillProcessing, mastoCall } from './fedblog/http.js';
import { instanceLimits, limitsFromMeta, type InstanceLimits } from './fedblog/instance.js';
import { uploadMastoMedia } from './fedblog/media.js';
import { fedblogOAuth } from './fedblog/oauth.js';
import { sameStatusText } from './fedblog/text.js';

interface MastoAccount {
  id: string;
  username: string;
  acct?: string;
  display_name?: string;
  avatar?: string;
  url?: string;
  followers_count?: number;
  following_count?: number;
}

interface MastoStatus {
  id: string;
  url?: string | null;
  uri?: string;
  content?: string;
  created_at?: string;
  in_reply_to_id?: string | null;
  reblog?: unknown;
}

/** Tries for media the instance is still processing when the status goes out. */
const PROCESSING_RETRIES = 4;
/** Statuses per page of the account timeline (Mastodon's maximum). */
const PAGE = 40;

function serverOf(account?: AccountInfo | null, serverUrl?: string): string {
  const server = serverUrl ?? account?.serverUrl ?? undefined;
  if (!server)
    throw new PlatformError(
      'fedblog',
      'permanent',
      'This Mastodon account has no instance on record; connect it again',
    );
  return server;
}

const statusUrl = (server: string, account: AccountInfo, status: MastoStatus) =>
  status.url || `${server.replace(/\/+$/, '')}/@${account.username}/${status.id}`;

/** The limits to respect: the instance's (cached), else what identify stored on the account. */
async function limitsFor(ctx: CallContext, server: string): Promise<InstanceLimits> {
  try {
    return await instanceLimits(server, ctx.signal);
  } catch {
    return limitsFromMeta(ctx.account.meta);
  }
}

async function identify(ctx: Parameters<PlatformAdapter['identify']>[0]): Promise<Identity> {
  const server = serverOf(ctx.account, ctx.serverUrl);
  const { body: me } = await mastoCall<MastoAccount>(
    joinUrl(server, '/api/v1/accounts/verify_credentials'),
    {
      headers: { ...bearer(ctx.credentials.accessToken), accept: 'application/json' },
    },
    { what: 'read the account profile', signal: ctx.signal },
  );
  if (!me?.id || !me.username)
    throw new PlatformError(
      'fedblog',
      'transient',
      `${hostOf(server)} answered the profile request without the account`,
    );
  const limits = await instanceLimits(server, ctx.signal);
  return {
    platformUserId: String(me.id),
    username: me.acct || me.username,
    displayName: me.display_name || me.username,
    avatar: me.avatar ?? '',
    followersCount: me.followers_count ?? 0,
    followingCount: me.following_count ?? 0,
    serverUrl: server,
    meta: { ...limits, profileUrl: me.url ?? null },
  };
}

/**
 * Creating a status is a small JSON write (media went up before it): an instance that has not
 * answered in 30 s is not going to, and each wait keeps the post "publishing".
 */
const STATUS_TIMEOUT_MS = 30_000;

async function sendStatus(
  ctx: CallContext,
  server: string,
  body: Record<string, unknown>,
  key: string,
  timeoutMs: number,
): Promise<MastoStatus> {
  const init: RequestInit = {
    method: 'POST',
    headers: {
      ...bearer(ctx.credentials.accessToken),
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  };
  const call = () =>
    mastoCall<MastoStatus>(joinUrl(server, '/api/v1/statuses'), init, {
      what: 'publish the post',
      write: true,
      signal: ctx.signal,
      timeoutMs,
    });
  let processingTries = 0;
  let resent = false;
  for (;;) {
    try {
      const { body: status } = await call();
      if (!status?.id)
        throw new PlatformError(
          'fedblog',
          'ambiguous',
          `${hostOf(server)} answered without the new post's id; Herald will check whether it was published`,
        );
      return status;
    } catch (err) {
      if (isStillProcessing(err) && processingTries < PROCESSING_RETRIES) {
        await sleep(1000 * 2 ** processingTries++, ctx.signal);
        continue;
      }
      // Same Idempotency-Key: if the first attempt was committed, this returns that status.
      if (err instanceof PlatformError && err.kind === 'ambiguous' && !resent && !ctx.signal?.aborted) {
        resent = true;
        await sleep(500, ctx.signal);
        continue;
      }
      // The repeat failed too: the first attempt may still have been committed, so the outcome
      // stays unknown (and is settled later with the same key), whatever this answer was.
      if (resent && !(err instanceof PlatformError && err.kind === 'ambiguous')) {
        const why = err instanceof Error ? err.message : String(err);
        throw new PlatformError(
          'fedblog',
          'ambiguous',
          `${hostOf(server)} did not confirm the post, and sending it again with the same key failed (` +
            `${why}); Herald will settle it with that key before anything else`,
          { cause: err },
        );
      }
      throw err;
    }
  }
}

/** Uploads the post's media and builds the body of POST /api/v1/statuses. */
async function statusBody(ctx: CallContext, server: string, post: PostInput): Promise<Record<string, unknown>> {
  const limits = await limitsFor(ctx, server);
  if (post.media.length > limits.max_media_attachments) {
    throw new PlatformError(
      'fedblog',
      'permanent',
      `${hostOf(server)} allows at most ${limits.max_media_attachments} media per post; this post has ` +
        `${post.media.length}`,
    );
  }
  if (!post.text.trim() && post.media.length === 0)
    throw new PlatformError('fedblog', 'permanent', 'A Mastodon post needs text or media');
  const mediaIds: string[] = [];
  for (const item of post.media) mediaIds.push(await uploadMastoMedia(ctx, server, item, limits.description_limit));

  let text = post.text;
  const mapped = mastoOptionFields(post, server, limits.api_version);
  const body: Record<string, unknown> = { visibility: 'public', ...mapped.fields };
  const quote = post.quote ?? (mapped.quoteId ? { id: mapped.quoteId, url: post.options.post!.quoteUrl! } : undefined);
  if (quote) {
    // Quote posts exist from API version 7 (Mastodon 4.5); elsewhere the link stands in.
    if (limits.api_version >= 7) body.quoted_status_id = quote.id;
    else text = text ? `${text}\n\n${quote.url}` : quote.url;
  }
  if (text) body.status = text;
  if (mediaIds.length) body.media_ids = mediaIds;
  if (post.replyTo) body.in_reply_to_id = post.replyTo.id;
  const language = post.options.langs?.[0]?.split('-')[0];
  if (language) body.language = language.toLowerCase();
  return body;
}

async function publishPost(ctx: CallContext, post: PostInput, statusTimeoutMs: number): Promise<PostRef> {
  const server = serverOf(ctx.account);
  const body = await statusBody(ctx, server, post);
  const status = await sendStatus(ctx, server, body, post.idempotencyKey, statusTimeoutMs);
  return { id: String(status.id), url: statusUrl(server, ctx.account, status) };
}

interface MastoScheduled {
  id: string;
  scheduled_at?: string;
}

const scheduledOf = (s: MastoScheduled, at: number): NetworkScheduled => ({
  id: String(s.id),
  scheduledAt: s.scheduled_at ? Date.parse(s.scheduled_at) : at,
});

/**
 * POST /api/v1/statuses with `scheduled_at`: the instance answers a ScheduledStatus and publishes
 * it at that time itself (at least 5 minutes ahead, else 422). The Idempotency-Key is the post's,
 * so a repeat after a lost answer returns the same ScheduledStatus.
 */
async function schedulePost(
  ctx: CallContext,
  post: PostInput,
  at: number,
  statusTimeoutMs: number,
): Promise<NetworkScheduled> {
  if (post.replyTo)
    throw new PlatformError(
      'fedblog',
      'permanent',
      'Mastodon cannot schedule a reply to a post that is not published yet',
    );
  const server = serverOf(ctx.account);
  const body = { ...(await statusBody(ctx, server, post)), scheduled_at: new Date(at).toISOString() };
  const answer = (await sendStatus(ctx, server, body, post.idempotencyKey, statusTimeoutMs)) as MastoStatus &
    MastoScheduled;
  // An instance without scheduled statuses ignores the field and publishes at once: a status has a URL or URI.
  if (answer.url || answer.uri || !answer.scheduled_at) {
    throw new PlatformError(
      'fedblog',
      'permanent',
      `${hostOf(server)} published the post at once instead of scheduling it`,
      { code: 'published_now', cause: { id: String(answer.id), url: statusUrl(server, ctx.account, answer) } },
    );
  }
  return scheduledOf(answer, at);
}

const scheduledUrl = (ctx: CallContext, id: string) =>
  joinUrl(serverOf(ctx.account), `/api/v1/scheduled_statuses/${encodeURIComponent(id)}`);

/** PUT /api/v1/scheduled_statuses/:id {scheduled_at}. */
async function reschedulePost(ctx: CallContext, id: string, at: number): Promise<NetworkScheduled> {
  const { body } = await mastoCall<MastoScheduled>(
    scheduledUrl(ctx, id),
    {
      method: 'PUT',
      headers: {
        ...bearer(ctx.credentials.accessToken),
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ scheduled_at: new Date(at).toISOString() }),
    },
    { what: 'move the scheduled post', write: true, signal: ctx.signal },
  );
  return scheduledOf(body, at);
}

/** DELETE /api/v1/scheduled_statuses/:id; a 404 means it is not scheduled there (any more), which is what was asked. */
async function unschedulePost(ctx: CallContext, id: string): Promise<void> {
  await mastoCall<unknown>(
    scheduledUrl(ctx, id),
    {
      method: 'DELETE',
      headers: { ...bearer(ctx.credentials.accessToken), accept: 'application/json' },
    },
    { what: 'withdraw the scheduled post', write: true, signal: ctx.signal, accept: [404] },
  );
}

/** The account's recent statuses: public read first (Herald asks for no read scope), then with the token. */
async function recentStatuses(ctx: CallContext, server: string, maxId?: string): Promise<MastoStatus[]> {
  const url = new URL(joinUrl(server, `/api/v1/accounts/${encodeURIComponent(ctx.account.platformUserId)}/statuses`));
  url.searchParams.set('limit', String(PAGE));
  url.searchParams.set('exclude_reblogs', 'true');
  if (maxId) url.searchParams.set('max_id', maxId);
  const opts = { what: 'look up recent posts', signal: ctx.signal };
  try {
    return (await mastoCall<MastoStatus[]>(url.toString(), { headers: { accept: 'application/json' } }, opts)).body;
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.status !== 401 && err.status !== 403)) throw err;
    const withToken = await mastoCall<MastoStatus[]>(
      url.toString(),
      { headers: { ...bearer(ctx.credentials.accessToken), accept: 'application/json' } },
      opts,
    );
    return withToken.body;
  }
}

async function findRecentPost(
  ctx: CallContext,
  query: { text: string; replyTo?: PostRef; since: number },
): Promise<PostRef | null> {
  const server = serverOf(ctx.account);
  const since = query.since - 2 * 60_000;
  let maxId: string | undefined;
  for (let page = 0; page < 5; page++) {
    const statuses = await recentStatuses(ctx, server, maxId);
    if (!Array.isArray(statuses))
      throw new PlatformError(
        'fedblog',
        'transient',
        `${hostOf(server)} answered the post lookup with something other than a list`,
      );
    for (const status of statuses) {
      if (status.reblog) continue;
      if ((status.in_reply_to_id ?? undefined) !== (query.replyTo?.id ?? undefined)) continue;
      if (status.created_at && Date.parse(status.created_at) < since) continue;
      if (!sameStatusText(status.content ?? '', query.text)) continue;
      return { id: String(status.id), url: statusUrl(server, ctx.account, status) };
    }
    const last = statuses[statuses.length - 1];
    // A short page is the end of the timeline; newest first, so a page reaching back before
    // `since` means nothing older can match.
    if (!last || statuses.length < PAGE || (last.created_at && Date.parse(last.created_at) < since)) return null;
    maxId = String(last.id);
  }
  throw new PlatformError(
    'fedblog',
    'transient',
    'This account posted too much since then for Herald to be sure whether the post went out; check on Mastodon',
  );
}

/** The Mastodon adapter; tests shorten the wait for a status to be created. */
export function createFedblogAdapter(opts: { statusTimeoutMs?: number } = {}): PlatformAdapter {
  const statusTimeoutMs = opts.statusTimeoutMs ?? STATUS_TIMEOUT_MS;
  return {
    platform: 'fedblog',
    idempotentWrites: true,
    oauth: fedblogOAuth,
    identify,
    publishPost: (ctx, post) => publishPost(ctx, post, statusTimeoutMs),
    findRecentPost,
    schedulePost: (ctx, post, at) => schedulePost(ctx, post, at, statusTimeoutMs),
    reschedulePost,
    unschedulePost,
    deletePost: deleteMastodonPost,
    editPost: editMastodonPost,
    readMetrics: readMastodonMetrics,
  };
}

export const fedblogAdapter: PlatformAdapter = createFedblogAdapter();
