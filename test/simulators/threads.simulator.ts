// Threads (graph.threads.net) simulator: OAuth code → short-lived → long-lived token, refresh,
// /me, containers (TEXT/IMAGE/VIDEO/CAROUSEL, fetched from their URLs), status polling,
// threads_publish with the "Media Not Found" race, recent threads, permalinks.
// OAuth is in threads.oauth.ts, container creation in threads.containers.ts.
import { registerThreadsAfterPublish } from './threads.after-publish.js';
import { Router, startSimServer, randomId, PostCounter } from './common.js';
import type { SimReply, SimRequest } from './common.js';
import { errors, params, accessToken, graphTime, pick } from './threads.graph.js';
import { registerThreadsOAuth } from './threads.oauth.js';
import { refreshStatus, threadsContainerCreate } from './threads.containers.js';

import type {
  ThreadsUser,
  ThreadsPost,
  ThreadsSimulatorOptions,
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
  const auth = (req: SimRequest): { userId: string; token: string } | SimReply => {
    const t = accessToken(req);
    const tok = t ? state.tokens.get(t) : undefined;
    if (!tok) return errors.invalidToken();
    if (tok.expiresAt <= Date.now()) return errors.expiredToken();
    return { userId: tok.userId, token: t! };
  };

  const router = new Router();

  registerThreadsOAuth(router, {
    opts,
    clientId,
    clientSecret,
    state,
    auth,
    minRefreshAge,
    currentUser: () => currentUser,
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
  const createContainer = threadsContainerCreate({ state, auth, nextId, readyMs });

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
    router.on('POST', `${v}/:userId/threads`, createContainer);
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
