// Threads (graph.threads.net) simulator: OAuth code → short-lived → long-lived token, refresh,
// /me, containers (TEXT/IMAGE/VIDEO/CAROUSEL, fetched from their URLs), status polling,
// threads_publish with the "Media Not Found" race, recent threads, permalinks.
import { checkThreadsOptions } from './threads.options.js';
import { registerThreadsAfterPublish } from './threads.after-publish.js';
import { Router, startSimServer, canaryToken, randomId, redirect, withQuery, PostCounter } from './common.js';
import type { SimReply, SimRequest, Faults } from './common.js';
import { errors, params, accessToken, graphTime, pick } from './threads.graph.js';

import type {
  ThreadsUser,
  ThreadsContainer,
  ThreadsPost,
  ThreadsSimulatorOptions,
  Token,
  ThreadsState,
  ThreadsSimulator,
} from './threads.types.js';
export type {
  ThreadsUser,
  ThreadsContainer,
  ThreadsPost,
  ThreadsSimulatorOptions,
  ThreadsState,
  ThreadsSimulator,
} from './threads.types.js';

const REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
];

export async function startThreadsSimulator(opts: ThreadsSimulatorOptions = {}): Promise<ThreadsSimulator> {
  const clientId = opts.clientId ?? '1234567890123456';
  const clientSecret = opts.clientSecret ?? 'threads-sim-secret';
  const readyMs = opts.containerReadyMs ?? 200;
  const minRefreshAge = (opts.minRefreshAgeSec ?? 86_400) * 1000;
  const quotaNow = opts.now ?? Date.now;
  // threads_publishing_limit (docs/decisions.md §19.4): rolling 24 h, 250 posts and 1,000 replies.
  const QUOTA = { posts: opts.postsPerDay ?? 250, replies: 1000, windowMs: 86_400_000 };
  const usage = (userId: string) => {
    const since = quotaNow() - QUOTA.windowMs;
    const mine = state.posts.filter((p) => p.userId === userId && p.createdAt > since);
    const replies = mine.filter((p) => p.replyToId).length;
    return { posts: mine.length - replies, replies };
  };
  const state: ThreadsState = {
    users: [],
    containers: new Map(),
    posts: [],
    tokens: new Map(),
    issuedTokens: [],
    refreshCalls: 0,
    refreshCallsByUser: new Map(),
    exchangeCalls: 0,
    counter: new PostCounter(),
    notReadyPublishes: 0,
    publishRaces: 0,
  };
  let idSeq = 17_900_000_000_000_000n;
  const nextId = () => String((idSeq += 104_729n));
  let seq = 0;
  let currentUser: string | undefined;
  const codes = new Map<string, { userId: string; redirectUri: string }>();

  const issue = (userId: string, kind: Token['kind']) => {
    const token = canaryToken('threads', kind === 'short' ? 'short' : 'long');
    const ttl = kind === 'short' ? 3600 : 5_183_944;
    state.tokens.set(token, { userId, kind, issuedAt: Date.now(), expiresAt: Date.now() + ttl * 1000 });
    state.issuedTokens.push(token);
    return { token, ttl };
  };
  const auth = (req: SimRequest): { userId: string; token: string } | SimReply => {
    const t = accessToken(req);
    const tok = t ? state.tokens.get(t) : undefined;
    if (!tok) return errors.invalidToken();
    if (tok.expiresAt <= Date.now()) return errors.expiredToken();
    return { userId: tok.userId, token: t! };
  };

  const router = new Router();

  // --- OAuth -------------------------------------------------------------------------------
  router.on('GET', '/oauth/authorize', (req) => {
    const q = req.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== clientId || !redirectUri) return errors.param('Invalid platform app');
    const blocked = (why: string): SimReply => ({
      status: 400,
      raw: `<h1>URL blocked</h1><p>${why}</p>`,
      headers: { 'content-type': 'text/html' },
    });
    if (opts.httpsRedirectsOnly && !redirectUri.startsWith('https://'))
      return blocked('Insecure redirect URI: redirect URIs must use HTTPS.');
    if (opts.redirectUris && !opts.redirectUris.includes(redirectUri))
      return blocked(
        "This redirect failed because the redirect URI is not whitelisted in the app's client OAuth settings.",
      );
    if (q.get('deny') === '1' || state.denyNext) {
      state.denyNext = false;
      const denied = { error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error' };
      return redirect(`${withQuery(redirectUri, { ...denied, state: q.get('state') ?? undefined })}#_`);
    }
    const scopes = (q.get('scope') ?? '').split(',').filter(Boolean);
    if (!scopes.includes('threads_basic'))
      return redirect(
        withQuery(redirectUri, {
          error: 'invalid_scope',
          error_reason: 'threads_basic is required',
          state: q.get('state') ?? undefined,
        }),
      );
    const u = state.users.find((x) => x.username === currentUser) ?? state.users[0]!;
    const code = canaryToken('threads', 'code');
    codes.set(code, { userId: u.id, redirectUri });
    // Threads appends "#_" to the redirect; clients must strip it.
    return redirect(`${withQuery(redirectUri, { code, state: q.get('state') ?? undefined })}#_`);
  });
  router.on('POST', '/oauth/access_token', (req) => {
    const p = params(req);
    if (p.client_id !== clientId) return errors.oauth('Error validating application. Invalid application ID.', 101);
    if (p.client_secret !== clientSecret) return errors.oauth('Error validating client secret.', 1);
    if (p.grant_type !== 'authorization_code') return errors.param('Unsupported grant_type');
    const c = codes.get(p.code ?? '');
    if (!c) return errors.param('Invalid verification code format.');
    if (c.redirectUri !== p.redirect_uri)
      return errors.param(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you ' +
          'used in the OAuth dialog request',
      );
    codes.delete(p.code!);
    const { token } = issue(c.userId, 'short');
    // user_id is a bare JSON number with every digit; above 2^53 a JSON.parse client loses
    // precision (a real pitfall: take the id from /me instead).
    return {
      status: 200,
      raw: `{"access_token":${JSON.stringify(token)},"user_id":${c.userId}}`,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    };
  });
  router.on('GET', '/access_token', (req) => {
    state.exchangeCalls += 1;
    const p = params(req);
    if (p.grant_type !== 'th_exchange_token') return errors.param('Unsupported grant_type');
    if (p.client_secret !== clientSecret) return errors.param('Error validating client secret.');
    const a = auth(req);
    if (!('userId' in a)) return a;
    const { token, ttl } = issue(a.userId, 'long');
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: ttl } };
  });
  router.on('GET', '/refresh_access_token', (req) => {
    state.refreshCalls += 1;
    const p = params(req);
    if (p.grant_type !== 'th_refresh_token') return errors.param('Unsupported grant_type');
    const a = auth(req);
    if (!('userId' in a)) return a;
    const tok = state.tokens.get(a.token)!;
    state.refreshCallsByUser.set(a.userId, (state.refreshCallsByUser.get(a.userId) ?? 0) + 1);
    if (tok.kind !== 'long') return errors.param('Only long-lived tokens can be refreshed');
    if (Date.now() - tok.issuedAt < minRefreshAge)
      return errors.param('Token must be at least 24 hours old to be refreshed');
    const { token, ttl } = issue(a.userId, 'long');
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: ttl } };
  });

  // --- Graph -------------------------------------------------------------------------------
  const userView = (u: ThreadsUser) => ({
    id: u.id,
    username: u.username,
    name: u.name,
    threads_profile_picture_url: `https://scontent.example/${u.id}.jpg`,
    threads_biography: '',
  });
  const postView = (p: ThreadsPost) => {
    const u = state.users.find((x) => x.id === p.userId)!;
    return {
      id: p.id,
      media_product_type: 'THREADS',
      media_type: p.mediaType,
      text: p.text,
      permalink: `https://www.threads.net/@${u.username}/post/${p.shortcode}`,
      shortcode: p.shortcode,
      timestamp: graphTime(p.createdAt),
      username: u.username,
      owner: { id: u.id },
      is_quote_post: false,
      is_reply: p.replyToId !== undefined,
      ...(p.replyToId ? { replied_to: { id: p.replyToId } } : {}),
      ...(p.children.length ? { children: { data: p.children.map((id) => ({ id })) } } : {}),
    };
  };
  const refreshStatus = (c: ThreadsContainer) => {
    if (c.status !== 'IN_PROGRESS' || Date.now() < c.readyAt) return;
    if (c.mediaUrl && !c.fetched && c.errorMessage === undefined) return; // still downloading
    c.status = c.errorMessage === undefined ? 'FINISHED' : 'ERROR';
  };
  // Meta downloads the media itself, once, when the container is made; a failed download fails
  // the container (status ERROR with Threads' own error_message codes).
  const fetchMedia = async (c: ThreadsContainer) => {
    const seen = { url: c.mediaUrl!, status: 0, ok: false };
    (state.fetches ??= []).push(seen);
    try {
      const res = await fetch(c.mediaUrl!);
      seen.status = res.status;
      const type = res.headers.get('content-type') ?? '';
      const want = c.mediaType === 'VIDEO' ? 'video/' : 'image/';
      if (!res.ok || !type.startsWith(want)) throw new Error(`HTTP ${res.status} ${type}`);
      c.fetched = { contentType: type, bytes: Buffer.from(await res.arrayBuffer()) };
      seen.ok = true;
    } catch {
      c.errorMessage = c.mediaType === 'VIDEO' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
    }
  };

  const versions = ['', '/v1.0'];
  for (const v of versions) {
    router.on('GET', `${v}/me`, (req) => {
      const a = auth(req);
      if (!('userId' in a)) return a;
      const u = state.users.find((x) => x.id === a.userId)!;
      return { status: 200, body: pick(userView(u), req.query.get('fields') ?? undefined, ['id']) };
    });
    router.on('GET', `${v}/:userId/threads_publishing_limit`, (req) => {
      const a = auth(req);
      if (!('userId' in a)) return a;
      state.quotaChecks = (state.quotaChecks ?? 0) + 1;
      const u = usage(a.userId);
      const day = QUOTA.windowMs / 1000;
      return {
        status: 200,
        body: {
          data: [
            {
              quota_usage: u.posts,
              config: { quota_total: QUOTA.posts, quota_duration: day },
              reply_quota_usage: u.replies,
              reply_config: { quota_total: QUOTA.replies, quota_duration: day },
            },
          ],
        },
      };
    });
    router.on('POST', `${v}/:userId/threads`, async (req) => {
      const a = auth(req);
      if (!('userId' in a)) return a;
      if (req.params.userId !== a.userId && req.params.userId !== 'me') return errors.unknownObject(req.params.userId!);
      const p = params(req);
      const type = (p.media_type ?? '').toUpperCase();
      if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type))
        return errors.param('The parameter media_type is required and must be TEXT, IMAGE, VIDEO or CAROUSEL');
      const text = p.text ?? '';
      if ([...text].length > 500) return errors.param('Param text must be at most 500 characters long.');
      if (type === 'TEXT' && !text) return errors.param('The parameter text is required');
      if (p.reply_control && !REPLY_CONTROLS.includes(p.reply_control))
        return errors.param(
          'Param reply_control must be one of {EVERYONE, ACCOUNTS_YOU_FOLLOW, MENTIONED_ONLY, ' +
            'PARENT_POST_AUTHOR_ONLY, FOLLOWERS_ONLY}',
        );
      if (p.reply_to_id && !state.posts.some((x) => x.id === p.reply_to_id)) return errors.mediaNotFound(p.reply_to_id);
      const checked = checkThreadsOptions(p, type, text, (id) => state.posts.some((x) => x.id === id));
      if ('refused' in checked) return errors.param(checked.refused);
      const c: ThreadsContainer = {
        options: checked.kept,
        id: nextId(),
        userId: a.userId,
        mediaType: type as ThreadsContainer['mediaType'],
        text,
        isCarouselItem: p.is_carousel_item === 'true',
        children: [],
        replyToId: p.reply_to_id,
        replyControl: p.reply_control,
        status: 'IN_PROGRESS',
        readyAt: Date.now() + readyMs,
      };
      if (type === 'IMAGE' || type === 'VIDEO') {
        c.mediaUrl = type === 'IMAGE' ? p.image_url : p.video_url;
        if (!c.mediaUrl)
          return errors.param(`The parameter ${type === 'IMAGE' ? 'image_url' : 'video_url'} is required`);
        if (p.alt_text !== undefined) c.altText = p.alt_text;
      }
      if (type === 'CAROUSEL') {
        const kids = (p.children ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (kids.length < 2 || kids.length > 20)
          return errors.param('The parameter children must contain between 2 and 20 items');
        for (const k of kids) {
          const child = state.containers.get(k);
          if (!child || child.userId !== a.userId || !child.isCarouselItem) return errors.mediaNotFound(k);
          refreshStatus(child);
          if (child.status !== 'FINISHED') return errors.param(`Carousel item ${k} is not ready`);
        }
        c.children = kids;
      }
      state.containers.set(c.id, c);
      if (c.mediaUrl) void fetchMedia(c);
      return { status: 200, body: { id: c.id } };
    });
    router.on('POST', `${v}/:userId/threads_publish`, (req) => {
      const a = auth(req);
      if (!('userId' in a)) return a;
      const id = params(req).creation_id;
      if (!id) return errors.param('The parameter creation_id is required');
      const c = state.containers.get(id);
      if (!c || c.userId !== a.userId || c.isCarouselItem) return errors.mediaNotFound(id);
      refreshStatus(c);
      if (c.status === 'PUBLISHED') return errors.param('The media has already been published');
      if (c.status !== 'FINISHED') {
        state.notReadyPublishes += 1;
        return errors.mediaNotFound(id);
      }
      // Over the rolling 24 h quota: refused at publish, as Threads enforces it. (The exact error
      // Threads answers is not documented; the request-limit shape stands in.)
      const u = usage(a.userId);
      if (c.replyToId ? u.replies >= QUOTA.replies : u.posts >= QUOTA.posts) {
        state.quotaRefusals = (state.quotaRefusals ?? 0) + 1;
        return errors.rateLimited();
      }
      if (state.publishRaces > 0) {
        state.publishRaces -= 1;
        return errors.mediaNotFound(id);
      }
      const post: ThreadsPost = {
        id: nextId(),
        userId: a.userId,
        containerId: c.id,
        mediaType: c.mediaType === 'TEXT' ? 'TEXT_POST' : c.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.mediaType,
        text: c.text,
        replyToId: c.replyToId,
        replyControl: c.replyControl,
        children: c.children,
        shortcode: randomId(8),
        createdAt: quotaNow(),
        seq: ++seq,
      };
      c.status = 'PUBLISHED';
      c.publishedId = post.id;
      state.posts.push(post);
      state.counter.add(a.userId, c.text);
      return { status: 200, body: { id: post.id } };
    });
    const listPosts = (req: SimRequest, only: (p: ThreadsPost) => boolean) => {
      const a = auth(req);
      if (!('userId' in a)) return a;
      const uid = req.params.userId === 'me' ? a.userId : req.params.userId;
      const limit = Math.min(100, Number(req.query.get('limit') ?? 25));
      const mine = state.posts
        .filter((p) => p.userId === uid && only(p))
        .sort((x, y) => y.seq - x.seq)
        .slice(0, limit);
      const data = mine.map((p) => pick(postView(p), req.query.get('fields') ?? undefined, ['id']));
      const cursor = (p?: ThreadsPost) => (p ? Buffer.from(p.id).toString('base64url') : undefined);
      return {
        status: 200,
        body: { data, paging: { cursors: { before: cursor(mine[0]), after: cursor(mine[mine.length - 1]) } } },
      };
    };
    router.on('GET', `${v}/:userId/threads`, (req) => listPosts(req, () => true));
    // The user's replies (GET /{threads-user-id}/replies), each with `replied_to`.
    router.on('GET', `${v}/:userId/replies`, (req) => listPosts(req, (p) => p.replyToId !== undefined));
    router.on('GET', `${v}/:id`, (req) => {
      const a = auth(req);
      if (!('userId' in a)) return a;
      const id = req.params.id!;
      const fields = req.query.get('fields') ?? undefined;
      const post = state.posts.find((p) => p.id === id);
      if (post) {
        if (fields?.split(',').includes('status')) {
          return errors.param('Tried accessing nonexisting field (status) on node type (ThreadsMedia)');
        }
        return { status: 200, body: pick(postView(post), fields, ['id']) };
      }
      const c = state.containers.get(id);
      if (c && c.userId === a.userId) {
        refreshStatus(c);
        const view = { id: c.id, status: c.status, ...(c.status === 'ERROR' ? { error_message: c.errorMessage } : {}) };
        return { status: 200, body: pick(view, fields, ['id']) };
      }
      const u = state.users.find((x) => x.id === id);
      if (u) return { status: 200, body: pick(userView(u), fields, ['id']) };
      return errors.unknownObject(id);
    });
  }

  registerThreadsAfterPublish(router, { posts: state.posts, auth });

  const server = await startSimServer(router, {
    rateLimited: () => errors.rateLimited(),
    serverError: (status) => errors.server(status),
    expiredToken: () => errors.expiredToken(),
    notFound: (req) => errors.unknownObject(req.path.split('/').pop() ?? ''),
  });
  server.faults.latencyMs = opts.latencyMs ?? 0;

  const addUser = (u: { username: string; name?: string }): ThreadsUser => {
    const user: ThreadsUser = {
      id: String(25_000_000_000_000_000n + BigInt(state.users.length + 1) * 7n),
      username: u.username,
      name: u.name ?? u.username,
    };
    state.users.push(user);
    return user;
  };
  addUser({ username: 'herald.tester', name: 'Herald Tester' });
  const byName = (n: string) => state.users.find((u) => u.username === n);

  return {
    url: server.url,
    port: server.port,
    close: server.close,
    faults: server.faults,
    requests: server.requests,
    state,
    clientId,
    clientSecret,
    authorizeUrl: `${server.url}/oauth/authorize`,
    tokenUrl: `${server.url}/oauth/access_token`,
    graphBase: `${server.url}/v1.0`,
    addUser,
    setCurrentUser: (n) => {
      if (!byName(n)) throw new Error(`no Threads user ${n}`);
      currentUser = n;
    },
    ageTokens: (s) => {
      for (const t of state.tokens.values()) t.issuedAt -= s * 1000;
    },
    expireAccessTokens: () => {
      for (const t of state.tokens.values()) t.expiresAt = 0;
    },
    postsBy: (n) => state.posts.filter((p) => p.userId === byName(n)?.id),
    countPosts: (n, text) => state.counter.count(byName(n)?.id ?? '', text),
    seedPosts: (n, count, at) => {
      const u = byName(n);
      if (!u) throw new Error(`no Threads user ${n}`);
      for (let i = 0; i < count; i++) {
        state.posts.push({
          id: nextId(),
          userId: u.id,
          containerId: '',
          mediaType: 'TEXT_POST',
          text: `Posted elsewhere ${i}`,
          children: [],
          shortcode: randomId(8),
          createdAt: at,
          seq: ++seq,
        });
      }
    },
  };
}
