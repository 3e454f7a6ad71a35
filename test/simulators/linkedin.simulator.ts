// LinkedIn simulator: 3-legged OAuth (no PKCE), OpenID userinfo, versioned /rest/posts with
// x-restli-id, little-text truncation, Images API with a loopback upload URL, author finder, comments.
// OAuth and userinfo are in linkedin.oauth.ts, the Images API in linkedin.images.ts.
import { checkLinkedInOptions } from './linkedin.options.js';
import { registerLinkedInAfterPublish } from './linkedin.after-publish.js';
import { registerLinkedInComments } from './linkedin.comments.js';
import { Router, startSimServer, randomId, PostCounter } from './common.js';
import type { SimReply, SimRequest } from './common.js';
import { applyLittleText } from './linkedin.text.js';
import { linkedinMedia } from './linkedin.media.js';
import { registerLinkedInOAuth } from './linkedin.oauth.js';
import { registerLinkedInImages } from './linkedin.images.js';

import type {
  LinkedInMember,
  LinkedInPost,
  LinkedInSimulatorOptions,
  LinkedInState,
  LinkedInSimulator,
} from './linkedin.types.js';
export type {
  LinkedInMember,
  LinkedInPost,
  LinkedInImage,
  LinkedInSimulatorOptions,
  LinkedInState,
  LinkedInSimulator,
} from './linkedin.types.js';

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

  registerLinkedInOAuth(router, {
    opts,
    clientId,
    clientSecret,
    state,
    auth,
    base: () => base,
    currentUser: () => currentUser,
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

  registerLinkedInImages(router, { state, rest, auth, li, base: () => base });

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
