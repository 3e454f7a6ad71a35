/**
 * The Threads adapter against the shared Threads simulator (test/simulators), through Herald's
 * HTTP API for connecting and the real credentials service for publishing: containers that
 * take time to be ready, a reply chain, a carousel fetched from a loopback image server,
 * token refusals under 50 racing publishes, a rate limit and a lost publish answer.
 */
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { HeraldError } from '../../server/core/errors.js';
import type { MediaItem, PostInput, PostRef } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { publishThread } from '../../server/platforms/thread.js';
import { createThreadblogAdapter } from '../../server/platforms/threadblog.adapter.js';
import { png, video } from '../helpers/media-files.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startThreadsSimulator, type ThreadsSimulator } from '../simulators/threads.simulator.js';
import { connectThroughBrowser } from './oauth-browser.js';

let sim: ThreadsSimulator;
let t: TestServer;
let key: string;
let accountId: string;
let images: http.Server;
let imageBase = '';
const bodies = new Map([['red', png(5, 5, 30)], ['blue', png(5, 5, 60)], ['clip', video('mp4', 2048)]]);

const row = () => t.server.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `k-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => t.server.deps.platforms.get('threadblog').publishPost(ctx, input));
const image = (name: string, altText: string): MediaItem => ({ path: '', mime: 'image/png', size: 0, kind: 'image', altText, publicUrl: `${imageBase}/${name}.png` });
const clip = (altText: string): MediaItem => ({ path: '', mime: 'video/mp4', size: 0, kind: 'video', altText, publicUrl: `${imageBase}/clip.mp4` });

beforeAll(async () => {
  images = http.createServer((req, res) => {
    const body = bodies.get((req.url ?? '').replace(/^\/|\.(png|mp4)$/g, ''));
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url?.endsWith('.mp4') ? 'video/mp4' : 'image/png' });
    res.end(body);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(images.address() as { port: number }).port}`;
  sim = await startThreadsSimulator({ containerReadyMs: 60 });
  t = await startServer({
    settings: {
      HERALD_THREADBLOG_API_URL: sim.url,
      HERALD_THREADBLOG_AUTHORIZE_URL: sim.authorizeUrl,
      HERALD_THREADBLOG_TOKEN_URL: sim.tokenUrl,
      HERALD_THREADBLOG_CLIENT_ID: sim.clientId,
      HERALD_THREADBLOG_CLIENT_SECRET: sim.clientSecret,
    },
  });
  t.server.deps.platforms.register(createThreadblogAdapter({ pollIntervalMs: 20, retryDelayMs: 20 }));
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
  await new Promise((resolve) => images?.close(resolve));
});

describe('Threads simulator through Herald', () => {
  it('connects with the long-lived exchange', async () => {
    const result = await connectThroughBrowser(t, key, 'threadblog');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(new URL(result.authUrl).searchParams.get('scope')).toBe('threads_basic,threads_content_publish,threads_manage_replies');
    expect(result.body).toMatchObject({ success: true, accountUuid: expect.any(String), socialSetId: expect.any(String) });
    accountId = result.body.accountUuid;
    expect(sim.state.exchangeCalls).toBe(1);
    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.find((a: any) => a.uuid === accountId)).toMatchObject({ platform: 'threadblog', username: 'herald.tester', status: 'active' });
    // The long-lived token (60 days), not the short-lived one the code bought.
    const creds = (await t.server.services.credentials.load(accountId))!;
    expect(creds.accessToken).toMatch(/^canary-threads-long-/);
    expect(creds.expiresAt! - Date.now()).toBeGreaterThan(59 * 86_400_000);
  });

  it('publishes a single post and answers its media id and permalink', async () => {
    const ref = await publish(post('Hello from Herald'));
    const made = sim.state.posts.find((p) => p.id === ref.id)!;
    expect(made).toMatchObject({ text: 'Hello from Herald', mediaType: 'TEXT_POST' });
    expect(ref.url).toBe(`https://www.threads.net/@herald.tester/post/${made.shortcode}`);
  });

  it('waits for containers, so publishing never hits Media Not Found, and chains replies', async () => {
    const parts = ['Sim one', 'Sim two', 'Sim three'].map((text) => post(text, { options: { replyControl: 'accounts_you_follow' } }));
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(t.server.deps.platforms.get('threadblog'), ctx, parts, [], { beforeSend: () => {}, afterSend: () => {} }));
    const chain = refs.map((r) => sim.state.posts.find((p) => p.id === r.id)!);
    expect(chain.map((p) => p.text)).toEqual(['Sim one', 'Sim two', 'Sim three']);
    expect(chain.map((p) => p.replyToId)).toEqual([undefined, refs[0].id, refs[1].id]);
    expect(refs[0].url).toMatch(/^https:\/\/www\.threads\.net\/@herald\.tester\/post\//);
    expect(chain.every((p) => p.replyControl === 'accounts_you_follow')).toBe(true);
    expect(sim.state.notReadyPublishes).toBe(0);
  });

  it('retries the "Media Not Found" race and publishes once', async () => {
    sim.state.publishRaces = 2;
    const ref = await publish(post('After the race'));
    expect(sim.state.publishRaces).toBe(0);
    expect(sim.countPosts('herald.tester', 'After the race')).toBe(1);
    expect(sim.state.posts.at(-1)!.id).toBe(ref.id);
  });

  it('refuses media without a public URL before anything is sent', async () => {
    const before = sim.requests.length;
    const err = await publish(post('local file', { media: [{ path: '/tmp/x.png', mime: 'image/png', size: 1, kind: 'image', altText: '' }] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/public URL/);
    expect(sim.requests.length).toBe(before);
  });

  it('a container Threads could not prepare fails for good with its reason, and nothing is published', async () => {
    const before = sim.state.posts.length;
    const err = await publish(post('Broken image', { media: [{ ...image('red', ''), publicUrl: `${imageBase}/gone.gif` }] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/could not prepare the post \(UNKNOWN\)/);
    expect(sim.state.posts.length).toBe(before);
  });

  it('publishes a carousel of two images the simulator downloads', async () => {
    const ref = await publish(post('Carousel', { media: [image('red', 'Red'), image('blue', 'Blue')] }));
    const made = sim.state.posts.find((p) => p.id === ref.id)!;
    expect(made.mediaType).toBe('CAROUSEL_ALBUM');
    const kids = made.children.map((id) => sim.state.containers.get(id)!);
    expect(kids.map((k) => k.mediaUrl)).toEqual([`${imageBase}/red.png`, `${imageBase}/blue.png`]);
    expect(kids.map((k) => k.fetched?.bytes.length)).toEqual([bodies.get('red')!.length, bodies.get('blue')!.length]);
    expect(kids.map((k) => [k.mediaType, k.altText, k.isCarouselItem])).toEqual([['IMAGE', 'Red', true], ['IMAGE', 'Blue', true]]);
  });

  it('publishes a video with its alt text, and a carousel of an image and a video', async () => {
    const one = await publish(post('A clip', { media: [clip('Ten seconds of nothing')] }));
    const single = sim.state.posts.find((p) => p.id === one.id)!;
    expect(single.mediaType).toBe('VIDEO');
    const container = sim.state.containers.get(single.containerId)!;
    expect([container.mediaUrl, container.altText, container.fetched?.bytes.length]).toEqual([`${imageBase}/clip.mp4`, 'Ten seconds of nothing', bodies.get('clip')!.length]);

    const mixed = await publish(post('Picture and clip', { media: [image('red', 'Red again'), clip('The clip again')] }));
    const made = sim.state.posts.find((p) => p.id === mixed.id)!;
    expect(made.mediaType).toBe('CAROUSEL_ALBUM');
    expect(made.children.map((id) => sim.state.containers.get(id)!).map((k) => [k.mediaType, k.altText])).toEqual([['IMAGE', 'Red again'], ['VIDEO', 'The clip again']]);
  });

  it('a rate limit is rate_limited; a lost publish answer is ambiguous and found', async () => {
    sim.faults.next({ kind: '429' }, { route: '/threads_publish' });
    const limited = await publish(post('limited')).catch((e) => e);
    expect(limited).toBeInstanceOf(PlatformError);
    expect(limited.kind).toBe('rate_limited');
    sim.faults.next({ kind: 'commit-then-drop' }, { route: '/threads_publish' });
    const since = Date.now();
    const lost = await publish(post('Lost on the way')).catch((e) => e);
    expect(lost.kind).toBe('ambiguous');
    const found = await t.server.services.credentials.withCredentials(row(), (ctx) => t.server.deps.platforms.get('threadblog').findRecentPost(ctx, { text: 'Lost on the way', since, idempotencyKey: 'k' }));
    expect(found?.id).toBe(sim.state.posts.at(-1)!.id);
    const none = await t.server.services.credentials.withCredentials(row(), (ctx) => t.server.deps.platforms.get('threadblog').findRecentPost(ctx, { text: 'Never sent', since, idempotencyKey: 'k' }));
    expect(none).toBeNull();
  });

  it('finds a lost reply among the replies, with its parent', async () => {
    const first = await publish(post('Parent post'));
    sim.faults.next({ kind: 'commit-then-drop' }, { route: '/threads_publish' });
    const err = await publish(post('Child reply', { replyTo: first })).catch((e) => e);
    expect(err.kind).toBe('ambiguous');
    const child = sim.state.posts.at(-1)!;
    expect(child).toMatchObject({ text: 'Child reply', replyToId: first.id });
    const find = (replyTo: PostRef) => t.server.services.credentials.withCredentials(row(), (ctx) => t.server.deps.platforms.get('threadblog').findRecentPost(ctx, { text: 'Child reply', replyTo, since: Date.now() - 60_000, idempotencyKey: 'k' }));
    expect((await find(first))?.id).toBe(child.id);
    expect(await find({ id: '17900000000000001', url: '' })).toBeNull();
  });

  it('renews a token about to expire once for 50 racing publishes; an expired one needs reauth', async () => {
    sim.ageTokens(2 * 86_400);
    const saved = (await t.server.services.credentials.load(accountId))!;
    expect(saved.refreshToken).toBe(saved.accessToken);
    await t.server.services.credentials.save(accountId, { ...saved, expiresAt: Date.now() + 30_000 });
    const before = sim.state.refreshCalls;
    const calls = t.server.services.credentials.refreshCalls;
    const refs = await Promise.all(Array.from({ length: 50 }, (_, i) => publish(post(`Racing ${i}`))));
    expect(new Set(refs.map((r) => r.id)).size).toBe(50);
    expect(sim.state.refreshCalls - before).toBe(1);
    expect(t.server.services.credentials.refreshCalls - calls).toBe(1);
    expect((await t.server.services.credentials.load(accountId))!.expiresAt! - Date.now()).toBeGreaterThan(59 * 86_400_000);

    // Threads cannot renew a token that has already expired.
    sim.expireAccessTokens();
    const err = await publish(post('Too late')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    expect((await t.call('GET', `/accounts/${accountId}`, { key })).body.account.status).toBe('needs_reauth');
  });
});
