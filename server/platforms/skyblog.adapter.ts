/**
 * Bluesky (skyblog) over raw XRPC against the account's own PDS (docs/decisions.md §19.2): app-password
 * sessions with refresh rotation and PDS discovery (skyblog/session.ts); posts are
 * app.bsky.feed.post records made with com.atproto.repo.createRecord, with reply root/parent
 * strong refs, image embeds and link cards as external embeds with a thumb blob (skyblog/images.ts),
 * quotes as record embeds, and facets with UTF-8
 * byte offsets (skyblog/facets.ts). `PostRef.id` is the post's at-uri and `cid` its record cid;
 * `url` is the bsky.app page. Base URLs come from the account (its PDS), never constants.
 */
import type { CallContext, Credentials, Identity, PlatformAdapter, PostInput, PostRef } from './adapter.js';
import { PlatformError } from './errors.js';
import { buildFacets, textProblem } from './skyblog/facets.js';
import { videoEmbed, type VideoEmbed } from './skyblog/video.js';
import { checkImages, externalEmbed, uploadImages, type ExternalEmbed, type ImageEmbed } from './skyblog/images.js';
import { createSession, refreshCredentials, sessionCredentials, signInRefusal } from './skyblog/session.js';
import { hostOf } from './http.js';
import { deleteBlueskyPost, GET_POSTS_MAX, readBlueskyMetrics } from './skyblog/after-publish.js';
import { xrpc } from './skyblog/xrpc.js';
import { gatesFor, newTid, quoteOf, selfLabels } from './skyblog/options.js';

const POST = 'app.bsky.feed.post';
/** The public web app where post URLs point (not an API base). */
const WEB = 'https://bsky.app';

interface StrongRef {
  uri: string;
  cid: string;
}

interface PostRecord {
  text?: string;
  createdAt?: string;
  reply?: { root?: StrongRef; parent?: StrongRef };
}

interface ListedRecord {
  uri: string;
  cid: string;
  value: PostRecord;
}

/** Where this account's calls go: its PDS as found at sign-in, else what the account row says. */
function baseOf(ctx: {
  credentials: CallContext['credentials'];
  account?: CallContext['account'];
  network: CallContext['network'];
  serverUrl?: string;
}): string {
  return ctx.credentials.extra?.service || ctx.serverUrl || ctx.account?.serverUrl || ctx.network.apiUrl;
}

function didOf(ctx: CallContext): string {
  const did = ctx.credentials.extra?.did || ctx.account.platformUserId;
  if (!did)
    throw new PlatformError('skyblog', 'permanent', 'This Bluesky account has no DID on record; connect it again');
  return did;
}

export function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } | null {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/?#]+)$/.exec(uri);
  return m ? { repo: m[1], collection: m[2], rkey: m[3] } : null;
}

const postUrl = (handleOrDid: string, uri: string) =>
  `${WEB}/profile/${handleOrDid}/post/${parseAtUri(uri)?.rkey ?? ''}`;

/**
 * Display name, avatar and counts. Profile views come from the appview the PDS proxies to; a PDS
 * without one (self-hosted, tests) answers 5xx, so the facts fall back to the repo's own profile
 * record and zero counts rather than failing the connection.
 */
async function profile(
  base: string,
  token: string,
  did: string,
  handle: string,
  signal?: AbortSignal,
): Promise<Identity> {
  const identity: Identity = {
    platformUserId: did,
    username: handle,
    displayName: handle,
    avatar: '',
    followersCount: 0,
    followingCount: 0,
    serverUrl: base,
    meta: { did, pds: base },
  };
  try {
    const p = await xrpc<{
      displayName?: string;
      avatar?: string;
      followersCount?: number;
      followsCount?: number;
      handle?: string;
    }>(base, 'app.bsky.actor.getProfile', {
      what: 'read the profile',
      token,
      params: { actor: did },
      signal,
    });
    return {
      ...identity,
      username: p.handle || handle,
      displayName: p.displayName || handle,
      avatar: p.avatar ?? '',
      followersCount: p.followersCount ?? 0,
      followingCount: p.followsCount ?? 0,
      meta: { ...identity.meta, profileSource: 'appview' },
    };
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'rate_limited')) throw err;
  }
  try {
    const rec = await xrpc<{ value?: { displayName?: string; avatar?: { ref?: { $link?: string } } } }>(
      base,
      'com.atproto.repo.getRecord',
      {
        what: 'read the profile record',
        params: { repo: did, collection: 'app.bsky.actor.profile', rkey: 'self' },
        signal,
      },
    );
    const cid = rec.value?.avatar?.ref?.$link;
    identity.displayName = rec.value?.displayName || handle;
    if (cid)
      identity.avatar =
        `${base}/xrpc/com.atproto.sync.getBlob?did=` + `${encodeURIComponent(did)}&cid=${encodeURIComponent(cid)}`;
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'rate_limited')) throw err;
    // No profile record yet: the handle stands in for the name.
  }
  identity.meta = { ...identity.meta, profileSource: 'repo' };
  return identity;
}

async function passwordLogin(req: {
  identifier: string;
  password: string;
  service: string;
}): Promise<{ credentials: Credentials; identity: Identity }> {
  let session;
  try {
    session = await createSession(req.service, req.identifier, req.password);
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'permanent')) {
      throw new PlatformError('skyblog', 'permanent', signInRefusal(err, req.identifier, hostOf(req.service)), {
        status: err.status,
        code: err.opts.code,
        cause: err,
      });
    }
    throw err;
  }
  if (session.active === false) {
    throw new PlatformError(
      'skyblog',
      'permanent',
      `The Bluesky account ${session.handle} is not active (${session.status ?? 'deactivated'}); reactivate it first`,
    );
  }
  const credentials = sessionCredentials(session, req.service, req.identifier, req.password);
  const identity = await profile(credentials.extra!.service, credentials.accessToken, session.did, session.handle);
  return { credentials, identity };
}

async function identify(ctx: Parameters<PlatformAdapter['identify']>[0]): Promise<Identity> {
  const base = baseOf(ctx);
  const s = await xrpc<{ did: string; handle: string }>(base, 'com.atproto.server.getSession', {
    what: 'read the session',
    token: ctx.credentials.accessToken,
    signal: ctx.signal,
  });
  if (!s?.did)
    throw new PlatformError('skyblog', 'transient', `${hostOf(base)} answered the session request without the account`);
  return profile(base, ctx.credentials.accessToken, s.did, s.handle || ctx.account?.username || s.did, ctx.signal);
}

async function refresh(ctx: CallContext) {
  return refreshCredentials(ctx.credentials, baseOf(ctx), ctx.account.username, ctx.signal);
}

/** A mention's DID, or null when the handle does not resolve (the mention stays plain text). */
async function resolveHandle(base: string, handle: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const r = await xrpc<{ did?: string }>(base, 'com.atproto.identity.resolveHandle', {
      what: `look up @${handle}`,
      params: { handle },
      signal,
    });
    return typeof r.did === 'string' && r.did.startsWith('did:') ? r.did : null;
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'permanent') return null;
    throw err;
  }
}

async function getPostRecord(
  base: string,
  uri: string,
  signal?: AbortSignal,
): Promise<{ uri: string; cid: string; value: PostRecord }> {
  const at = parseAtUri(uri);
  if (!at) throw new PlatformError('skyblog', 'permanent', `${uri} is not a Bluesky post address (at://…)`);
  return xrpc(base, 'com.atproto.repo.getRecord', {
    what: 'read the post being answered or quoted',
    params: { ...at },
    signal,
  });
}

/** The strong ref of a post, fetching its cid when the caller only had the uri. */
async function strongRef(base: string, ref: PostRef, signal?: AbortSignal): Promise<StrongRef> {
  if (ref.cid) return { uri: ref.id, cid: ref.cid };
  const rec = await getPostRecord(base, ref.id, signal);
  return { uri: rec.uri, cid: rec.cid };
}

async function replyRefs(base: string, post: PostInput, signal?: AbortSignal) {
  if (!post.replyTo) return undefined;
  if (post.root)
    return { root: await strongRef(base, post.root, signal), parent: await strongRef(base, post.replyTo, signal) };
  // Answering a post that may itself be a reply: the thread's root is the one it names.
  const parent = await getPostRecord(base, post.replyTo.id, signal);
  const root =
    parent.value.reply?.root?.uri && parent.value.reply.root.cid
      ? parent.value.reply.root
      : { uri: parent.uri, cid: parent.cid };
  return { root: { uri: root.uri, cid: root.cid }, parent: { uri: parent.uri, cid: parent.cid } };
}

/** One embed per post: images (or a video) win over a link card; a quote carries either as its media. */
function embedOf(
  images: ImageEmbed | VideoEmbed | undefined,
  card: ExternalEmbed | undefined,
  quote: StrongRef | undefined,
) {
  const media = images ?? card;
  if (quote && media) {
    return {
      $type: 'app.bsky.embed.recordWithMedia',
      record: { $type: 'app.bsky.embed.record', record: quote },
      media,
    };
  }
  if (quote) return { $type: 'app.bsky.embed.record', record: quote };
  return media;
}

async function publishPost(ctx: CallContext, post: PostInput): Promise<PostRef> {
  const base = baseOf(ctx);
  const did = didOf(ctx);
  const problem = textProblem(post.text);
  if (problem) throw new PlatformError('skyblog', 'permanent', problem);
  if (!post.text.trim() && post.media.length === 0 && !post.quote && !post.linkCard)
    throw new PlatformError('skyblog', 'permanent', 'A Bluesky post needs text, images or a quote');
  checkImages(post.media);

  const facets = await buildFacets(post.text, (handle) => resolveHandle(base, handle, ctx.signal));
  const reply = await replyRefs(base, post, ctx.signal);
  const quoted = await quoteOf(post, (handle) => resolveHandle(base, handle, ctx.signal));
  const quote = quoted ? await strongRef(base, quoted, ctx.signal) : undefined;
  // Blobs last: an unreferenced blob is collected, so upload right before the record.
  const video = post.media.find((m) => m.kind === 'video');
  const images = video
    ? await videoEmbed(ctx, base, did, video, ctx.onProcessing)
    : await uploadImages(ctx, base, post.media);
  const card = !images && post.linkCard ? await externalEmbed(ctx, base, post.linkCard) : undefined;
  const embed = embedOf(images, card, quote);

  const record: Record<string, unknown> = { $type: POST, text: post.text, createdAt: new Date().toISOString() };
  const langs = (post.options.langs ?? []).filter((l) => /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/.test(l)).slice(0, 3);
  if (langs.length) record.langs = langs;
  if (facets.length) record.facets = facets;
  if (reply) record.reply = reply;
  if (embed) record.embed = embed;
  const labels = selfLabels(post);
  if (labels) record.labels = labels;

  const created = await createPost(ctx, base, did, post, record);
  if (!created?.uri || !created.cid) {
    throw new PlatformError(
      'skyblog',
      'ambiguous',
      `${hostOf(base)} answered without the new post's address; Herald will check whether it was published`,
    );
  }
  return { id: created.uri, cid: created.cid, url: postUrl(ctx.account.username || did, created.uri) };
}

/** The post record, with its thread and quote gates in the same commit when the options ask for them. */
async function createPost(
  ctx: CallContext,
  base: string,
  did: string,
  post: PostInput,
  record: Record<string, unknown>,
): Promise<{ uri?: string; cid?: string }> {
  const rkey = newTid();
  const gates = gatesFor(post, `at://${did}/${POST}/${rkey}`, String(record.createdAt));
  if (Object.keys(gates).length === 0)
    return xrpc(base, 'com.atproto.repo.createRecord', {
      what: 'publish the post',
      write: true,
      token: ctx.credentials.accessToken,
      json: { repo: did, collection: POST, record },
      signal: ctx.signal,
    });
  const create = (collection: string, value: Record<string, unknown>) => ({
    $type: 'com.atproto.repo.applyWrites#create',
    collection,
    rkey,
    value,
  });
  const answer = await xrpc<{ results?: { uri?: string; cid?: string }[] }>(base, 'com.atproto.repo.applyWrites', {
    what: 'publish the post with who may reply or quote',
    write: true,
    token: ctx.credentials.accessToken,
    json: {
      repo: did,
      writes: [create(POST, record), ...Object.entries(gates).map(([c, v]) => create(c, v))],
    },
    signal: ctx.signal,
  });
  return answer?.results?.[0] ?? {};
}

/** Clock skew allowed between Herald and the createdAt it wrote. */
const SKEW_MS = 2 * 60_000;
const PAGES = 5;

async function findRecentPost(
  ctx: CallContext,
  query: { text: string; replyTo?: PostRef; since: number },
): Promise<PostRef | null> {
  const base = baseOf(ctx);
  const did = didOf(ctx);
  const since = query.since - SKEW_MS;
  let cursor: string | undefined;
  for (let page = 0; page < PAGES; page++) {
    const res = await xrpc<{ records?: ListedRecord[]; cursor?: string }>(base, 'com.atproto.repo.listRecords', {
      what: 'look up recent posts',
      params: { repo: did, collection: POST, limit: '50', cursor },
      signal: ctx.signal,
    });
    if (!Array.isArray(res.records))
      throw new PlatformError('skyblog', 'transient', `${hostOf(base)} answered the post lookup without a list`);
    for (const r of res.records) {
      const created = Date.parse(r.value?.createdAt ?? '');
      if (Number.isFinite(created) && created < since) continue;
      if ((r.value?.text ?? '') !== query.text) continue;
      if ((r.value?.reply?.parent?.uri ?? undefined) !== (query.replyTo?.id ?? undefined)) continue;
      return { id: r.uri, cid: r.cid, url: postUrl(ctx.account.username || did, r.uri) };
    }
    // Newest first (record keys are time-ordered): a page reaching back before `since` is the last.
    const last = res.records[res.records.length - 1];
    const lastAt = Date.parse(last?.value?.createdAt ?? '');
    if (!last || !res.cursor || (Number.isFinite(lastAt) && lastAt < since)) return null;
    cursor = res.cursor;
  }
  throw new PlatformError(
    'skyblog',
    'transient',
    'This account posted too much since then for Herald to be sure whether the post went out; check on Bluesky',
  );
}

export const skyblogAdapter: PlatformAdapter = {
  platform: 'skyblog',
  linkCards: true,
  passwordLogin,
  identify,
  refresh,
  publishPost,
  findRecentPost,
  deletePost: (ctx, ref) => deleteBlueskyPost(ctx, { base: baseOf(ctx), did: didOf(ctx) }, ref),
  editNote: 'Bluesky posts cannot be edited; Bluesky allows deleting the post (and posting the new text)',
  readMetrics: (ctx, refs) => readBlueskyMetrics(ctx, { base: baseOf(ctx), did: didOf(ctx) }, refs),
  metricsBatch: GET_POSTS_MAX,
};
