// LinkedIn simulator: 3-legged OAuth (no PKCE), OpenID userinfo, versioned /rest/posts with
// x-restli-id, little-text truncation, Images API with a loopback upload URL, author finder, comments.
import { checkLinkedInOptions } from './linkedin.options.js';
import { registerLinkedInAfterPublish } from './linkedin.after-publish.js';
import { registerLinkedInComments, type LinkedInCommentRecord } from './linkedin.comments.js';
import { Router, startSimServer, canaryToken, randomId, str, redirect, withQuery, PostCounter } from './common.js';
import type { SimReply, SimRequest, Faults } from './common.js';
import { applyLittleText } from './linkedin.text.js';
import { linkedinMedia, type LinkedInMediaState } from './linkedin.media.js';

export interface LinkedInMember {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
}

export interface LinkedInPost {
  urn: string;
  author: string;
  /** Commentary as sent. */
  commentary: string;
  /** Commentary as LinkedIn keeps it (cut at the first unescaped reserved character). */
  keptCommentary: string;
  truncated: boolean;
  visibility: string;
  lifecycleState: string;
  content?: Record<string, any>;
  imageUrns: string[];
  createdAt: number;
  seq: number;
  /** reshareContext.parent as sent (linkedin.options.ts). */
  reshareParent?: string;
  isReshareDisabledByAuthor?: boolean;
}

export interface LinkedInImage {
  urn: string;
  owner: string;
  uploadId: string;
  bytes?: Buffer;
  /** GET /rest/images answers PROCESSING this many times after the upload. */
  processingLeft: number;
}

export interface LinkedInSimulatorOptions {
  /** Latency added to every request, ms (fan-out benchmarks); also settable later via faults.latencyMs. */
  latencyMs?: number;
  clientId?: string;
  clientSecret?: string;
  /** Issue (non-rotating) refresh tokens, as for apps approved for programmatic refresh. */
  programmaticRefresh?: boolean;
  /** Oldest LinkedIn-Version still served (default 202501); older ones get 426. */
  oldestVersion?: string;
  rejectDuplicates?: boolean;
  /** The app's "Authorized redirect URLs"; others are refused at the authorization page. */
  redirectUris?: string[];
}

export interface LinkedInState {
  /** The next member at the authorization page presses Cancel. */
  cancelNext?: boolean;
  members: LinkedInMember[];
  posts: LinkedInPost[];
  images: Map<string, LinkedInImage>;
  tokens: Map<string, { sub: string; scopes: string[]; expiresAt: number }>;
  refreshTokens: Map<string, { sub: string; scopes: string[] }>;
  issuedTokens: string[];
  refreshCalls: number;
  /** Refresh calls per user (LinkedIn: member sub; Threads: user id). */
  refreshCallsByUser: Map<string, number>;
  counter: PostCounter;
  /** The app lacks the Community Management API product: r_member_postAnalytics is refused at sign-in. */
  noAnalyticsProduct?: boolean;
}

export interface LinkedInSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: Faults;
  requests: string[];
  state: LinkedInState;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Videos and documents (linkedin.media.ts). */
  media: LinkedInMediaState;
  /** Comments accepted, in order (linkedin.comments.ts). */
  comments: LinkedInCommentRecord[];
  /** Versioned REST base: `${url}/rest`. */
  restBase: string;
  /** Non-versioned base: `${url}/v2`. */
  v2Base: string;
  addMember(m: { name: string; email?: string }): LinkedInMember;
  setCurrentUser(name: string): void;
  expireAccessTokens(): void;
  postsBy(name: string): LinkedInPost[];
  countPosts(name: string, commentary: string): number;
}

const li = (status: number, message: string, extra: Record<string, unknown> = {}): SimReply => ({
  status,
  body: { status, ...extra, message },
  headers: { 'x-restli-protocol-version': '2.0.0' },
});

export async function startLinkedInSimulator(opts: LinkedInSimulatorOptions = {}): Promise<LinkedInSimulator> {
  const clientId = opts.clientId ?? 'li-sim-client';
  const clientSecret = opts.clientSecret ?? 'li-sim-secret';
  const oldest = opts.oldestVersion ?? '202501';
  const state: LinkedInState = {
    members: [],
    posts: [],
    images: new Map(),
    tokens: new Map(),
    refreshTokens: new Map(),
    issuedTokens: [],
    refreshCalls: 0,
    refreshCallsByUser: new Map(),
    counter: new PostCounter(),
  };
  let base = '';
  let seq = 0;
  let shareSeq = 7_200_000_000_000_000_000n;
  let currentUser: string | undefined;
  const codes = new Map<string, { sub: string; redirectUri: string; scopes: string[] }>();

  const unauthorized = () =>
    li(401, 'The token used in the request has expired', { serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN' });
  const auth = (req: SimRequest): { sub: string; urn: string } | SimReply => {
    const t = req.bearer ? state.tokens.get(req.bearer) : undefined;
    if (!t) return li(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' });
    if (t.expiresAt <= Date.now()) return unauthorized();
    return { sub: t.sub, urn: `urn:li:person:${t.sub}` };
  };
  /** Checks the versioned-API headers, then the token. */
  const rest = (req: SimRequest): { sub: string; urn: string } | SimReply => {
    const version = String(req.headers['linkedin-version'] ?? '');
    if (!version)
      return li(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', {
        code: 'VERSION_MISSING',
      });
    if (!/^\d{6}(\.\d{2})?$/.test(version)) return li(400, `Invalid version ${version}`, { code: 'INVALID_VERSION' });
    if (version.slice(0, 6) < oldest)
      return li(426, `Requested version ${version} is not active`, { code: 'NONEXISTENT_VERSION' });
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') {
      return li(400, 'Rest.li protocol version 2.0.0 is required (X-Restli-Protocol-Version header)', {
        code: 'ILLEGAL_ARGUMENT',
      });
    }
    return auth(req);
  };

  const router = new Router();
  const media = linkedinMedia(router, { rest, auth, li, base: () => base });

  // --- OAuth -------------------------------------------------------------------------------
  router.on('GET', '/oauth/v2/authorization', (req) => {
    const q = req.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== clientId || !redirectUri)
      return { status: 400, raw: '<h1>Bummer, something went wrong.</h1>', headers: { 'content-type': 'text/html' } };
    if (opts.redirectUris && !opts.redirectUris.includes(redirectUri))
      return {
        status: 400,
        raw: '<h1>Bummer, something went wrong.</h1><p>The redirect_uri does not match the registered value</p>',
        headers: { 'content-type': 'text/html' },
      };
    const back = (p: Record<string, string | undefined>) =>
      redirect(withQuery(redirectUri, { ...p, state: q.get('state') ?? undefined }));
    if (state.cancelNext) {
      state.cancelNext = false;
      return back({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' });
    }
    if (q.get('response_type') !== 'code')
      return back({ error: 'invalid_request', error_description: 'response_type must be code' });
    const scopes = (q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
    const allowed = ['openid', 'profile', 'email', 'w_member_social', 'r_basicprofile'];
    // Member post analytics come with the Community Management API product, which an app may lack.
    if (!state.noAnalyticsProduct) allowed.push('r_member_postAnalytics');
    if (!scopes.length || !scopes.every((s) => allowed.includes(s))) {
      const refused = scopes.find((s) => !allowed.includes(s)) ?? '';
      return back({
        error: 'unauthorized_scope_error',
        error_description: `Scope "${refused}" is not authorized for your application`,
      });
    }
    const m = state.members.find((x) => x.name === currentUser) ?? state.members[0]!;
    const code = canaryToken('linkedin', 'code');
    codes.set(code, { sub: m.sub, redirectUri, scopes });
    return back({ code });
  });
  const issue = (sub: string, scopes: string[], refresh?: string) => {
    const token = canaryToken('linkedin', 'access');
    state.tokens.set(token, { sub, scopes, expiresAt: Date.now() + 5_184_000_000 });
    state.issuedTokens.push(token);
    const body: Record<string, unknown> = {
      access_token: token,
      expires_in: 5_184_000,
      scope: scopes.join(','),
      token_type: 'Bearer',
    };
    if (scopes.includes('openid')) {
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      body.id_token =
        `${enc({ alg: 'RS256', typ: 'JWT' })}.` +
        `${enc({ iss: 'https://www.linkedin.com/oauth', aud: clientId, sub, iat: Math.floor(Date.now() / 1000) })}.` +
        `${randomId(32)}`;
    }
    if (opts.programmaticRefresh) {
      const rt = refresh ?? canaryToken('linkedin', 'refresh');
      if (!refresh) {
        state.refreshTokens.set(rt, { sub, scopes });
        state.issuedTokens.push(rt);
      }
      Object.assign(body, { refresh_token: rt, refresh_token_expires_in: 31_536_000 });
    }
    return { status: 200, body };
  };
  router.on('POST', '/oauth/v2/accessToken', (req) => {
    const oauthErr = (status: number, error: string, d: string) => ({ status, body: { error, error_description: d } });
    if (req.bodyKind !== 'form')
      return oauthErr(
        400,
        'invalid_request',
        'Unable to retrieve access token: content type must be application/x-www-form-urlencoded',
      );
    const b = req.body;
    if (str(b.client_id) !== clientId || str(b.client_secret) !== clientSecret)
      return oauthErr(401, 'invalid_client', 'Client authentication failed');
    if (str(b.grant_type) === 'authorization_code') {
      const c = codes.get(str(b.code) ?? '');
      if (!c || c.redirectUri !== str(b.redirect_uri))
        return oauthErr(
          400,
          'invalid_request',
          'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization ' +
            'code. Or authorization code expired. Or external member binding exists',
        );
      codes.delete(str(b.code)!);
      return issue(c.sub, c.scopes);
    }
    if (str(b.grant_type) === 'refresh_token') {
      state.refreshCalls += 1;
      const rt = state.refreshTokens.get(str(b.refresh_token) ?? '');
      if (rt) state.refreshCallsByUser.set(rt.sub, (state.refreshCallsByUser.get(rt.sub) ?? 0) + 1);
      if (!opts.programmaticRefresh || !rt)
        return oauthErr(400, 'invalid_request', 'The provided refresh token is invalid');
      return issue(rt.sub, rt.scopes, str(b.refresh_token));
    }
    return oauthErr(400, 'unsupported_grant_type', 'grant_type is not supported');
  });
  router.on('GET', '/v2/userinfo', (req) => {
    const a = auth(req);
    if (!('sub' in a)) return a;
    const m = state.members.find((x) => x.sub === a.sub)!;
    return {
      status: 200,
      body: {
        sub: m.sub,
        email_verified: true,
        name: m.name,
        locale: { country: 'US', language: 'en' },
        given_name: m.givenName,
        family_name: m.familyName,
        email: m.email,
        picture: `${base}/media/${m.sub}.jpg`,
      },
    };
  });

  // --- Posts -------------------------------------------------------------------------------
  const view = (p: LinkedInPost) => ({
    id: p.urn,
    author: p.author,
    commentary: p.keptCommentary,
    visibility: p.visibility,
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: p.lifecycleState,
    isReshareDisabledByAuthor: false,
    createdAt: p.createdAt,
    publishedAt: p.createdAt,
    lastModifiedAt: p.createdAt,
    ...(p.content ? { content: p.content } : {}),
  });
  router.on('POST', '/rest/posts', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    if (req.bodyKind !== 'json' || typeof req.body !== 'object' || Array.isArray(req.body))
      return li(400, 'Request body could not be converted to data map', { code: 'ILLEGAL_ARGUMENT' });
    const b = req.body as Record<string, any>;
    const missing = ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState'].filter(
      (f) => b[f] === undefined,
    );
    if (missing.length)
      return li(
        422,
        missing.map((f) => `ERROR :: /${f} :: field is required but not found and has no default value`).join('\n'),
      );
    if (!['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'].includes(b.visibility))
      return li(422, `ERROR :: /visibility :: "${b.visibility}" is not an enum symbol`);
    if (!['PUBLISHED', 'DRAFT'].includes(b.lifecycleState))
      return li(422, `ERROR :: /lifecycleState :: "${b.lifecycleState}" is not an enum symbol`);
    if (b.author !== a.urn)
      return li(
        403,
        `Not enough permissions to access: partnerApiPostsExternal.CREATE.${String(req.headers['linkedin-version'])}`,
        { serviceErrorCode: 100, code: 'ACCESS_DENIED' },
      );
    const text = String(b.commentary);
    const little = applyLittleText(text);
    if (little.visible.length > 3000) return li(422, 'ERROR :: /commentary :: length exceeds 3000 characters');
    const imageUrns: string[] = [];
    if (b.content?.media?.id) imageUrns.push(String(b.content.media.id));
    if (b.content?.multiImage) {
      const imgs = b.content.multiImage.images;
      if (!Array.isArray(imgs) || imgs.length < 2 || imgs.length > 20)
        return li(422, 'ERROR :: /content/multiImage/images :: multiImage requires 2 to 20 images');
      for (const i of imgs) imageUrns.push(String(i?.id));
    }
    if (b.content !== undefined) {
      const kinds = Object.keys(b.content ?? {});
      if (kinds.length !== 1 || !['media', 'multiImage', 'article', 'poll', 'carousel'].includes(kinds[0]))
        return li(
          422,
          `ERROR :: /content :: content must be exactly one of media, multiImage, article, poll (got ` +
            `${kinds.join(', ') || 'none'})`,
        );
    }
    if (b.content?.article) {
      // The Posts API's Article: source and title required; description and thumbnail (an image URN of the author)
      // optional.
      const art = b.content.article;
      const unknown = Object.keys(art).filter(
        (k) => !['source', 'title', 'description', 'thumbnail', 'thumbnailAltText'].includes(k),
      );
      if (unknown.length)
        return li(422, `ERROR :: /content/article/${unknown[0]} :: unrecognized field found but type is schemaless`);
      if (typeof art.source !== 'string' || !/^https?:\/\/\S+$/.test(art.source))
        return li(422, 'ERROR :: /content/article/source :: field is required but not found and has no default value');
      if (typeof art.title !== 'string' || !art.title)
        return li(422, 'ERROR :: /content/article/title :: field is required but not found and has no default value');
      if (art.description !== undefined && typeof art.description !== 'string')
        return li(422, 'ERROR :: /content/article/description :: not a string');
      if (art.thumbnail !== undefined) {
        if (typeof art.thumbnail !== 'string' || !art.thumbnail.startsWith('urn:li:image:'))
          return li(422, 'ERROR :: /content/article/thumbnail :: not an image URN');
        imageUrns.push(art.thumbnail);
      }
    }
    const checked = checkLinkedInOptions(b, (urn) => state.posts.some((x) => x.urn === urn));
    if ('refused' in checked) return li(...checked.refused);
    const mediaUrn = String(b.content?.media?.id ?? '');
    if (/^urn:li:(video|document):/.test(mediaUrn)) {
      const refused = media.refuse(mediaUrn, a.urn, b.content.media.title);
      if (refused) return refused;
      imageUrns.pop();
    }
    for (const urn of imageUrns) {
      const img = state.images.get(urn);
      if (!img || !img.bytes) return li(400, `Invalid content: ${urn} is not available`, { code: 'INVALID_CONTENT' });
      if (img.owner !== a.urn)
        return li(422, 'Content(s) you provided must be owned by post author', { code: 'INVALID_CONTENT_OWNERSHIP' });
    }
    if (
      (opts.rejectDuplicates ?? true) &&
      text &&
      state.posts.some((p) => p.author === a.urn && p.commentary === text)
    ) {
      const dup = state.posts.find((p) => p.author === a.urn && p.commentary === text)!;
      return li(422, `Content is a duplicate of ${dup.urn}`, { code: 'DUPLICATE_POST' });
    }
    const post: LinkedInPost = {
      urn: `urn:li:share:${(shareSeq += 4099n)}`,
      author: a.urn,
      commentary: text,
      keptCommentary: little.kept,
      truncated: little.truncated,
      visibility: b.visibility,
      lifecycleState: b.lifecycleState,
      content: b.content,
      imageUrns,
      createdAt: Date.now(),
      seq: ++seq,
      ...checked.kept,
    };
    state.posts.push(post);
    state.counter.add(a.urn, text);
    return {
      status: 201,
      headers: { 'x-restli-id': post.urn, 'x-linkedin-id': post.urn, 'x-restli-protocol-version': '2.0.0' },
    };
  });
  router.on('GET', '/rest/posts', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    if (req.query.get('q') !== 'author')
      return li(400, 'Invalid query parameters passed to request', { code: 'ILLEGAL_ARGUMENT' });
    const author = req.query.get('author') ?? '';
    if (author !== a.urn)
      return li(403, 'Not enough permissions to access: partnerApiPostsExternal.FINDER-author', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    const start = Number(req.query.get('start') ?? 0);
    const count = Math.min(100, Number(req.query.get('count') ?? 10));
    const mine = state.posts.filter((p) => p.author === author).sort((x, y) => y.seq - x.seq);
    return {
      status: 200,
      body: {
        paging: { start, count, links: [], total: mine.length },
        elements: mine.slice(start, start + count).map(view),
      },
    };
  });
  router.on('GET', '/rest/posts/:urn', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    const p = state.posts.find((x) => x.urn === req.params.urn);
    return p ? { status: 200, body: view(p) } : li(404, `Not Found: ${req.params.urn}`, { code: 'NOT_FOUND' });
  });

  registerLinkedInAfterPublish(router, { state, rest, li });
  const comments = registerLinkedInComments(router, { state, rest, li });

  // --- Images ------------------------------------------------------------------------------
  router.on('POST', '/rest/images', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    if (req.query.get('action') !== 'initializeUpload') return li(400, 'Unknown action', { code: 'ILLEGAL_ARGUMENT' });
    const owner = req.body?.initializeUploadRequest?.owner;
    if (!owner)
      return li(
        422,
        'ERROR :: /initializeUploadRequest/owner :: field is required but not found and has no default value',
      );
    if (owner !== a.urn)
      return li(403, 'Not enough permissions to access: partnerApiImages.ACTION.initializeUpload', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    const uploadId = randomId(12);
    const urn = `urn:li:image:C4E10AQ${uploadId}`;
    state.images.set(urn, { urn, owner, uploadId, processingLeft: 1 });
    return {
      status: 200,
      body: {
        value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${base}/dms-uploads/${uploadId}`, image: urn },
      },
    };
  });
  router.on('PUT', '/dms-uploads/:id', (req) => {
    const a = auth(req);
    if (!('sub' in a)) return a;
    const img = [...state.images.values()].find((i) => i.uploadId === req.params.id);
    if (!img) return { status: 404, raw: '' };
    if (img.owner !== a.urn) return { status: 403, raw: '' };
    img.bytes = req.raw;
    return { status: 201, raw: '' };
  });
  router.on('GET', '/rest/images/:urn', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    const img = state.images.get(req.params.urn!);
    if (!img) return li(404, `Not Found: ${req.params.urn}`, { code: 'NOT_FOUND' });
    let status = 'WAITING_UPLOAD';
    if (img.bytes) {
      status = img.processingLeft > 0 ? 'PROCESSING' : 'AVAILABLE';
      if (img.processingLeft > 0) img.processingLeft -= 1;
    }
    return {
      status: 200,
      body: {
        id: img.urn,
        owner: img.owner,
        status,
        ...(status === 'AVAILABLE' ? { downloadUrl: `${base}/dms-downloads/${img.uploadId}` } : {}),
      },
    };
  });

  const server = await startSimServer(router, {
    rateLimited: () =>
      li(429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.', {
        serviceErrorCode: 101,
        code: 'TOO_MANY_REQUESTS',
      }),
    serverError: (status) =>
      li(status, status === 503 ? 'Service Unavailable' : 'Internal Server Error', { code: 'INTERNAL_SERVER_ERROR' }),
    expiredToken: unauthorized,
    notFound: (req) => li(404, `No virtual resource found for ${req.path}`, { code: 'NOT_FOUND' }),
  });
  server.faults.latencyMs = opts.latencyMs ?? 0;
  base = server.url;

  const addMember = (m: { name: string; email?: string }): LinkedInMember => {
    const [given, ...rest2] = m.name.split(' ');
    const member: LinkedInMember = {
      sub: randomId(6),
      name: m.name,
      givenName: given ?? m.name,
      familyName: rest2.join(' '),
      email: m.email ?? `${(given ?? 'user').toLowerCase()}@example.test`,
    };
    state.members.push(member);
    return member;
  };
  addMember({ name: 'Herald Tester' });
  const byName = (n: string) => state.members.find((m) => m.name === n);

  return {
    url: server.url,
    port: server.port,
    close: server.close,
    faults: server.faults,
    requests: server.requests,
    state,
    clientId,
    clientSecret,
    authorizeUrl: `${server.url}/oauth/v2/authorization`,
    tokenUrl: `${server.url}/oauth/v2/accessToken`,
    media: media.state,
    comments,
    restBase: `${server.url}/rest`,
    v2Base: `${server.url}/v2`,
    addMember,
    setCurrentUser: (n) => {
      if (!byName(n)) throw new Error(`no LinkedIn member ${n}`);
      currentUser = n;
    },
    expireAccessTokens: () => {
      for (const t of state.tokens.values()) t.expiresAt = 0;
    },
    postsBy: (n) => state.posts.filter((p) => p.author === `urn:li:person:${byName(n)?.sub}`),
    countPosts: (n, c) => state.counter.count(`urn:li:person:${byName(n)?.sub}`, c),
  };
}
