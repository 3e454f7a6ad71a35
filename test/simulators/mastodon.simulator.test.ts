// The Mastodon simulator driven by masto (a client nobody here wrote).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthAPIClient, createRestAPIClient, MastoHttpError } from 'masto';
import { startMastodonSimulator, type MastodonSimulator } from './mastodon.simulator.js';
import { s256 } from './common.js';

let sim: MastodonSimulator;
const redirectUri = 'http://127.0.0.1:4998/callback';

async function connect(username = 'herald') {
  sim.setCurrentUser(username);
  const anon = createRestAPIClient({ url: sim.url });
  const app = await anon.v1.apps.create({
    clientName: 'Herald',
    redirectUris: [redirectUri],
    scopes: 'write:statuses write:media profile read:statuses',
  });
  const auth = new URL(sim.authorizeUrl);
  auth.search = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId!,
    redirect_uri: redirectUri,
    scope: 'write:statuses write:media profile',
    state: 's1',
  }).toString();
  const res = await fetch(auth, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('s1');
  const oauth = createOAuthAPIClient({ url: sim.url });
  const token = await oauth.token.create({
    grantType: 'authorization_code',
    clientId: app.clientId!,
    clientSecret: app.clientSecret!,
    redirectUri,
    code: back.searchParams.get('code')!,
  });
  return { token, client: createRestAPIClient({ url: sim.url, accessToken: token.accessToken, mediaTimeout: 10_000 }) };
}

beforeAll(async () => {
  sim = await startMastodonSimulator({ maxCharacters: 500 });
  sim.addAccount({ username: 'second' });
});
afterAll(() => sim.close());

describe('Mastodon simulator with masto', () => {
  it('registers an app, authorizes headlessly and verifies credentials', async () => {
    const { token, client } = await connect();
    expect(token.accessToken).toMatch(/^canary-mastodon-access-/);
    expect(token.scope).toBe('write:statuses write:media profile');
    const me = await client.v1.accounts.verifyCredentials();
    expect(me.username).toBe('herald');
    expect(me.url).toBe(`${sim.url}/@herald`);
    expect([me.followersCount, me.followingCount]).toEqual([128, 64]);
  });

  it('supports PKCE S256 on the token endpoint', async () => {
    const app = sim.registerApp([redirectUri], 'profile');
    const verifier = 'v'.repeat(64);
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: redirectUri,
      scope: 'profile',
      code_challenge: s256(verifier),
      code_challenge_method: 'S256',
    });
    const code = async () =>
      new URL(
        (await fetch(`${sim.authorizeUrl}?${q}`, { redirect: 'manual' })).headers.get('location')!,
      ).searchParams.get('code')!;
    const form = (c: string, v: string) =>
      new URLSearchParams({
        grant_type: 'authorization_code',
        code: c,
        client_id: app.clientId,
        client_secret: app.clientSecret,
        redirect_uri: redirectUri,
        code_verifier: v,
      });
    const bad = await fetch(sim.tokenUrl, { method: 'POST', body: form(await code(), 'w'.repeat(64)) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_grant' });
    const good = await fetch(sim.tokenUrl, { method: 'POST', body: form(await code(), verifier) });
    expect(good.status).toBe(200);
    const body = (await good.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'profile' });
    expect(body).not.toHaveProperty('refresh_token');
    expect(body).not.toHaveProperty('expires_in');
  });

  it('reports instance limits', async () => {
    const client = createRestAPIClient({ url: sim.url });
    const inst = await client.v2.instance.fetch();
    expect(inst.configuration.statuses.maxCharacters).toBe(500);
    expect(inst.configuration.statuses.charactersReservedPerUrl).toBe(23);
    expect(inst.configuration.mediaAttachments.imageSizeLimit).toBe(16_777_216);
  });

  it('posts a thread with language and visibility, and lists it', async () => {
    const { client } = await connect('second');
    const root = await client.v1.statuses.create({ status: 'root <b>', visibility: 'public', language: 'en' });
    const reply = await client.v1.statuses.create({ status: 'reply', inReplyToId: root.id, visibility: 'unlisted' });
    expect(root.content).toBe('<p>root &lt;b&gt;</p>');
    expect(root.url).toBe(`${sim.url}/@second/${root.id}`);
    expect(reply.inReplyToId).toBe(root.id);
    expect(sim.statusesBy('second').map((s) => [s.text, s.visibility, s.language])).toEqual([
      ['root <b>', 'public', 'en'],
      ['reply', 'unlisted', null],
    ]);
    const fetched = await client.v1.statuses.$select(reply.id).fetch();
    expect(fetched.id).toBe(reply.id);
    const me = await client.v1.accounts.verifyCredentials();
    const list = await client.v1.accounts.$select(me.id).statuses.list({ limit: 5 });
    expect(list.map((s) => s.id)).toEqual([reply.id, root.id]);
  });

  it('replays the same status for a repeated Idempotency-Key', async () => {
    const { client } = await connect();
    const key = randomUUID();
    const meta = { requestInit: { headers: { 'Idempotency-Key': key } } };
    const a = await client.v1.statuses.create({ status: 'idempotent hello' }, meta);
    const b = await client.v1.statuses.create({ status: 'idempotent hello' }, meta);
    expect(b.id).toBe(a.id);
    expect(sim.countPosts('herald', 'idempotent hello')).toBe(1);
    const c = await client.v1.statuses.create(
      { status: 'idempotent hello' },
      { requestInit: { headers: { 'Idempotency-Key': randomUUID() } } },
    );
    expect(c.id).not.toBe(a.id);
    expect(sim.countPosts('herald', 'idempotent hello')).toBe(2);
  });

  it('enforces the character limit and blank text with 422 {error}', async () => {
    const { client } = await connect();
    const err = (await client.v1.statuses
      .create({ status: 'a'.repeat(501) })
      .catch((e: unknown) => e)) as MastoHttpError;
    expect(err).toBeInstanceOf(MastoHttpError);
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe('Validation failed: Text character limit of 500 exceeded');
    // A long URL costs 23.
    await client.v1.statuses.create({ status: `${'a'.repeat(470)} https://example.com/${'p'.repeat(200)}` });
  });

  it('uploads media (image 200, video 202 then polled), sets alt text and attaches it', async () => {
    const { client } = await connect();
    const img = await client.v2.media.create({
      file: new Blob([Buffer.from('png')], { type: 'image/png' }),
      description: 'alt one',
    });
    expect(img.url).toBe(`${sim.url}/system/media_attachments/${img.id}`);
    const raw = await fetch(img.url!);
    expect(await raw.text()).toBe('png');

    const before = sim.requests.filter((r) => r.startsWith('GET /api/v1/media/')).length;
    const vid = await client.v2.media.create({ file: new Blob([Buffer.alloc(1000)], { type: 'video/mp4' }) });
    expect(vid.url).not.toBeNull();
    expect(sim.requests.filter((r) => r.startsWith('GET /api/v1/media/')).length).toBeGreaterThan(before);
    await client.v1.media.$select(vid.id).update({ description: 'a video' });
    expect(sim.state.media.get(vid.id)!.description).toBe('a video');

    const s = await client.v1.statuses.create({ status: 'with media', mediaIds: [img.id, vid.id] });
    expect(s.mediaAttachments.map((m) => m.id)).toEqual([img.id, vid.id]);
  });

  it('refuses media still processing with the documented 422', async () => {
    const { client } = await connect();
    const vid = await client.v2.media.create({
      file: new Blob([Buffer.alloc(10)], { type: 'video/mp4' }),
      skipPolling: true,
    });
    expect(vid.url).toBeNull();
    const err = (await client.v1.statuses
      .create({ status: 'early', mediaIds: [vid.id] })
      .catch((e: unknown) => e)) as MastoHttpError;
    expect(err.statusCode).toBe(422);
    expect(err.message).toMatch(/not finished processing/);
  });

  it('answers 401 with the Mastodon error for revoked tokens', async () => {
    const { client } = await connect();
    sim.revokeAllTokens();
    const err = (await client.v1.accounts.verifyCredentials().catch((e: unknown) => e)) as MastoHttpError;
    expect(err.statusCode).toBe(401);
    expect(err.message).toBe('The access token is invalid');
  });
});

describe('Mastodon simulator faults', () => {
  it('429 carries an ISO 8601 X-RateLimit-Reset', async () => {
    const { token } = await connect();
    sim.faults.next({ kind: '429', resetInSeconds: 300 }, { route: 'POST /api/v1/statuses' });
    const res = await fetch(`${sim.url}/api/v1/statuses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'limited' }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: 'Too many requests' });
    const reset = res.headers.get('x-ratelimit-reset')!;
    expect(reset).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Date.parse(reset) - Date.now()).toBeGreaterThan(290_000);
    expect(sim.countPosts('herald', 'limited')).toBe(0);
  });

  it('successful responses carry ISO rate-limit headers', async () => {
    const { token } = await connect();
    const res = await fetch(`${sim.url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(300);
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/Z$/);
  });

  it('commit-then-drop creates the status; the retry with the same key does not duplicate', async () => {
    const { client } = await connect();
    const key = randomUUID();
    const meta = { requestInit: { headers: { 'Idempotency-Key': key } } };
    sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses' });
    const err = await client.v1.statuses.create({ status: 'dropped once' }, meta).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(MastoHttpError);
    expect(sim.countPosts('herald', 'dropped once')).toBe(1);
    const retry = await client.v1.statuses.create({ status: 'dropped once' }, meta);
    expect(retry.id).toBe(sim.statusesBy('herald').find((s) => s.text === 'dropped once')!.id);
    expect(sim.countPosts('herald', 'dropped once')).toBe(1);
  });

  it('timeout holds the request then drops it; 503 uses the error shape', async () => {
    const { client } = await connect();
    sim.faults.next({ kind: 'timeout', ms: 200 });
    const t0 = Date.now();
    await expect(client.v1.accounts.verifyCredentials()).rejects.toBeInstanceOf(Error);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    sim.faults.next({ kind: '503' });
    const e = (await client.v1.accounts.verifyCredentials().catch((x: unknown) => x)) as MastoHttpError;
    expect(e.statusCode).toBe(503);
    expect(sim.faults.fired.map((f) => f.kind)).toEqual(expect.arrayContaining(['timeout', '503']));
  });
});
