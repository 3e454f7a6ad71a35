/**
 * Metrics of published posts, end to end over HTTP with an injected clock: the five simulators
 * and the real Bluesky PDS (proxying getPosts to a small AppView). Reads happen about 1 h, 24 h,
 * 7 d and 30 d after publishing (a closed app catches up with one read, not four), Bluesky 25
 * posts a call, X only with `xMetrics` on and priced in the X spend; a post deleted on the network
 * shows as deleted and is not read again; a rate limit waits for the network's reset; a LinkedIn
 * account without r_member_postAnalytics says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { connectAll, postsOn, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { engage } from '../simulators/engagement.js';

let nets: Networks;
let t: TestServer;
let key: string;
let ids: Record<Platform, string>;
const clock = new TestClock(Date.now());
const HOUR = 3_600_000;
let n = 0;

beforeAll(async () => {
  nets = await startNetworks({ pds: true });
  t = await startServer({
    settings: { ...nets.settings, HERALD_X_METRICS: '1' },
    clock,
    metrics: { spacingMs: 0, firstMs: 3_600_000_000, everyMs: 3_600_000_000 },
  });
  useFastPolling(t);
  key = await t.login();
  ids = (await connectAll(t, key, nets)) as Record<Platform, string>;
  // The LinkedIn app has the Community Management API product and the member granted analytics.
  for (const tok of nets.li.state.tokens.values()) tok.scopes.push('r_member_postAnalytics');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await nets?.close();
});

/** Publishes one post to `platform`; answers its publication id and its id on the network. */
async function publishOne(platform: Platform): Promise<{ id: string; text: string; held: any }> {
  n += 1;
  const text = `metrics ${platform} ${n}`;
  const d = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
  const r = await t.call('POST', '/publish/multi-platform', {
    key,
    body: { draftId: d.body.draft.id, targetAccounts: [{ accountId: ids[platform], platform }] },
  });
  expect(r.status, r.text).toBe(200);
  const list = await t.call('GET', '/microblog/publications?limit=500', { key });
  const row = (list.body.publications as any[]).find((p) => p.draftId === d.body.draft.id);
  const held = (await postsOn(nets, platform)).find((p) => p.text === text);
  return { id: row.id, text, held };
}

const collect = () => t.server.services.metricsCollector.run();
const post = async (id: string) => {
  const r = await t.call('GET', `/analytics/posts/${id}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body;
};
const rawPost = (platform: Platform, id: string): object => {
  if (platform === 'microblog') return nets.x.state.posts.find((p) => p.id === id)!;
  if (platform === 'fedblog') return nets.masto.state.statuses.find((p) => p.id === id)!;
  if (platform === 'threadblog') return nets.threads.state.posts.find((p) => p.id === id)!;
  return nets.li.state.posts.find((p) => p.urn === id)!;
};

describe('metrics collection', () => {
  const pubs = {} as Record<Platform, { id: string; text: string; held: any }>;

  it('reads each network about an hour after publishing, shaped as Herald says (null where unsaid)', async () => {
    for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as Platform[])
      pubs[p] = await publishOne(p);
    for (const p of ['microblog', 'fedblog', 'threadblog', 'problog'] as Platform[])
      engage(rawPost(p, pubs[p].held.id), { likes: 5, reposts: 2, replies: 3, quotes: 1, views: 40 });
    nets.appView!.engage(pubs.skyblog.held.id, { likeCount: 7, repostCount: 1, replyCount: 2, quoteCount: 1 });

    // Not due yet: nothing is read.
    expect((await collect()).read).toBe(0);
    const early = await post(pubs.fedblog.id);
    expect(early).toMatchObject({ tracking: 'tracking', fetchedAt: null, history: [] });

    clock.advance(HOUR + 60_000);
    const spendBefore = (await t.call('GET', '/credits', { key })).body.xSpend.monthUsd as number;
    const pass = await collect();
    expect(pass.read).toBe(5);

    expect((await post(pubs.microblog.id)).metrics).toEqual({
      likes: 5,
      reposts: 2,
      replies: 3,
      quotes: 1,
      impressions: 40,
    });
    expect((await post(pubs.skyblog.id)).metrics).toEqual({
      likes: 7,
      reposts: 1,
      replies: 2,
      quotes: 1,
      impressions: null,
    });
    expect((await post(pubs.fedblog.id)).metrics).toEqual({
      likes: 5,
      reposts: 2,
      replies: 3,
      quotes: 1,
      impressions: null,
    });
    expect((await post(pubs.threadblog.id)).metrics).toEqual({
      likes: 5,
      reposts: 2,
      replies: 3,
      quotes: 1,
      impressions: 40,
    });
    // LinkedIn: reactions, comments, reshares and impressions; no quotes.
    expect((await post(pubs.problog.id)).metrics).toEqual({
      likes: 5,
      reposts: 2,
      replies: 3,
      quotes: null,
      impressions: 40,
    });
    // One X post read at xReadPriceUsd (0.001), in the month's X spend.
    const spendAfter = (await t.call('GET', '/credits', { key })).body.xSpend.monthUsd as number;
    expect(spendAfter - spendBefore).toBeCloseTo(0.001, 6);
    const list = await t.call('GET', '/analytics/posts?platform=fedblog', { key });
    expect(list.status, list.text).toBe(200);
    expect(list.body.posts.map((p: any) => p.publicationId)).toContain(pubs.fedblog.id);
    expect(list.body.posts.every((p: any) => p.platform === 'fedblog')).toBe(true);
  });

  it("the draft's Markdown and JSON files carry its publications' latest counts; an import ignores them", async () => {
    const { draftId, url } = await post(pubs.threadblog.id);
    const json = await t.call('GET', `/microblog/drafts/${draftId}/export?format=json`, { key });
    expect(json.status, json.text).toBe(200);
    const file = JSON.parse(json.text);
    expect(file.metrics).toEqual([
      expect.objectContaining({ platform: 'threadblog', url, likes: 5, reposts: 2, replies: 3, quotes: 1 }),
    ]);
    expect(file.metrics[0].impressions).toBe(40);
    expect(file.metrics[0].fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const md = await t.call('GET', `/microblog/drafts/${draftId}/export?format=md`, { key });
    expect(md.status, md.text).toBe(200);
    const front = md.text.split('\n---\n')[0];
    expect(front).toMatch(/^metrics:\n {2}- platform: threadblog\n/m);
    expect(front).toMatch(/^ {4}impressions: 40$/m);
    // Imported again, the file is a new draft; the counts stay with the posts they were read from.
    const back = await t.call('POST', '/microblog/drafts/import', {
      key,
      raw: json.text,
      headers: { 'content-type': 'application/json' },
    });
    expect(back.status, back.text).toBe(200);
  });

  it('reads again at 24 h, keeps the history, and a closed month catches up with one read', async () => {
    engage(rawPost('fedblog', pubs.fedblog.held.id), { likes: 10 });
    clock.advance(23 * HOUR);
    await collect();
    const day = await post(pubs.fedblog.id);
    expect(day.history.map((h: any) => h.metrics.likes)).toEqual([5, 15]);
    // Closed for 40 days: the 7 d and 30 d reads are past; one read, then the plan is done.
    clock.advance(40 * 24 * HOUR);
    const callsBefore = nets.masto.requests.length;
    await collect();
    const late = await post(pubs.fedblog.id);
    expect(late.history).toHaveLength(3);
    expect(late.tracking).toBe('done');
    expect(nets.masto.requests.slice(callsBefore).filter((r) => r.includes('/api/v1/statuses/'))).toHaveLength(1);
    expect((await collect()).read).toBe(0);
  });

  it(
    'Bluesky: 27 posts take 2 getPosts calls; a post deleted ' + 'meanwhile shows deleted and is not read again',
    async () => {
      const sky: { id: string; held: any }[] = [];
      for (let i = 0; i < 27; i++) sky.push(await publishOne('skyblog'));
      const gone = sky[3]!;
      await nets.pds!.xrpc('com.atproto.repo.deleteRecord', {
        body: { repo: nets.sky!.did, collection: 'app.bsky.feed.post', rkey: gone.held.id.split('/').pop() },
        token: nets.sky!.accessJwt,
      });
      clock.advance(HOUR + 60_000);
      const before = nets.appView!.calls.length;
      const pass = await collect();
      expect(nets.appView!.calls.length - before).toBe(2);
      expect(pass.gone).toBe(1);
      const g = await post(gone.id);
      expect(g).toMatchObject({ tracking: 'deleted' });
      expect(g.deletedAt).not.toBeNull();
      await t.call('POST', '/analytics/refresh', { key, body: { publicationIds: [gone.id] } });
      expect((await collect()).requests).toBe(0);
    },
  );

  it('X: a rate limit waits for its reset, and publishing goes on meanwhile', async () => {
    const x = await publishOne('microblog');
    clock.advance(HOUR + 60_000);
    nets.x.faults.next({ kind: '429', resetInSeconds: 900 }, { route: 'GET /2/tweets', times: 1 });
    const pass = await collect();
    expect(pass.failed).toBe(1);
    expect(await post(x.id)).toMatchObject({ tracking: 'tracking', fetchedAt: null });
    expect((await post(x.id)).reason).toMatch(/rate limit/i);
    // Publishing is not held by the collector's wait.
    await publishOne('microblog');
    const reads = nets.x.metricReads.length;
    expect((await collect()).requests).toBe(0);
    expect(nets.x.metricReads.length).toBe(reads);
    clock.advance(16 * 60_000);
    await collect();
    expect((await post(x.id)).fetchedAt).not.toBeNull();
  });

  it('LinkedIn without r_member_postAnalytics: the post says what is missing', async () => {
    const li = await publishOne('problog');
    for (const tok of nets.li.state.tokens.values())
      tok.scopes = tok.scopes.filter((s) => s !== 'r_member_postAnalytics');
    clock.advance(HOUR + 60_000);
    await collect();
    const p = await post(li.id);
    expect(p.tracking).toBe('unavailable');
    expect(p.reason).toMatch(/r_member_postAnalytics/);
  });

  it('POST /analytics/refresh answers 202 and reads at once', async () => {
    const m = await publishOne('fedblog');
    const r = await t.call('POST', '/analytics/refresh', { key, body: { publicationIds: [m.id] } });
    expect(r.status, r.text).toBe(202);
    expect(r.body.queued).toBe(1);
    const end = Date.now() + 10_000;
    while ((await post(m.id)).fetchedAt === null && Date.now() < end) await new Promise((res) => setTimeout(res, 20));
    expect((await post(m.id)).fetchedAt).not.toBeNull();
  });
});

describe('export and the CLI', () => {
  it('GET /analytics/export: one row per read with history=true, empty where unsaid, formulas defused', async () => {
    const m = await publishOne('skyblog');
    clock.advance(HOUR + 60_000);
    await collect();
    const r = await fetch(`${t.base}/analytics/export?history=true&platform=skyblog`, { headers: { 'svc-key': key } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await r.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'publicationId,platform,account,url,publishedAt,deletedAt,title,at,likes,reposts,replies,quotes,impressions',
    );
    const mine = lines.filter((l) => l.startsWith(`${m.id},`));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.endsWith(',0,0,0,0,')).toBe(true);
  });

  it('herald stats --csv and herald post delete --yes', async () => {
    const { herald, cliEnv } = await import('../helpers/cli.js');
    const { tempDir } = await import('../helpers/server.js');
    const env = cliEnv(tempDir('herald-cli-'), { HERALD_BASE_URL: t.base, HERALD_API_KEY: key });
    const stats = await herald(['stats', '--network', 'fedblog', '--csv'], { env, timeoutMs: 60_000 });
    expect(stats.code, stats.err).toBe(0);
    expect(stats.out.split('\r\n')[0]).toMatch(/^publicationId,platform/);
    const m = await publishOne('fedblog');
    const del = await herald(['post', 'delete', m.id, '--yes'], { env, timeoutMs: 60_000 });
    expect(del.code, del.err).toBe(0);
    expect(del.out).toMatch(/Deleted the post from Mastodon/);
    expect((await postsOn(nets, 'fedblog')).some((p) => p.text === m.text)).toBe(false);
    // Without a terminal and without --yes nothing is deleted.
    const other = await publishOne('fedblog');
    const refused = await herald(['post', 'delete', other.id], { env, timeoutMs: 60_000 });
    expect(refused.code).toBe(2);
    expect((await postsOn(nets, 'fedblog')).some((p) => p.text === other.text)).toBe(true);
  });
});
