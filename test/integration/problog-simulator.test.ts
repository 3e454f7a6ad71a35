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
import { HeraldError } from '../../server/errors.js';
import type { MediaItem, PostInput } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { adapterFor, registerAdapter } from '../../server/platforms/index.js';
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

const row = () => t.server.deps.db.select().from(accounts).where(eq(accounts.id, accountId)).get()!;
const post = (text: string, more: Partial<PostInput> = {}): PostInput => ({ text, media: [], options: {}, idempotencyKey: `k-${text}`, ...more });
const publish = (input: PostInput) => t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('problog').publishPost(ctx, input));
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
  registerAdapter(createProblogAdapter({ pollIntervalMs: 10 }));
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
    accountId = result.body.accountUuid;
    const member = sim.state.members[0];
    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.find((a: any) => a.uuid === accountId)).toMatchObject({ platform: 'problog', username: member.name, status: 'active' });
  });

  it('escapes every reserved character so nothing is cut', async () => {
    const text = 'Ship it_now (v2) #launch @team [beta] {x} <y> *z* ~w~ a|b back\\slash done';
    const ref = await publish(post(text));
    expect(ref.id).toBe(last().urn);
    expect(last().truncated).toBe(false);
    expect(last().keptCommentary).toBe(last().commentary);
    expect(ref.url).toBe(`https://www.linkedin.com/feed/update/${ref.id}`);
  });

  it('joins a thread into one post', async () => {
    const parts = partsFromTexts('problog', ['Part one.', 'Part two.', 'Part three.']);
    const refs = await t.server.services.credentials.withCredentials(row(), (ctx) => publishThread(adapterFor('problog'), ctx, parts.map((p) => post(p.text)), [], { beforeSend: () => {}, afterSend: () => {} }));
    expect(refs).toHaveLength(1);
    expect(last().commentary).toBe('Part one.\n\nPart two.\n\nPart three.');
  });

  it('publishes two images with alt text as multiImage, waiting for processing', async () => {
    const a = image('a', 'First', 90);
    const b = image('b', 'Second', 120);
    await publish(post('Two images', { media: [a, b] }));
    expect(last().content).toEqual({ multiImage: { images: [{ id: last().imageUrns[0], altText: 'First' }, { id: last().imageUrns[1], altText: 'Second' }] } });
    expect(last().imageUrns.map((u) => sim.state.images.get(u)!.bytes!.length)).toEqual([a.size, b.size]);
  });

  it('429 is rate_limited until midnight UTC; commit-then-drop is ambiguous and found', async () => {
    sim.faults.next({ kind: '429' }, { route: 'POST /rest/posts' });
    const limited = await publish(post('limited')).catch((e) => e);
    expect(limited).toBeInstanceOf(PlatformError);
    expect(limited.kind).toBe('rate_limited');
    sim.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /rest/posts' });
    const since = Date.now();
    const lost = await publish(post('Lost answer (maybe)')).catch((e) => e);
    expect(lost.kind).toBe('ambiguous');
    const found = await t.server.services.credentials.withCredentials(row(), (ctx) => adapterFor('problog').findRecentPost(ctx, { text: 'Lost answer (maybe)', since, idempotencyKey: 'k' }));
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
