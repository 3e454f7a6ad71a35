// The Threads simulator driven by plain fetch calls written from Meta's documented requests
// (there is no maintained Threads client on npm that lets us change the host).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadsSimulator, type ThreadsSimulator } from './threads.simulator.js';
import { sleep } from './common.js';

let sim: ThreadsSimulator;
let media: http.Server;
let mediaUrl = '';
const redirectUri = 'http://127.0.0.1:4996/callback';

interface GraphError {
  error: { message: string; type: string; code: number; error_subcode?: number; fbtrace_id: string };
}

async function graph<T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  path: string,
  q: Record<string, string>,
): Promise<{ status: number; body: T }> {
  const url = new URL(`${sim.graphBase}${path}`);
  let body: URLSearchParams | undefined;
  if (method === 'GET') url.search = new URLSearchParams(q).toString();
  else body = new URLSearchParams(q);
  const res = await fetch(url, { method, body });
  return { status: res.status, body: (await res.json()) as T };
}

async function connect(username = 'herald.tester') {
  sim.setCurrentUser(username);
  const auth = new URL(sim.authorizeUrl);
  auth.search = new URLSearchParams({
    client_id: sim.clientId,
    redirect_uri: redirectUri,
    scope: 'threads_basic,threads_content_publish,threads_manage_replies',
    response_type: 'code',
    state: 'abc',
  }).toString();
  const res = await fetch(auth, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.endsWith('#_')).toBe(true);
  const back = new URL(location);
  expect(back.searchParams.get('state')).toBe('abc');
  const code = back.searchParams.get('code')!;
  const short = await fetch(sim.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: sim.clientId,
      client_secret: sim.clientSecret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
    }),
  });
  expect(short.status).toBe(200);
  const rawShort = await short.text();
  const s = JSON.parse(rawShort) as { access_token: string; user_id: number };
  const exchange = new URLSearchParams({
    grant_type: 'th_exchange_token',
    client_secret: sim.clientSecret,
    access_token: s.access_token,
  });
  const long = await fetch(`${sim.url}/access_token?${exchange}`);
  const l = (await long.json()) as { access_token: string; token_type: string; expires_in: number };
  return { short: s, rawShort, long: l, token: l.access_token };
}

async function waitFinished(id: string, token: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const r = await graph('GET', `/${id}`, { fields: 'status,error_message', access_token: token });
    if (r.body.status !== 'IN_PROGRESS') return r.body;
    await sleep(50);
  }
  throw new Error('container never finished');
}

async function publishText(token: string, userId: string, text: string, extra: Record<string, string> = {}) {
  const c = await graph<{ id: string }>('POST', `/${userId}/threads`, {
    media_type: 'TEXT',
    text,
    access_token: token,
    ...extra,
  });
  await waitFinished(c.body.id, token);
  const p = await graph<{ id: string }>('POST', `/${userId}/threads_publish`, {
    creation_id: c.body.id,
    access_token: token,
  });
  expect(p.status).toBe(200);
  return p.body.id;
}

beforeAll(async () => {
  sim = await startThreadsSimulator({ containerReadyMs: 100 });
  sim.addUser({ username: 'second.user' });
  media = http.createServer((req, res) => {
    if (req.url === '/img.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png-bytes'));
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim.close();
  await new Promise((r) => media.close(r));
});

describe('Threads simulator over documented Graph calls', () => {
  it('exchanges code → short-lived → long-lived token and serves /me', async () => {
    const { short, rawShort, long, token } = await connect();
    expect(short.access_token).toMatch(/^canary-threads-short-/);
    expect(typeof short.user_id).toBe('number');
    expect(long).toMatchObject({ token_type: 'bearer', expires_in: 5_183_944 });
    expect(token).toMatch(/^canary-threads-long-/);
    const me = await graph('GET', '/me', {
      fields: 'id,username,name,threads_profile_picture_url',
      access_token: token,
    });
    expect(me.body).toMatchObject({ username: 'herald.tester', name: 'Herald Tester' });
    // The exact id is in the raw JSON; JSON.parse rounds it, as with the real API.
    expect(rawShort).toContain(`"user_id":${String(me.body.id)}}`);
    expect(me.body.id).toBe(sim.state.users[0]!.id);
  });

  it('refreshes a long-lived token only once it is 24 h old', async () => {
    const { token } = await connect();
    const early = await fetch(`${sim.url}/refresh_access_token?grant_type=th_refresh_token&access_token=${token}`);
    expect(early.status).toBe(400);
    expect(((await early.json()) as GraphError).error.code).toBe(100);
    sim.ageTokens(86_401);
    const ok = await fetch(`${sim.url}/refresh_access_token?grant_type=th_refresh_token&access_token=${token}`);
    const body = (await ok.json()) as { access_token: string; expires_in: number };
    expect(ok.status).toBe(200);
    expect(body.access_token).not.toBe(token);
    expect(body.expires_in).toBe(5_183_944);
    expect(sim.state.refreshCallsByUser.get(sim.state.users[0]!.id)).toBe(2);
  });

  it('refuses to publish a container before FINISHED with code 24 / 4279009', async () => {
    const { token } = await connect();
    const me = (await graph('GET', '/me', { access_token: token })).body.id as string;
    const c = await graph<{ id: string }>('POST', `/${me}/threads`, {
      media_type: 'TEXT',
      text: 'too soon',
      access_token: token,
    });
    const early = await graph<GraphError>('POST', `/${me}/threads_publish`, {
      creation_id: c.body.id,
      access_token: token,
    });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({
      type: 'OAuthException',
      code: 24,
      error_subcode: 4279009,
      message: 'The requested resource does not exist',
    });
    expect(early.body.error.fbtrace_id).toBeTruthy();
    expect(await waitFinished(c.body.id, token)).toMatchObject({ status: 'FINISHED' });
    const ok = await graph<{ id: string }>('POST', `/${me}/threads_publish`, {
      creation_id: c.body.id,
      access_token: token,
    });
    expect(ok.body.id).not.toBe(c.body.id);
    expect((await graph('GET', `/${c.body.id}`, { fields: 'status', access_token: token })).body.status).toBe(
      'PUBLISHED',
    );
    expect(sim.countPosts('herald.tester', 'too soon')).toBe(1);

    // The race Threads is known for: FINISHED, yet publish still answers Media Not Found once.
    const raced = await graph<{ id: string }>('POST', `/${me}/threads`, {
      media_type: 'TEXT',
      text: 'raced',
      access_token: token,
    });
    expect(await waitFinished(raced.body.id, token)).toMatchObject({ status: 'FINISHED' });
    sim.state.publishRaces = 1;
    const lost = await graph<GraphError>('POST', `/${me}/threads_publish`, {
      creation_id: raced.body.id,
      access_token: token,
    });
    expect(lost.body.error).toMatchObject({ code: 24, error_subcode: 4279009 });
    expect(
      (
        await graph<{ id: string }>('POST', `/${me}/threads_publish`, {
          creation_id: raced.body.id,
          access_token: token,
        })
      ).status,
    ).toBe(200);
    expect(sim.countPosts('herald.tester', 'raced')).toBe(1);
  });

  it('publishes a self-thread with reply_to_id and reply_control, lists it with permalinks', async () => {
    const { token } = await connect('second.user');
    const me = (await graph('GET', '/me', { access_token: token })).body.id as string;
    const first = await publishText(token, me, 'part 1', { reply_control: 'accounts_you_follow' });
    const second = await publishText(token, me, 'part 2', { reply_to_id: first });
    const posts = sim.postsBy('second.user');
    expect(posts.map((p) => [p.text, p.replyToId])).toEqual([
      ['part 1', undefined],
      ['part 2', first],
    ]);
    expect(posts[0]!.replyControl).toBe('accounts_you_follow');
    const list = await graph<{ data: { id: string; text: string }[] }>('GET', `/${me}/threads`, {
      fields: 'id,text,timestamp,permalink',
      limit: '10',
      access_token: token,
    });
    expect(list.body.data.map((d) => d.id)).toEqual([second, first]);
    const one = await graph('GET', `/${second}`, { fields: 'permalink,shortcode,timestamp', access_token: token });
    expect(one.body.permalink).toBe(`https://www.threads.net/@second.user/post/${one.body.shortcode}`);
    expect(one.body.timestamp).toMatch(/\+0000$/);
    const status = await graph<GraphError>('GET', `/${second}`, { fields: 'status', access_token: token });
    expect(status.body.error.code).toBe(100);
  });

  it('fetches image_url itself; a bad URL ends the container in ERROR', async () => {
    const { token } = await connect();
    const me = (await graph('GET', '/me', { access_token: token })).body.id as string;
    const good = await graph<{ id: string }>('POST', `/${me}/threads`, {
      media_type: 'IMAGE',
      image_url: `${mediaUrl}/img.png`,
      text: 'pic',
      alt_text: 'A picture',
      access_token: token,
    });
    expect(await waitFinished(good.body.id, token)).toMatchObject({ status: 'FINISHED' });
    expect(sim.state.containers.get(good.body.id)!.fetched?.bytes.toString()).toBe('png-bytes');
    expect(sim.state.containers.get(good.body.id)!.altText).toBe('A picture');
    const bad = await graph<{ id: string }>('POST', `/${me}/threads`, {
      media_type: 'IMAGE',
      image_url: `${mediaUrl}/missing.png`,
      access_token: token,
    });
    expect(await waitFinished(bad.body.id, token)).toMatchObject({ status: 'ERROR', error_message: 'UNKNOWN' });
  });

  it('builds a carousel from finished children', async () => {
    const { token } = await connect();
    const me = (await graph('GET', '/me', { access_token: token })).body.id as string;
    const kids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const k = await graph<{ id: string }>('POST', `/${me}/threads`, {
        media_type: 'IMAGE',
        image_url: `${mediaUrl}/img.png`,
        is_carousel_item: 'true',
        access_token: token,
      });
      kids.push(k.body.id);
    }
    const early = await graph<GraphError>('POST', `/${me}/threads`, {
      media_type: 'CAROUSEL',
      children: kids.join(','),
      access_token: token,
    });
    expect(early.status).toBe(400);
    for (const k of kids) await waitFinished(k, token);
    const car = await graph<{ id: string }>('POST', `/${me}/threads`, {
      media_type: 'CAROUSEL',
      children: kids.join(','),
      text: 'album',
      access_token: token,
    });
    await waitFinished(car.body.id, token);
    const pub = await graph<{ id: string }>('POST', `/${me}/threads_publish`, {
      creation_id: car.body.id,
      access_token: token,
    });
    expect(sim.state.posts.find((p) => p.id === pub.body.id)).toMatchObject({
      mediaType: 'CAROUSEL_ALBUM',
      children: kids,
    });
    const quota = await graph<{ data: { quota_usage: number }[] }>('GET', `/${me}/threads_publishing_limit`, {
      fields: 'quota_usage,config',
      access_token: token,
    });
    expect(quota.body.data[0]!.quota_usage).toBeGreaterThanOrEqual(1);
  });

  it('answers bad tokens with code 190', async () => {
    const { token } = await connect();
    sim.expireAccessTokens();
    const r = await graph<GraphError>('GET', '/me', { access_token: token });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 190, error_subcode: 463, type: 'OAuthException' });
  });
});

describe('Threads simulator faults', () => {
  it('commit-then-drop on threads_publish: the post exists, the client gets a socket error', async () => {
    const { token } = await connect();
    const me = (await graph('GET', '/me', { access_token: token })).body.id as string;
    const c = await graph<{ id: string }>('POST', `/${me}/threads`, {
      media_type: 'TEXT',
      text: 'dropped',
      access_token: token,
    });
    await waitFinished(c.body.id, token);
    sim.faults.next({ kind: 'commit-then-drop' }, { route: /threads_publish$/ });
    await expect(
      graph('POST', `/${me}/threads_publish`, { creation_id: c.body.id, access_token: token }),
    ).rejects.toThrow(TypeError);
    expect(sim.countPosts('herald.tester', 'dropped')).toBe(1);
    const recent = await graph<{ data: { text: string }[] }>('GET', `/${me}/threads`, {
      fields: 'id,text',
      access_token: token,
    });
    expect(recent.body.data[0]!.text).toBe('dropped');
  });

  it('rate limit and 5xx use Graph error bodies; latency is added', async () => {
    const { token } = await connect();
    sim.faults.next({ kind: '429' }, { route: '/me' });
    const rl = await graph<GraphError>('GET', '/me', { access_token: token });
    expect(rl.body.error).toMatchObject({ code: 4, message: 'Application request limit reached' });
    sim.faults.next({ kind: '500' });
    const se = await graph<GraphError>('GET', '/me', { access_token: token });
    expect(se.status).toBe(500);
    expect(se.body.error.code).toBe(2);
    sim.faults.latencyMs = 120;
    const t0 = Date.now();
    await graph('GET', '/me', { access_token: token });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    sim.faults.latencyMs = 0;
  });
});
