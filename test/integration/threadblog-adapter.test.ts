/**
 * The Threads adapter against a Threads Graph peer on loopback (threadblog.peer.ts), through
 * Herald's HTTP API for connecting and the real credentials service for publishing: OAuth with
 * the long-lived exchange, a post, a reply chain read back from the peer, a carousel whose
 * images the peer downloads from a loopback server, the "Media Not Found" race, one refresh for
 * 50 racing publishes, a refused refresh, a rate limit, and a publish whose answer was lost.
 */
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { HeraldError } from '../../server/errors.js';
import type { MediaItem, PostInput, PostRef } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { adapterFor, registerAdapter } from '../../server/platforms/index.js';
import { publishThread } from '../../server/platforms/thread.js';
import { createThreadblogAdapter } from '../../server/platforms/threadblog.adapter.js';
import { png } from '../helpers/media-files.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { connectThroughBrowser } from './oauth-browser.js';
import { startThreadsPeer, type ThreadsPeer } from './threadblog.peer.js';

let peer: ThreadsPeer;
let t: TestServer;
let key: string;
let accountId: string;
let images: http.Server;
let imageBase = '';
const imageHits: string[] = [];

const row = () => t.server.deps.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `k-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('threadblog').publishPost(ctx, input));
const image = (name: string, altText: string): MediaItem => ({ path: '', mime: 'image/png', size: 0, kind: 'image', altText, publicUrl: `${imageBase}/${name}.png` });

beforeAll(async () => {
  images = http.createServer((req, res) => {
    imageHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png(6, 4, req.url?.includes('red') ? 40 : 80));
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(images.address() as { port: number }).port}`;
  peer = await startThreadsPeer();
  t = await startServer({
    settings: {
      HERALD_THREADBLOG_API_URL: peer.url,
      HERALD_THREADBLOG_AUTHORIZE_URL: `${peer.url}/oauth/authorize`,
      HERALD_THREADBLOG_TOKEN_URL: `${peer.url}/oauth/access_token`,
      HERALD_THREADBLOG_CLIENT_ID: peer.clientId,
      HERALD_THREADBLOG_CLIENT_SECRET: peer.clientSecret,
    },
  });
  // The real polling and retries, at test speed.
  registerAdapter(createThreadblogAdapter({ pollIntervalMs: 10, retryDelayMs: 10 }));
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await peer?.close();
  await new Promise((resolve) => images?.close(resolve));
});

describe('Threads through Herald', () => {
  it('connects over OAuth with the long-lived token exchange', async () => {
    const result = await connectThroughBrowser(t, key, 'threadblog');
    const auth = new URL(result.authUrl);
    expect(auth.searchParams.get('scope')).toBe('threads_basic,threads_content_publish,threads_manage_replies');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ success: true, accountUuid: expect.any(String), socialSetId: expect.any(String) });
    accountId = result.body.accountUuid;
    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.find((a: any) => a.uuid === accountId)).toMatchObject({ platform: 'threadblog', username: peer.user.username, status: 'active' });
    const creds = await t.server.services.credentials.load(accountId);
    expect(creds?.accessToken).toMatch(/^long-/);
    expect(creds!.expiresAt! - Date.now()).toBeGreaterThan(59 * 24 * 3600_000);
  });

  it('publishes a single post and answers its media id and permalink', async () => {
    const ref = await publish(post('Hello from Herald'));
    const sent = peer.posts.at(-1)!;
    expect(sent).toMatchObject({ id: ref.id, text: 'Hello from Herald', mediaType: 'TEXT' });
    expect(ref.url).toBe(`https://www.threads.net/@${peer.user.username}/post/${ref.id}`);
  });

  it('publishes a 3-post thread as a reply chain with reply control', async () => {
    const parts = ['Thread one', 'Thread two', 'Thread three'].map((text) => post(text, { options: { replyControl: 'accounts_you_follow' } }));
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(adapterFor('threadblog'), ctx, parts, [], { beforeSend: () => {}, afterSend: () => {} }));
    const chain = refs.map((r) => peer.posts.find((p) => p.id === r.id)!);
    expect(chain.map((p) => p.text)).toEqual(['Thread one', 'Thread two', 'Thread three']);
    expect(chain.map((p) => p.replyTo)).toEqual([undefined, refs[0].id, refs[1].id]);
    expect(chain.every((p) => p.replyControl === 'accounts_you_follow')).toBe(true);
  });

  it('publishes two images with alt text as a carousel the network downloads', async () => {
    imageHits.length = 0;
    const ref = await publish(post('Two pictures', { media: [image('red', 'A red square'), image('blue', 'A blue square')] }));
    const sent = peer.posts.find((p) => p.id === ref.id)!;
    expect(sent.mediaType).toBe('CAROUSEL');
    expect(sent.children).toEqual([
      { imageUrl: `${imageBase}/red.png`, altText: 'A red square', bytes: png(6, 4, 40).length },
      { imageUrl: `${imageBase}/blue.png`, altText: 'A blue square', bytes: png(6, 4, 80).length },
    ]);
    expect(imageHits.sort()).toEqual(['/blue.png', '/red.png']);
  });

  it('refuses media without a public URL before anything is sent', async () => {
    const before = peer.posts.length;
    const err = await publish(post('local file', { media: [{ path: '/tmp/x.png', mime: 'image/png', size: 1, kind: 'image', altText: '' }] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/public URL/);
    expect(peer.posts.length).toBe(before);
  });

  it('a container Threads could not prepare fails for good with its reason', async () => {
    const before = peer.posts.length;
    const broken: MediaItem = { path: '', mime: 'image/png', size: 0, kind: 'image', altText: '', publicUrl: 'http://127.0.0.1:1/gone.png' };
    const err = await publish(post('Broken image', { media: [broken] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/Media download has failed/);
    expect(peer.posts.length).toBe(before);
  });

  it('retries the "Media Not Found" race and publishes once', async () => {
    peer.fail('/threads_publish', 'media_not_found', 2);
    const before = peer.posts.length;
    const ref = await publish(post('After the race'));
    expect(peer.posts.length).toBe(before + 1);
    expect(peer.posts.at(-1)).toMatchObject({ id: ref.id, text: 'After the race' });
  });

  it('a rate limit becomes rate_limited', async () => {
    peer.fail('/threads', 'rate_limit');
    const err = await publish(post('limited')).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('rate_limited');
  });

  it('a publish whose answer was lost is ambiguous, and the lookup finds it', async () => {
    peer.fail('/threads_publish', 'drop_after_commit');
    const since = Date.now();
    const err = await publish(post('Lost answer')).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('ambiguous');
    const made = peer.posts.at(-1)!;
    const found = await t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('threadblog').findRecentPost(ctx, { text: 'Lost answer', since, idempotencyKey: 'k' }));
    expect(found?.id).toBe(made.id);
    const none = await t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('threadblog').findRecentPost(ctx, { text: 'Never sent', since, idempotencyKey: 'k' }));
    expect(none).toBeNull();
  });

  it('finds a lost reply among the replies, with its parent', async () => {
    const first = await publish(post('Parent post'));
    peer.fail('/threads_publish', 'drop_after_commit');
    const err = await publish(post('Child reply', { replyTo: first })).catch((e) => e);
    expect(err.kind).toBe('ambiguous');
    const found = await t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('threadblog').findRecentPost(ctx, { text: 'Child reply', replyTo: first, since: Date.now() - 60_000, idempotencyKey: 'k' }));
    expect(found?.id).toBe(peer.posts.at(-1)!.id);
    const other: PostRef = { id: 'm0', url: '' };
    const wrongParent = await t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('threadblog').findRecentPost(ctx, { text: 'Child reply', replyTo: other, since: Date.now() - 60_000, idempotencyKey: 'k' }));
    expect(wrongParent).toBeNull();
  });

  it('renews a token about to expire once for 50 racing publishes', async () => {
    const saved = (await t.server.services.credentials.load(accountId))!;
    await t.server.services.credentials.save(accountId, { ...saved, expiresAt: Date.now() + 30_000 });
    const calls = t.server.services.credentials.refreshCalls;
    const peerCalls = peer.refreshCalls;
    const refs = await Promise.all(Array.from({ length: 50 }, (_, i) => publish(post(`Racing ${i}`))));
    expect(new Set(refs.map((r) => r.id)).size).toBe(50);
    expect(t.server.services.credentials.refreshCalls - calls).toBe(1);
    expect(peer.refreshCalls - peerCalls).toBe(1);
  });

  it('an expired token cannot be renewed: needs_reauth with TOKEN_EXPIRED', async () => {
    peer.expireTokens();
    const err = await publish(post('Too late')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    const account = await t.call('GET', `/accounts/${accountId}`, { key });
    expect(account.body.account.status).toBe('needs_reauth');
  });
});
