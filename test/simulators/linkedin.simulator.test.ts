// The LinkedIn simulator driven by linkedin-api-client (LinkedIn's own JS client).
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthClient, RestliClient } from 'linkedin-api-client';
import { startLinkedInSimulator, type LinkedInSimulator } from './linkedin.simulator.js';
import { applyLittleText } from './linkedin.text.js';

// axios is the client's own dependency (test/node_modules/linkedin-api-client/node_modules), not
// importable from here: its types come through the client's.
type AxiosInstance = RestliClient['axiosInstance'];
type Interceptor = NonNullable<Parameters<AxiosInstance['interceptors']['request']['use']>[0]>;
type InternalAxiosRequestConfig = Parameters<Interceptor>[0];

let sim: LinkedInSimulator;
const VERSION = '202601';
const redirectUrl = 'http://127.0.0.1:4997/callback';

/** Sends the client's hard-coded linkedin.com URLs to the simulator. */
function retarget(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  config.url = config.url?.replace(/^https:\/\/(www|api)\.linkedin\.com/, sim.url);
  config.proxy = false;
  return config;
}
// AuthClient uses the global axios of the package's own dependency tree.
const pkgRequire = createRequire(createRequire(import.meta.url).resolve('linkedin-api-client'));
(pkgRequire('axios') as { default: AxiosInstance }).default.interceptors.request.use(retarget);

function restli(): RestliClient {
  const c = new RestliClient();
  c.axiosInstance.interceptors.request.use(retarget);
  return c;
}

interface HttpFailure {
  code?: string;
  response?: { status: number; headers: Record<string, string>; data: any };
}
/** The axios error of a request that must fail. */
async function failure(p: Promise<unknown>): Promise<HttpFailure> {
  try {
    await p;
  } catch (e) {
    return e as HttpFailure;
  }
  throw new Error('expected the request to fail');
}

async function connect(name = 'Herald Tester') {
  sim.setCurrentUser(name);
  const auth = new AuthClient({ clientId: sim.clientId, clientSecret: sim.clientSecret, redirectUrl });
  const link = new URL(auth.generateMemberAuthorizationUrl(['openid', 'profile', 'w_member_social'], 'st8'));
  const res = await fetch(`${sim.authorizeUrl}${link.search}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('st8');
  const token = await auth.exchangeAuthCodeForAccessToken(back.searchParams.get('code')!);
  const info = (await restli().get({ resourcePath: '/userinfo', accessToken: token.access_token })).data as {
    sub: string;
  };
  return { auth, token, author: `urn:li:person:${info.sub}` };
}

const post = (author: string, commentary: string, extra: Record<string, unknown> = {}) => ({
  author,
  commentary,
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
  isReshareDisabledByAuthor: false,
  ...extra,
});

beforeAll(async () => {
  sim = await startLinkedInSimulator();
  sim.addMember({ name: 'Second Member' });
});
afterAll(() => sim.close());

describe('LinkedIn simulator with linkedin-api-client', () => {
  it('exchanges the code (no PKCE) and serves OpenID userinfo', async () => {
    const { token, author } = await connect();
    expect(token.access_token).toMatch(/^canary-linkedin-access-/);
    expect(token.expires_in).toBe(5_184_000);
    expect(token).not.toHaveProperty('refresh_token');
    const info = (await restli().get({ resourcePath: '/userinfo', accessToken: token.access_token })).data as Record<
      string,
      unknown
    >;
    expect(info).toMatchObject({ name: 'Herald Tester', given_name: 'Herald', email: 'herald@example.test' });
    expect(author).toBe(`urn:li:person:${info.sub}`);
  });

  it('creates a post: 201, empty body, id in x-restli-id; finder by author lists it', async () => {
    const { token, author } = await connect('Second Member');
    const c = restli();
    const res = await c.create({
      resourcePath: '/posts',
      entity: post(author, 'Hello LinkedIn'),
      versionString: VERSION,
      accessToken: token.access_token,
    });
    expect(res.status).toBe(201);
    expect(res.data).toBe('');
    expect(res.createdEntityId).toMatch(/^urn:li:share:\d+$/);
    expect(res.headers['x-restli-id']).toBe(res.createdEntityId);
    const found = await c.finder({
      resourcePath: '/posts',
      finderName: 'author',
      queryParams: { author, count: 10 },
      versionString: VERSION,
      accessToken: token.access_token,
    });
    expect(found.data.elements.map((e) => e.id)).toEqual([res.createdEntityId]);
    expect(sim.postsBy('Second Member')[0]).toMatchObject({
      commentary: 'Hello LinkedIn',
      visibility: 'PUBLIC',
      truncated: false,
    });
  });

  it('refuses /rest calls without LinkedIn-Version or with an old one', async () => {
    const { token, author } = await connect();
    const plain = await fetch(`${sim.restBase}/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'content-type': 'application/json',
        'x-restli-protocol-version': '2.0.0',
      },
      body: JSON.stringify(post(author, 'no version')),
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ status: 400, code: 'VERSION_MISSING' });
    const noRestli = await fetch(`${sim.restBase}/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'content-type': 'application/json',
        'linkedin-version': VERSION,
      },
      body: JSON.stringify(post(author, 'no restli')),
    });
    expect(noRestli.status).toBe(400);
    const err = await failure(
      restli().create({
        resourcePath: '/posts',
        entity: post(author, 'old'),
        versionString: '202201',
        accessToken: token.access_token,
      }),
    );
    expect(err.response!.status).toBe(426);
    expect(sim.countPosts('Herald Tester', 'no version') + sim.countPosts('Herald Tester', 'old')).toBe(0);
  });

  it('lists missing required fields with 422 and rejects a foreign author', async () => {
    const { token, author } = await connect();
    const err = await failure(
      restli().create({
        resourcePath: '/posts',
        entity: { author, commentary: 'x' },
        versionString: VERSION,
        accessToken: token.access_token,
      }),
    );
    expect(err.response!.status).toBe(422);
    expect(err.response!.data.message).toContain('ERROR :: /visibility :: field is required but not found');
    expect(err.response!.data.message).toContain('/lifecycleState');
    const foreign = await failure(
      restli().create({
        resourcePath: '/posts',
        entity: post('urn:li:person:someoneElse', 'x'),
        versionString: VERSION,
        accessToken: token.access_token,
      }),
    );
    expect(foreign.response!.status).toBe(403);
  });

  it('cuts commentary at the first unescaped reserved character, keeps escapes and markup', async () => {
    expect(applyLittleText('a \\(b\\) #tag @[Ann](urn:li:person:abc) end')).toEqual({
      kept: 'a \\(b\\) #tag @[Ann](urn:li:person:abc) end',
      truncated: false,
      visible: 'a (b) #tag @[Ann](urn:li:person:abc) end',
    });
    const { token, author } = await connect();
    await restli().create({
      resourcePath: '/posts',
      entity: post(author, 'Price (USD) is 5'),
      versionString: VERSION,
      accessToken: token.access_token,
    });
    const stored = sim.postsBy('Herald Tester').find((p) => p.commentary === 'Price (USD) is 5')!;
    expect(stored).toMatchObject({ keptCommentary: 'Price ', truncated: true });
  });

  it('uploads an image via initializeUpload + PUT and posts it (single and multiImage)', async () => {
    const { token, author } = await connect();
    const c = restli();
    const upload = async (bytes: string) => {
      const init = await c.action({
        resourcePath: '/images',
        actionName: 'initializeUpload',
        data: { initializeUploadRequest: { owner: author } },
        versionString: VERSION,
        accessToken: token.access_token,
      });
      const { uploadUrl, image } = init.data.value as { uploadUrl: string; image: string };
      expect(uploadUrl.startsWith(sim.url)).toBe(true);
      const put = await fetch(uploadUrl, {
        method: 'PUT',
        body: bytes,
        headers: { authorization: `Bearer ${token.access_token}` },
      });
      expect(put.status).toBe(201);
      return image;
    };
    const one = await upload('img-1');
    const status = await c.get({
      resourcePath: '/images/{id}',
      pathKeys: { id: one },
      versionString: VERSION,
      accessToken: token.access_token,
    });
    expect(status.data).toMatchObject({ id: one, status: 'PROCESSING' });
    const single = await c.create({
      resourcePath: '/posts',
      entity: post(author, 'one image', { content: { media: { id: one, altText: 'alt' } } }),
      versionString: VERSION,
      accessToken: token.access_token,
    });
    const two = await upload('img-2');
    const multi = await c.create({
      resourcePath: '/posts',
      entity: post(author, 'two images', { content: { multiImage: { images: [{ id: one }, { id: two }] } } }),
      versionString: VERSION,
      accessToken: token.access_token,
    });
    const posts = sim.state.posts;
    expect(posts.find((p) => p.urn === single.createdEntityId)!.imageUrns).toEqual([one]);
    expect(posts.find((p) => p.urn === multi.createdEntityId)!.imageUrns).toEqual([one, two]);
    expect(sim.state.images.get(two)!.bytes!.toString()).toBe('img-2');
  });

  it('rejects duplicates with 422 and answers 401 in LinkedIn shape for expired tokens', async () => {
    const { token, author } = await connect();
    const c = restli();
    await c.create({
      resourcePath: '/posts',
      entity: post(author, 'dup?'),
      versionString: VERSION,
      accessToken: token.access_token,
    });
    const dup = await failure(
      c.create({
        resourcePath: '/posts',
        entity: post(author, 'dup?'),
        versionString: VERSION,
        accessToken: token.access_token,
      }),
    );
    expect(dup.response!.status).toBe(422);
    expect(sim.countPosts('Herald Tester', 'dup?')).toBe(1);
    sim.expireAccessTokens();
    const exp = await failure(c.get({ resourcePath: '/userinfo', accessToken: token.access_token }));
    expect(exp.response!.status).toBe(401);
    expect(exp.response!.data).toMatchObject({ status: 401, serviceErrorCode: 65602 });
  });
});

describe('LinkedIn programmatic refresh', () => {
  it('returns the same (non-rotating) refresh token with a new access token', async () => {
    const prev = sim;
    sim = await startLinkedInSimulator({ programmaticRefresh: true });
    try {
      const { auth, token } = await connect();
      const t = token as typeof token & { refresh_token: string; refresh_token_expires_in: number };
      expect(t.refresh_token).toMatch(/^canary-linkedin-refresh-/);
      expect(t.refresh_token_expires_in).toBe(31_536_000);
      const again = (await auth.exchangeRefreshTokenForAccessToken(t.refresh_token)) as typeof t;
      expect(again.refresh_token).toBe(t.refresh_token);
      expect(again.access_token).not.toBe(t.access_token);
      expect(sim.state.refreshCallsByUser.get(sim.state.members[0]!.sub)).toBe(1);
    } finally {
      await sim.close();
      sim = prev;
    }
  });
});

describe('LinkedIn simulator faults', () => {
  it('429 without rate-limit headers, then commit-then-drop creates the post', async () => {
    const { token, author } = await connect();
    const c = restli();
    sim.faults.next({ kind: '429' }, { route: 'POST /rest/posts' });
    const limited = await failure(
      c.create({
        resourcePath: '/posts',
        entity: post(author, 'limited'),
        versionString: VERSION,
        accessToken: token.access_token,
      }),
    );
    expect(limited.response!.status).toBe(429);
    expect(limited.response!.headers['x-rate-limit-reset']).toBeUndefined();
    expect(limited.response!.data).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /rest/posts' });
    const dropped = await failure(
      c.create({
        resourcePath: '/posts',
        entity: post(author, 'dropped'),
        versionString: VERSION,
        accessToken: token.access_token,
      }),
    );
    expect(dropped.response).toBeUndefined();
    expect(dropped.code).toMatch(/ECONNRESET|ERR_BAD_RESPONSE|socket hang up/);
    expect(sim.countPosts('Herald Tester', 'dropped')).toBe(1);
    expect(sim.countPosts('Herald Tester', 'limited')).toBe(0);
  });
});
