// X (api.x.com v2) simulator: OAuth 2.0 + PKCE with rotating refresh tokens, users/me, tweets,
// user timeline, media upload v2, follow. Problem-JSON errors and x-rate-limit-* headers.
// OAuth 2.0 is in x.oauth.ts, media upload in x.media.ts.
import { checkXOptions } from './x.options.js';
import twitterText from 'twitter-text';
import { Router, startSimServer, str, strList, PostCounter } from './common.js';
import type { SimReply, SimRequest } from './common.js';
import { registerXMedia } from './x.media.js';
import { registerXAfterPublish } from './x.after-publish.js';
import { registerXOAuth } from './x.oauth.js';

import type { XUser, XPost, XSimulatorOptions, XState, XSimulator } from './x.types.js';
export type { XUser, XPost, XSimulatorOptions, XState, XSimulator } from './x.types.js';

const PROBLEM = 'https://api.x.com/2/problems/';

export async function startXSimulator(opts: XSimulatorOptions = {}): Promise<XSimulator> {
  const clientId = opts.clientId ?? 'x-sim-client';
  const ttl = opts.accessTokenTtlSec ?? 7200;
  const state: XState = {
    users: [],
    posts: [],
    media: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    issuedTokens: [],
    refreshCalls: 0,
    refreshCallsByUser: new Map(),
    follows: [],
    counter: new PostCounter(),
    duplicateRejections: 0,
    timelineDelayMs: opts.timelineDelayMs ?? 0,
    rejectDuplicates: opts.rejectDuplicates ?? true,
  };
  let idSeq = 1_860_000_000_000_000_000n;
  const nextId = () => String((idSeq += 7919n));
  let postSeq = 0;
  let currentUser: string | undefined;
  const windows = new Map<string, { reset: number; used: number }>();

  const problem = (status: number, title: string, detail: string, type = 'about:blank'): SimReply => ({
    status,
    body: { title, detail, type, status },
    headers: { 'content-type': 'application/problem+json' },
  });
  const invalid = (param: string, message: string): SimReply => ({
    status: 400,
    body: {
      errors: [{ parameters: { [param]: [message] }, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: `${PROBLEM}invalid-request`,
    },
  });
  const limits: Record<string, number> = {
    tweets: opts.tweetLimit ?? 100,
    me: 75,
    media: 500,
    follow: 50,
    timeline: 900,
    token: 1000,
  };
  const family = (req: SimRequest) =>
    req.path === '/2/tweets'
      ? 'tweets'
      : req.path === '/2/users/me'
        ? 'me'
        : req.path.startsWith('/2/media')
          ? 'media'
          : req.path.endsWith('/following')
            ? 'follow'
            : req.path.includes('/oauth2/')
              ? 'token'
              : 'timeline';
  const rateHeaders = (
    req: SimRequest,
    who: string,
    consume: boolean,
  ): { headers: Record<string, string>; exhausted: boolean } => {
    const fam = family(req);
    const key = `${who}|${fam}`;
    const now = Math.floor(Date.now() / 1000);
    let w = windows.get(key);
    if (!w || w.reset <= now) windows.set(key, (w = { reset: now + 900, used: 0 }));
    const limit = limits[fam]!;
    const exhausted = w.used >= limit;
    if (consume && !exhausted) w.used += 1;
    return {
      exhausted,
      headers: {
        'x-rate-limit-limit': String(limit),
        'x-rate-limit-remaining': String(Math.max(0, limit - w.used)),
        'x-rate-limit-reset': String(w.reset),
      },
    };
  };
  const ok = (req: SimRequest, userId: string, status: number, body: unknown): SimReply => {
    const { headers } = rateHeaders(req, userId, false);
    return { status, body, headers };
  };
  const unauthorized = (): SimReply => problem(401, 'Unauthorized', 'Unauthorized');
  const auth = (req: SimRequest, scope: string): { userId: string } | SimReply => {
    const tok = req.bearer ? state.accessTokens.get(req.bearer) : undefined;
    if (!tok || tok.expiresAt <= Date.now()) return unauthorized();
    const need = scope.split(' ');
    if (!need.every((s) => tok.scopes.includes(s))) {
      return problem(403, 'Forbidden', 'You are not permitted to perform this action.', `${PROBLEM}client-forbidden`);
    }
    const rl = rateHeaders(req, tok.userId, true);
    if (rl.exhausted)
      return {
        status: 429,
        body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
        headers: rl.headers,
      };
    return { userId: tok.userId };
  };

  const router = new Router();

  registerXOAuth(router, { opts, clientId, ttl, state, currentUser: () => currentUser });

  // --- Users -------------------------------------------------------------------------------
  const userView = (u: XUser, fields: string[]) => {
    const v: Record<string, unknown> = { id: u.id, name: u.name, username: u.username };
    if (fields.includes('public_metrics')) {
      v.public_metrics = {
        followers_count: u.followers,
        following_count: u.following,
        tweet_count: state.posts.filter((p) => p.authorId === u.id).length,
        listed_count: 0,
        like_count: 0,
      };
    }
    if (fields.includes('created_at')) v.created_at = '2020-01-01T00:00:00.000Z';
    return v;
  };
  router.on('GET', '/2/users/me', (req) => {
    const a = auth(req, 'tweet.read users.read');
    if (!('userId' in a)) return a;
    const u = state.users.find((x) => x.id === a.userId)!;
    return ok(req, a.userId, 200, { data: userView(u, (req.query.get('user.fields') ?? '').split(',')) });
  });

  // --- Tweets ------------------------------------------------------------------------------
  const tweetView = (p: XPost) => ({ id: p.id, text: p.text, edit_history_tweet_ids: [p.id] });
  const KNOWN = new Set([
    'text',
    'media',
    'reply',
    'quote_tweet_id',
    'community_id',
    'reply_settings',
    'poll',
    'for_super_followers_only',
    'nullcast',
    'geo',
    'made_with_ai',
    'paid_partnership',
    'direct_message_deep_link',
    'card_uri',
  ]);
  router.on('POST', '/2/tweets', (req) => {
    const a = auth(req, 'tweet.read tweet.write users.read');
    if (!('userId' in a)) return a;
    if (req.bodyKind !== 'json' || typeof req.body !== 'object' || req.body === null)
      return invalid('body', 'Expected a JSON object.');
    const b = req.body as Record<string, any>;
    for (const k of Object.keys(b)) if (!KNOWN.has(k)) return invalid(k, `The property '${k}' is not defined.`);
    const text = typeof b.text === 'string' ? b.text : '';
    const mediaIds = strList(b.media?.media_ids);
    if (!text && !mediaIds.length) return invalid('text', 'text or media is required');
    if (mediaIds.length > 4) return invalid('media.media_ids', 'maximum of 4 items');
    for (const id of mediaIds) {
      const m = state.media.get(id);
      if (!m || m.ownerId !== a.userId) return invalid('media.media_ids', `Your media IDs are invalid.`);
      if (m.state !== 'succeeded')
        return invalid('media.media_ids', 'Your media IDs are invalid: media is still processing.');
    }
    const replyTo = b.reply?.in_reply_to_tweet_id !== undefined ? String(b.reply.in_reply_to_tweet_id) : undefined;
    if (replyTo && !state.posts.some((p) => p.id === replyTo)) {
      return problem(403, 'Forbidden', 'You attempted to reply to a Tweet that is deleted or not visible to you.');
    }
    const quoteOf = b.quote_tweet_id !== undefined ? String(b.quote_tweet_id) : undefined;
    if (quoteOf && !state.posts.some((p) => p.id === quoteOf))
      return problem(403, 'Forbidden', 'You are not permitted to perform this action.');
    const checked = checkXOptions(b, mediaIds.length > 0, quoteOf !== undefined);
    if ('refused' in checked) return invalid(...checked.refused);
    const max = opts.maxWeightedLength ?? 280;
    if (text && twitterText.parseTweet(text).weightedLength > max) {
      return problem(403, 'Forbidden', 'You are not permitted to perform this action.');
    }
    if (state.rejectDuplicates && text && state.posts.some((p) => p.authorId === a.userId && p.text === text)) {
      state.duplicateRejections += 1;
      return problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
    }
    const post: XPost = {
      id: nextId(),
      authorId: a.userId,
      text,
      replyTo,
      quoteOf,
      communityId: b.community_id !== undefined ? String(b.community_id) : undefined,
      mediaIds,
      createdAt: new Date().toISOString(),
      seq: ++postSeq,
      options: checked.kept,
    };
    state.posts.push(post);
    state.counter.add(a.userId, text);
    const { headers } = rateHeaders(req, a.userId, false);
    const day = Math.floor(Date.now() / 1000) + 86400;
    Object.assign(headers, {
      'x-user-limit-24hour-limit': '10000',
      'x-user-limit-24hour-remaining': String(10000 - state.posts.length),
      'x-user-limit-24hour-reset': String(day),
    });
    return { status: 201, body: { data: tweetView(post) }, headers };
  });
  router.on('GET', '/2/users/:id/tweets', (req) => {
    const a = auth(req, 'tweet.read users.read');
    if (!('userId' in a)) return a;
    if (!state.users.some((u) => u.id === req.params.id))
      return problem(404, 'Not Found Error', 'Could not find user.', `${PROBLEM}resource-not-found`);
    const max = Math.min(100, Math.max(5, Number(req.query.get('max_results') ?? 10)));
    const visibleBefore = Date.now() - state.timelineDelayMs;
    const mine = state.posts
      .filter((p) => p.authorId === req.params.id && Date.parse(p.createdAt) <= visibleBefore)
      .sort((x, y) => y.seq - x.seq)
      .slice(0, max);
    const fields = (req.query.get('tweet.fields') ?? '').split(',');
    const data = mine.map((p) => {
      const v: Record<string, unknown> = tweetView(p);
      if (fields.includes('created_at')) v.created_at = p.createdAt;
      if (fields.includes('referenced_tweets') && p.replyTo)
        v.referenced_tweets = [{ type: 'replied_to', id: p.replyTo }];
      if (fields.includes('conversation_id')) v.conversation_id = p.id;
      return v;
    });
    const meta: Record<string, unknown> = { result_count: data.length };
    if (data.length) Object.assign(meta, { newest_id: mine[0]!.id, oldest_id: mine[mine.length - 1]!.id });
    return ok(req, a.userId, 200, data.length ? { data, meta } : { meta });
  });
  router.on('POST', '/2/users/:id/following', (req) => {
    const a = auth(req, 'follows.write');
    if (!('userId' in a)) return a;
    if (req.params.id !== a.userId) return problem(403, 'Forbidden', 'You are not permitted to perform this action.');
    const target = str(req.body?.target_user_id);
    if (!target || !/^[0-9]{1,19}$/.test(target)) return invalid('target_user_id', 'target_user_id is required');
    state.follows.push({ source: a.userId, target });
    return ok(req, a.userId, 200, { data: { following: true, pending_follow: false } });
  });

  const afterPublish = registerXAfterPublish(router, { posts: state.posts, auth, ok, problem });
  registerXMedia(router, {
    media: state.media,
    nextId,
    auth,
    problem,
    invalid,
    ok,
    processingPolls: opts.processingPolls ?? 1,
    checkAfterSecs: opts.checkAfterSecs ?? 1,
    failMediaTypes: new Set(['video/x-broken']),
  });

  const server = await startSimServer(router, {
    rateLimited: (reset) => ({
      status: 429,
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) },
    }),
    serverError: (status) =>
      problem(
        status,
        status === 503 ? 'Service Unavailable' : 'Internal Server Error',
        'Internal error, please try again later.',
      ),
    expiredToken: unauthorized,
    notFound: () =>
      problem(404, 'Not Found Error', 'The requested resource does not exist.', `${PROBLEM}resource-not-found`),
  });
  server.faults.latencyMs = opts.latencyMs ?? 0;

  const addUser = (u: { username: string; name?: string; followers?: number; following?: number }): XUser => {
    const user: XUser = {
      id: nextId(),
      username: u.username,
      name: u.name ?? u.username,
      followers: u.followers ?? 0,
      following: u.following ?? 0,
    };
    state.users.push(user);
    return user;
  };
  addUser({ username: 'herald_tester', name: 'Herald Tester', followers: 42, following: 17 });
  const byName = (n: string) => state.users.find((u) => u.username === n);

  return {
    url: server.url,
    port: server.port,
    close: server.close,
    faults: server.faults,
    requests: server.requests,
    state,
    metricReads: afterPublish.reads,
    clientId,
    clientSecret: opts.clientSecret,
    authorizeUrl: `${server.url}/i/oauth2/authorize`,
    tokenUrl: `${server.url}/2/oauth2/token`,
    apiBase: `${server.url}/2/`,
    addUser,
    setCurrentUser: (n) => {
      if (!byName(n)) throw new Error(`no X user ${n}`);
      currentUser = n;
    },
    expireAccessTokens: () => {
      for (const t of state.accessTokens.values()) t.expiresAt = 0;
    },
    postsBy: (n) => state.posts.filter((p) => p.authorId === byName(n)?.id),
    countPosts: (n, text) => state.counter.count(byName(n)?.id ?? '', text),
  };
}

/** The HERALD_MICROBLOG_* settings that point Herald at the X simulator, with this OAuth client. */
export const xSimulatorSettings = (x: XSimulator, client: { clientId: string; clientSecret: string }) => ({
  HERALD_MICROBLOG_API_URL: x.url,
  HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
  HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
  HERALD_MICROBLOG_CLIENT_ID: client.clientId,
  HERALD_MICROBLOG_CLIENT_SECRET: client.clientSecret,
});
