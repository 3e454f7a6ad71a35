// The X simulator driven by twitter-api-v2 (a client nobody here wrote).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwitterApi, ApiResponseError, type ITwitterApiClientPlugin } from 'twitter-api-v2';
import { startXSimulator, type XSimulator } from './x.simulator.js';

let sim: XSimulator;

/** Points twitter-api-v2's hard-coded https://api.x.com URLs at the simulator. */
function toSim(): ITwitterApiClientPlugin {
  return {
    onBeforeRequestConfig({ params }) {
      const p = params as { url: string; forceBodyMode?: string };
      p.url = p.url.replace(/^https:\/\/api\.x\.com\//, `${sim.url}/`);
      // twitter-api-v2 1.29 sends the token request as JSON (its body-mode check reads
      // url.password); the real endpoint and the simulator want a form.
      if (p.url.includes('/2/oauth2/')) p.forceBodyMode = 'url';
    },
  };
}
const settings = () => ({ httpAgent: new http.Agent({ keepAlive: false }) as never, plugins: [toSim()] });

async function connect(username?: string) {
  if (username) sim.setCurrentUser(username);
  const app = new TwitterApi({ clientId: sim.clientId }, settings());
  const redirectUri = 'http://127.0.0.1:4999/callback';
  const link = app.generateOAuth2AuthLink(redirectUri, {
    scope: ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access', 'follows.write'],
  });
  const authorize = new URL(link.url);
  const res = await fetch(`${sim.authorizeUrl}${authorize.search}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe(link.state);
  const login = await app.loginWithOAuth2({
    code: back.searchParams.get('code')!,
    codeVerifier: link.codeVerifier,
    redirectUri,
  });
  return { app, ...login };
}

beforeAll(async () => {
  sim = await startXSimulator({ checkAfterSecs: 0 });
  sim.addUser({ username: 'second_user' });
  sim.addUser({ username: 'lagging_user' });
});
afterAll(() => sim.close());

describe('X simulator with twitter-api-v2', () => {
  it('runs the PKCE flow and answers users/me with public_metrics', async () => {
    const { client, accessToken, refreshToken, scope } = await connect();
    expect(accessToken).toMatch(/^canary-x-access-/);
    expect(refreshToken).toMatch(/^canary-x-refresh-/);
    expect(scope).toContain('media.write');
    const me = await client.v2.me({ 'user.fields': ['public_metrics'] });
    expect(me.data.username).toBe('herald_tester');
    expect(me.data.public_metrics?.followers_count).toBe(42);
    expect(me.data.public_metrics?.following_count).toBe(17);
  });

  it('rejects a wrong code verifier and a reused code', async () => {
    const app = new TwitterApi({ clientId: sim.clientId }, settings());
    const link = app.generateOAuth2AuthLink('http://127.0.0.1:4999/cb', { scope: ['tweet.read', 'users.read'] });
    const res = await fetch(`${sim.authorizeUrl}${new URL(link.url).search}`, { redirect: 'manual' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    await expect(
      app.loginWithOAuth2({ code, codeVerifier: 'x'.repeat(50), redirectUri: 'http://127.0.0.1:4999/cb' }),
    ).rejects.toMatchObject({ code: 400 });
    // The code was consumed by the failed attempt.
    await expect(
      app.loginWithOAuth2({ code, codeVerifier: link.codeVerifier, redirectUri: 'http://127.0.0.1:4999/cb' }),
    ).rejects.toMatchObject({ code: 400 });
  });

  it('rotates refresh tokens: the old one stops working', async () => {
    const { app, refreshToken } = await connect();
    const before = sim.state.refreshCalls;
    const first = await app.refreshOAuth2Token(refreshToken!);
    expect(first.refreshToken).not.toBe(refreshToken);
    expect((await first.client.v2.me()).data.username).toBe('herald_tester');
    const err = await app.refreshOAuth2Token(refreshToken!).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiResponseError);
    expect((err as ApiResponseError).data).toMatchObject({ error: 'invalid_request' });
    expect(sim.state.refreshCalls).toBe(before + 2);
  });

  it('can revoke the whole grant when a used refresh token is replayed', async () => {
    const strict = await startXSimulator({ reuseRevokesChain: true });
    const prev = sim;
    sim = strict;
    try {
      const { app, refreshToken } = await connect();
      const next = await app.refreshOAuth2Token(refreshToken!);
      await expect(app.refreshOAuth2Token(refreshToken!)).rejects.toMatchObject({ code: 400 });
      await expect(next.client.v2.me()).rejects.toMatchObject({ code: 401 });
      await expect(app.refreshOAuth2Token(next.refreshToken!)).rejects.toMatchObject({ code: 400 });
      expect(strict.state.refreshCallsByUser.get(strict.state.users[0]!.id)).toBe(3);
    } finally {
      sim = prev;
      await strict.close();
    }
  });

  it('answers 401 in problem shape for expired tokens', async () => {
    const { client } = await connect();
    sim.expireAccessTokens();
    const err = (await client.v2.me().catch((e: unknown) => e)) as ApiResponseError;
    expect(err.code).toBe(401);
    expect(err.data).toMatchObject({ title: 'Unauthorized', status: 401 });
  });

  it('creates tweets, replies, quotes and community posts, and lists them', async () => {
    const { client } = await connect('second_user');
    const root = await client.v2.tweet('thread root');
    expect(root.data.id).toMatch(/^[0-9]{19}$/);
    expect((root.data as { edit_history_tweet_ids?: string[] }).edit_history_tweet_ids).toEqual([root.data.id]);
    const reply = await client.v2.reply('part two', root.data.id);
    const quote = await client.v2.tweet({
      text: 'quoting',
      quote_tweet_id: root.data.id,
      community_id: '1146654567674912769',
    });
    const posts = sim.postsBy('second_user');
    expect(posts.map((p) => p.text)).toEqual(['thread root', 'part two', 'quoting']);
    expect(posts[1]!.replyTo).toBe(root.data.id);
    expect(posts[2]!).toMatchObject({ quoteOf: root.data.id, communityId: '1146654567674912769' });
    const me = await client.v2.me();
    const timeline = await client.v2.userTimeline(me.data.id, { max_results: 5 });
    expect(timeline.tweets.map((t) => t.id)).toEqual([quote.data.id, reply.data.id, root.data.id]);
  });

  it('rejects duplicate content with X 403 and sends rate-limit headers', async () => {
    const { client } = await connect('second_user');
    const res = await client.v2.post('tweets', { text: 'once only' }, { fullResponse: true });
    expect(Number(res.rateLimit?.limit)).toBe(100);
    expect(res.rateLimit!.remaining).toBeLessThan(100);
    expect(res.rateLimit!.reset).toBeGreaterThan(Date.now() / 1000);
    const err = (await client.v2.tweet('once only').catch((e: unknown) => e)) as ApiResponseError;
    expect(err.code).toBe(403);
    expect(err.data.detail).toBe('You are not allowed to create a Tweet with duplicate content.');
    expect(sim.countPosts('second_user', 'once only')).toBe(1);
    expect(sim.state.duplicateRejections).toBeGreaterThanOrEqual(1);
  });

  it('shows a new post in the timeline only after timelineDelayMs, as X does', async () => {
    const { client } = await connect('lagging_user');
    const me = await client.v2.me();
    sim.state.timelineDelayMs = 400;
    try {
      const made = await client.v2.tweet('not indexed yet');
      expect((await client.v2.userTimeline(me.data.id, { max_results: 5 })).tweets.map((t) => t.id)).toEqual([]);
      await new Promise((r) => setTimeout(r, 450));
      expect((await client.v2.userTimeline(me.data.id, { max_results: 5 })).tweets.map((t) => t.id)).toEqual([
        made.data.id,
      ]);
    } finally {
      sim.state.timelineDelayMs = 0;
    }
  });

  it('uploads chunked video with STATUS polling, image one-shot, alt text, and attaches media', async () => {
    const { client } = await connect();
    const video = Buffer.alloc(2.5 * 1024 * 1024, 7);
    const videoId = await client.v2.uploadMedia(video, { media_type: 'video/mp4' });
    expect(sim.state.media.get(videoId)).toMatchObject({ state: 'succeeded', totalBytes: video.length });
    expect(sim.state.media.get(videoId)!.bytes!.equals(video)).toBe(true);
    expect(sim.requests.filter((r) => r === `POST /2/media/upload/${videoId}/append`)).toHaveLength(3);
    expect(sim.requests).toContain('GET /2/media/upload');
    await client.v2.createMediaMetadata(videoId, { alt_text: { text: 'a grey square' } });
    expect(sim.state.media.get(videoId)!.altText).toBe('a grey square');

    const form = new FormData();
    form.append('media', new Blob([Buffer.from('png-bytes')], { type: 'image/png' }), 'a.png');
    form.append('media_category', 'tweet_image');
    const res = await fetch(`${sim.apiBase}media/upload`, {
      method: 'POST',
      body: form,
      headers: {
        authorization:
          `Bearer ` + `${(client as unknown as { _requestMaker: { bearerToken: string } })._requestMaker.bearerToken}`,
      },
    });
    expect(res.status).toBe(200);
    const image = ((await res.json()) as { data: { id: string; media_key: string } }).data;
    expect(image.media_key).toBe(`3_${image.id}`);

    const t = await client.v2.tweet({ text: 'with media', media: { media_ids: [videoId] } });
    expect(sim.state.posts.find((p) => p.id === t.data.id)!.mediaIds).toEqual([videoId]);
  });

  it('refuses media that is still processing', async () => {
    const { client } = await connect();
    const init = await client.v2.post('media/upload/initialize', {
      media_type: 'video/mp4',
      total_bytes: 4,
      media_category: 'tweet_video',
    });
    const id = (init as { data: { id: string } }).data.id;
    await client.v2.post(
      `media/upload/${id}/append`,
      { segment_index: 0, media: Buffer.from('abcd') },
      { forceBodyMode: 'form-data' },
    );
    const fin = (await client.v2.post(`media/upload/${id}/finalize`)) as {
      data: { processing_info?: { state: string } };
    };
    expect(fin.data.processing_info?.state).toBe('pending');
    const err = (await client.v2
      .tweet({ text: 'too early', media: { media_ids: [id] } })
      .catch((e: unknown) => e)) as ApiResponseError;
    expect(err.code).toBe(400);
  });

  it('follows a user', async () => {
    const { client } = await connect();
    const me = await client.v2.me();
    const r = await client.v2.follow(me.data.id, '2244994945');
    expect(r.data).toEqual({ following: true, pending_follow: false });
    expect(sim.state.follows).toContainEqual({ source: me.data.id, target: '2244994945' });
  });
});

describe('X simulator faults', () => {
  it('returns 429 with reset headers', async () => {
    const { client } = await connect('herald_tester');
    sim.faults.next({ kind: '429', resetInSeconds: 120 }, { route: 'POST /2/tweets' });
    const err = (await client.v2.tweet('rate limited').catch((e: unknown) => e)) as ApiResponseError;
    expect(err.code).toBe(429);
    expect(err.rateLimit?.remaining).toBe(0);
    const wait = err.rateLimit!.reset - Date.now() / 1000;
    expect(wait).toBeGreaterThan(110);
    expect(wait).toBeLessThanOrEqual(121);
    expect(err.data).toMatchObject({ title: 'Too Many Requests', status: 429 });
    expect(sim.state.posts.some((p) => p.text === 'rate limited')).toBe(false);
  });

  it('commit-then-drop creates the post and breaks the socket', async () => {
    const { client } = await connect('herald_tester');
    sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /2/tweets' });
    const err = await client.v2.tweet('committed then dropped').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ApiResponseError);
    expect(sim.countPosts('herald_tester', 'committed then dropped')).toBe(1);
  });

  it('500, expired-token and latency', async () => {
    const { client } = await connect('herald_tester');
    sim.faults.next({ kind: '500' });
    expect(((await client.v2.me().catch((e: unknown) => e)) as ApiResponseError).code).toBe(500);
    sim.faults.next({ kind: 'expired-token' });
    expect(((await client.v2.me().catch((e: unknown) => e)) as ApiResponseError).code).toBe(401);
    sim.faults.latencyMs = 150;
    const t0 = Date.now();
    await client.v2.me();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    sim.faults.latencyMs = 0;
  });
});
