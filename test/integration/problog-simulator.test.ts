/**
 * The LinkedIn adapter against the shared LinkedIn simulator (test/simulators), through Herald's
 * HTTP API for connecting and the real credentials service for publishing. The simulator keeps
 * what LinkedIn would keep of the commentary (cut at the first unescaped reserved character),
 * so the escaping is checked on what it kept, not only on what was sent.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { partsFromTexts } from '../../server/domain/publishing/plan.js';
import { HeraldError } from '../../server/core/errors.js';
import type { MediaItem, PostInput } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { createProblogAdapter } from '../../server/platforms/problog.adapter.js';
import { publishThread } from '../../server/platforms/thread.js';
import { png } from '../helpers/media-files.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/linkedin.simulator.js';
import { connectThroughBrowser } from './oauth-browser.js';

let sim: LinkedInSimulator;
let t: TestServer;
let key: string;
let accountId: string;
const mediaDir = tempDir('herald-li-sim-media-');

const row = () => t.server.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `k-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => t.server.deps.platforms.get('problog').publishPost(ctx, input));
const last = () => sim.state.posts.at(-1)!;

function image(name: string, altText: string, size: number): MediaItem {
  const bytes = png(12, 12, size);
  const file = `${mediaDir}/${name}.png`;
  fs.writeFileSync(file, bytes);
  return { path: file, mime: 'image/png', size: bytes.length, kind: 'image', altText };
}

beforeAll(async () => {
  sim = await startLinkedInSimulator({ programmaticRefresh: true });
  t = await startServer({
    settings: {
      HERALD_PROBLOG_API_URL: sim.url,
      HERALD_PROBLOG_AUTHORIZE_URL: sim.authorizeUrl,
      HERALD_PROBLOG_TOKEN_URL: sim.tokenUrl,
      HERALD_PROBLOG_CLIENT_ID: sim.clientId,
      HERALD_PROBLOG_CLIENT_SECRET: sim.clientSecret,
    },
  });
  t.server.deps.platforms.register(createProblogAdapter({ pollIntervalMs: 10 }));
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('LinkedIn simulator through Herald', () => {
  it('connects over OAuth', async () => {
    const result = await connectThroughBrowser(t, key, 'problog');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(new URL(result.authUrl).searchParams.get('scope')).toBe('openid profile w_member_social');
    accountId = result.body.accountUuid;
    const member = sim.state.members[0];
    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.find((a: any) => a.uuid === accountId)).toMatchObject({ platform: 'problog', username: member.name, status: 'active' });
    // The person's URN, and the token's facts for its health (#21: when it expires and how it
    // renews, never the token itself).
    const meta = JSON.parse(row().meta);
    expect(meta).toMatchObject({ personUrn: `urn:li:person:${member.sub}` });
    expect(Object.keys(meta).sort()).toEqual(['personUrn', 'token']);
    for (const token of sim.state.tokens.keys()) expect(row().meta).not.toContain(token);
  });

  it('publishes as the person with the visibility asked for (the simulator refuses /rest calls without LinkedIn-Version)', async () => {
    const ref = await publish(post('Only for my connections', { options: { visibility: 'CONNECTIONS' } }));
    expect(last()).toMatchObject({ urn: ref.id, author: `urn:li:person:${sim.state.members[0].sub}`, visibility: 'CONNECTIONS', lifecycleState: 'PUBLISHED' });
  });

  it('escapes every reserved character so nothing is cut', async () => {
    const text = 'Ship it_now (v2) #launch @team [beta] {x} <y> *z* ~w~ a|b back\\slash done';
    const ref = await publish(post(text));
    expect(ref.id).toBe(last().urn);
    expect(last().truncated).toBe(false);
    expect(last().keptCommentary).toBe(last().commentary);
    expect(ref.url).toBe(`https://www.linkedin.com/feed/update/${ref.id}`);
    // Web links go as written, so LinkedIn still links them (docs/decisions.md §19.5 as crossposter
    // does); the text around them is escaped. (Whether LinkedIn cuts at a reserved character
    // inside a link is unverified; the simulator assumes it does, so only what was sent is checked.)
    await publish(post('Read (this) — see https://example.com/a_b?q=(1).'));
    expect(last().commentary).toBe('Read \\(this\\) — see https://example.com/a_b?q=(1).');
  });

  it('joins a thread into one post', async () => {
    const parts = partsFromTexts('problog', ['Part one.', 'Part two.', 'Part three.']);
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(t.server.deps.platforms.get('problog'), ctx, parts.map((p) => post(p.text)), [], { beforeSend: () => {}, afterSend: () => {} }));
    expect(refs).toHaveLength(1);
    expect(last().commentary).toBe('Part one.\n\nPart two.\n\nPart three.');
    // LinkedIn has no replies: a reply is refused before anything is sent.
    const before = sim.state.posts.length;
    const err = await publish(post('a reply', { replyTo: refs[0] })).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('permanent');
    expect(sim.state.posts.length).toBe(before);
  });

  it('publishes two images with alt text as multiImage, waiting for processing', async () => {
    const a = image('a', 'First', 90);
    const b = image('b', 'Second', 120);
    await publish(post('Two images', { media: [a, b] }));
    expect(last().content).toEqual({ multiImage: { images: [{ id: last().imageUrns[0], altText: 'First' }, { id: last().imageUrns[1], altText: 'Second' }] } });
    expect(last().imageUrns.map((u) => sim.state.images.get(u)!.bytes!.length)).toEqual([a.size, b.size]);
    await publish(post('One image', { media: [image('c', 'Third', 60)] }));
    expect(last().content).toEqual({ media: { id: last().imageUrns[0], altText: 'Third' } });
  });

  it('429 is rate_limited until midnight UTC; commit-then-drop is ambiguous and found', async () => {
    sim.faults.next({ kind: '429' }, { route: 'POST /rest/posts' });
    const limited = await publish(post('limited')).catch((e) => e);
    expect(limited).toBeInstanceOf(PlatformError);
    expect(limited.kind).toBe('rate_limited');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(limited.resetAt).toBe(midnight.getTime());
    sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /rest/posts' });
    const since = Date.now();
    const lost = await publish(post('Lost answer (maybe)')).catch((e) => e);
    expect(lost.kind).toBe('ambiguous');
    const found = await t.server.services.credentials.withCredentials(row(), (ctx) => t.server.deps.platforms.get('problog').findRecentPost(ctx, { text: 'Lost answer (maybe)', since, idempotencyKey: 'k' }));
    expect(found?.id).toBe(last().urn);
  });

  it('one refresh for 50 racing publishes; a refused refresh needs reauth', async () => {
    sim.expireAccessTokens();
    const before = sim.state.refreshCalls;
    const calls = t.server.services.credentials.refreshCalls;
    await Promise.all(Array.from({ length: 50 }, (_, i) => publish(post(`Racing ${i}`))));
    expect(sim.state.refreshCalls - before).toBe(1);
    expect(t.server.services.credentials.refreshCalls - calls).toBe(1);

    sim.expireAccessTokens();
    sim.state.refreshTokens.clear();
    const err = await publish(post('Too late')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    expect((await t.call('GET', `/accounts/${accountId}`, { key })).body.account.status).toBe('needs_reauth');
  });
});

describe('a LinkedIn app without programmatic refresh tokens', () => {
  it('keeps no refresh token, and an expired token sends the person to connect again without a refresh call', async () => {
    const plain = await startLinkedInSimulator();
    const other = await startServer({
      settings: {
        HERALD_PROBLOG_API_URL: plain.url,
        HERALD_PROBLOG_AUTHORIZE_URL: plain.authorizeUrl,
        HERALD_PROBLOG_TOKEN_URL: plain.tokenUrl,
        HERALD_PROBLOG_CLIENT_ID: plain.clientId,
        HERALD_PROBLOG_CLIENT_SECRET: plain.clientSecret,
      },
    });
    try {
      const k = await other.login();
      const connected = await connectThroughBrowser(other, k, 'problog');
      expect(connected.status, JSON.stringify(connected.body)).toBe(200);
      const id = connected.body.accountUuid as string;
      expect((await other.server.services.credentials.load(id))?.refreshToken).toBeUndefined();
      plain.expireAccessTokens();
      const r = () => other.server.db.select().from(accounts).where(eq(accounts.id, id)).get()!;
      const err = await other.server.services.credentials.withCredentials(r(), (ctx) => other.server.deps.platforms.get('problog').publishPost(ctx, post('No refresh'))).catch((e) => e);
      expect(err).toBeInstanceOf(HeraldError);
      expect(err.code).toBe('TOKEN_EXPIRED');
      expect(plain.state.refreshCalls).toBe(0);
      expect(plain.state.posts).toHaveLength(0);
      expect((await other.call('GET', `/accounts/${id}`, { key: k })).body.account.status).toBe('needs_reauth');
    } finally {
      await other.close();
      await plain.close();
    }
  });
});
