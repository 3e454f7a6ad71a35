/**
 * The LinkedIn adapter against a LinkedIn peer on loopback (problog.peer.ts), through Herald's
 * HTTP API for connecting and the real credentials service for publishing: OAuth, the person
 * URN from userinfo, a post with escaped little text and the versioned headers, a "thread"
 * joined into one post as the engine plans it, two images through the Images API, one refresh
 * for 50 racing publishes, refused and missing refreshes, a daily limit until midnight UTC,
 * and a post whose answer was lost.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { partsFromTexts } from '../../server/domain/publishing/plan.js';
import { HeraldError } from '../../server/errors.js';
import type { MediaItem, PostInput } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { adapterFor, registerAdapter } from '../../server/platforms/index.js';
import { createProblogAdapter } from '../../server/platforms/problog.adapter.js';
import { publishThread } from '../../server/platforms/thread.js';
import { png } from '../helpers/media-files.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { connectThroughBrowser } from './oauth-browser.js';
import { startLinkedInPeer, type LinkedInPeer } from './problog.peer.js';

let peer: LinkedInPeer;
let t: TestServer;
let key: string;
let accountId: string;
const mediaDir = tempDir('herald-li-media-');

const row = () => t.server.deps.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `k-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('problog').publishPost(ctx, input));

function image(name: string, altText: string, size: number): MediaItem {
  const bytes = png(10, 10, size);
  const file = `${mediaDir}/${name}.png`;
  fs.writeFileSync(file, bytes);
  return { path: file, mime: 'image/png', size: bytes.length, kind: 'image', altText };
}

beforeAll(async () => {
  peer = await startLinkedInPeer();
  t = await startServer({
    settings: {
      HERALD_PROBLOG_API_URL: peer.url,
      HERALD_PROBLOG_AUTHORIZE_URL: `${peer.url}/oauth/v2/authorization`,
      HERALD_PROBLOG_TOKEN_URL: `${peer.url}/oauth/v2/accessToken`,
      HERALD_PROBLOG_CLIENT_ID: peer.clientId,
      HERALD_PROBLOG_CLIENT_SECRET: peer.clientSecret,
    },
  });
  registerAdapter(createProblogAdapter({ pollIntervalMs: 10 }));
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await peer?.close();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('LinkedIn through Herald', () => {
  it('connects over OAuth and keeps the person URN', async () => {
    const result = await connectThroughBrowser(t, key, 'problog');
    expect(new URL(result.authUrl).searchParams.get('scope')).toBe('openid profile w_member_social');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ success: true, accountUuid: expect.any(String), socialSetId: expect.any(String) });
    accountId = result.body.accountUuid;
    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.find((a: any) => a.uuid === accountId)).toMatchObject({ platform: 'problog', username: 'Grace Hopper', status: 'active' });
    expect(JSON.parse(row().meta)).toEqual({ personUrn: `urn:li:person:${peer.sub}` });
  });

  it('publishes one post with escaped commentary, the version headers and visibility', async () => {
    const text = 'Ship it_now (v2) #launch @team [beta] {x} <y> *z* ~w~ a|b back\\slash — see https://example.com/a_b?q=(1)';
    const ref = await publish(post(text, { options: { visibility: 'CONNECTIONS' } }));
    const sent = peer.posts.at(-1)!;
    expect(ref).toEqual({ id: sent.id, url: `https://www.linkedin.com/feed/update/${sent.id}` });
    expect(sent.body.commentary).toBe('Ship it\\_now \\(v2\\) \\#launch \\@team \\[beta\\] \\{x\\} \\<y\\> \\*z\\* \\~w\\~ a\\|b back\\\\slash — see https://example.com/a_b?q=(1)');
    expect(sent.body).toMatchObject({
      author: `urn:li:person:${peer.sub}`, visibility: 'CONNECTIONS', lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false,
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    });
    expect(sent.headers['linkedin-version']).toMatch(/^\d{6}$/);
    expect(sent.headers['x-restli-protocol-version']).toBe('2.0.0');
  });

  it('publishes a 3-post thread as one post with the parts joined, and refuses replies', async () => {
    const parts = partsFromTexts('problog', ['First part.', 'Second part.', 'Third part.']);
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(adapterFor('problog'), ctx,
      parts.map((p) => post(p.text)), [], { beforeSend: () => {}, afterSend: () => {} }));
    expect(refs).toHaveLength(1);
    expect(peer.posts.at(-1)!.body.commentary).toBe('First part.\n\nSecond part.\n\nThird part.');
    const before = peer.posts.length;
    const err = await publish(post('a reply', { replyTo: refs[0] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(peer.posts.length).toBe(before);
  });

  it('publishes two images with alt text through the Images API as multiImage', async () => {
    const a = image('one', 'A first chart', 100);
    const b = image('two', 'A second chart', 200);
    await publish(post('Two charts', { media: [a, b] }));
    const images = peer.posts.at(-1)!.body.content.multiImage.images as { id: string; altText: string }[];
    expect(images.map((i) => i.altText)).toEqual(['A first chart', 'A second chart']);
    expect(images.map((i) => peer.images.get(i.id))).toEqual([
      { owner: `urn:li:person:${peer.sub}`, bytes: a.size, status: 'AVAILABLE' },
      { owner: `urn:li:person:${peer.sub}`, bytes: b.size, status: 'AVAILABLE' },
    ]);
    await publish(post('One chart', { media: [image('three', 'A third chart', 50)] }));
    expect(peer.posts.at(-1)!.body.content.media).toEqual({ id: expect.stringMatching(/^urn:li:image:/), altText: 'A third chart' });
  });

  it('a daily limit becomes rate_limited until midnight UTC', async () => {
    peer.fail('/rest/posts', 'rate_limit');
    const err = await publish(post('limited')).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('rate_limited');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(err.resetAt).toBe(midnight.getTime());
  });

  it('a post whose answer was lost is ambiguous, and the lookup finds it', async () => {
    peer.fail('/rest/posts', 'drop_after_commit');
    const since = Date.now();
    const err = await publish(post('Lost (answer) #1')).catch((e) => e);
    expect(err.kind).toBe('ambiguous');
    const find = (text: string) => t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('problog').findRecentPost(ctx, { text, since, idempotencyKey: 'k' }));
    expect((await find('Lost (answer) #1'))?.id).toBe(peer.posts.at(-1)!.id);
    expect(await find('Never sent')).toBeNull();
  });

  it('refreshes an expired token once for 50 racing publishes', async () => {
    peer.expireTokens();
    const calls = t.server.services.credentials.refreshCalls;
    const peerCalls = peer.refreshCalls;
    const refs = await Promise.all(Array.from({ length: 50 }, (_, i) => publish(post(`Racing ${i}`))));
    expect(new Set(refs.map((r) => r.id)).size).toBe(50);
    expect(t.server.services.credentials.refreshCalls - calls).toBe(1);
    expect(peer.refreshCalls - peerCalls).toBe(1);
  });

  it('a refused refresh marks the account needs_reauth with TOKEN_EXPIRED', async () => {
    peer.expireTokens();
    peer.refuseRefresh = true;
    const err = await publish(post('Too late')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    const account = await t.call('GET', `/accounts/${accountId}`, { key });
    expect(account.body.account.status).toBe('needs_reauth');
  });

  it('an app without refresh tokens sends the person to connect again', async () => {
    peer.approvedRefresh = false;
    peer.refuseRefresh = false;
    const again = await connectThroughBrowser(t, key, 'problog');
    expect(again.body.accountUuid).toBe(accountId);
    expect((await t.server.services.credentials.load(accountId))?.refreshToken).toBeUndefined();
    peer.expireTokens();
    const peerCalls = peer.refreshCalls;
    const err = await publish(post('No refresh')).catch((e) => e);
    expect(err.code).toBe('TOKEN_EXPIRED');
    expect(peer.refreshCalls).toBe(peerCalls);
    expect((await t.call('GET', `/accounts/${accountId}`, { key })).body.account.status).toBe('needs_reauth');
  });
});
