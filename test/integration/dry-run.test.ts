/**
 * dryRun: true (docs/decisions.md §11) on the publish and schedule endpoints, against the network
 * simulators: the plan of a real publish (what each network would receive, credits, X's cost),
 * and nothing sent to any simulator, charged, stored, scheduled or told on the event stream.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { addAccount } from '../helpers/drafts.js';
import { ownerId } from '../helpers/fixtures.js';
import { connectAll, requestCounts, startNetworks, type Networks } from '../helpers/networks.js';
import { startServer, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 90_000 });

let nets: Networks;
let t: TestServer;
let key: string;
let ids: Partial<Record<Platform, string>>;
const TARGETS: Platform[] = ['microblog', 'fedblog', 'threadblog', 'problog'];

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({ settings: nets.settings });
  key = await t.login();
  ids = await connectAll(t, key, nets);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await nets?.close();
});

async function draft(posts: string[]): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: 'Dry', tweets: posts.map((content) => ({ content })) },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}

/** Everything a dry run must leave as it was. */
async function world() {
  const sqlite = t.server.sqlite;
  return {
    requests: requestCounts(nets),
    balance: (await t.call('POST', '/credits', { key })).body.balance as number,
    ledger: sqlite.prepare('SELECT COUNT(*) FROM credit_ledger').pluck().get(),
    publications: sqlite.prepare('SELECT COUNT(*) FROM publications').pluck().get(),
    parts: sqlite.prepare('SELECT COUNT(*) FROM publication_parts').pluck().get(),
    schedule: sqlite.prepare('SELECT COUNT(*) FROM schedule_entries').pluck().get(),
    events: t.server.services.events.latestId(ownerId(t)),
    drafts: sqlite.prepare('SELECT status, updated_at FROM drafts ORDER BY id').all(),
  };
}

describe('dryRun on publish', () => {
  it('answers what each network would receive and cost; nothing is sent, charged, stored or told', async () => {
    const posts = ['Dry run part one https://example.com/a', 'Dry run part two'];
    const draftId = await draft(posts);
    const before = await world();
    const r = await t.call('POST', '/publish/multi-platform', {
      key,
      body: { draftId, dryRun: true, targetAccounts: TARGETS.map((p) => ({ accountId: ids[p], platform: p })) },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, dryRun: true, credits: { needed: 40, balance: before.balance } });
    expect(r.body.plan.map((p: any) => p.platform)).toEqual(TARGETS);
    for (const p of r.body.plan) {
      expect(p.accountId).toBe(ids[p.platform as Platform]);
      expect(p.credits).toBe(10);
      expect(p.posts.map((x: any) => x.text)).toEqual(posts);
      // LinkedIn has no threads: its second part goes as a comment on the first.
      const sentAs = p.platform === 'problog' ? [undefined, 'comment'] : [undefined, undefined];
      expect(p.posts.map((x: any) => x.sentAs)).toEqual(sentAs);
      // Every post says its language (the setting, as the draft names none); only LinkedIn takes a
      // card from Herald here (X, Mastodon and Threads make their own), for the first post's link.
      const lang = t.server.deps.config.defaultLanguage;
      p.posts.forEach((x: any, i: number) =>
        expect(x).toMatchObject({
          media: [],
          linkCard: p.platform === 'problog' && i === 0 ? { url: 'https://example.com/a' } : null,
          language: lang,
        }),
      );
    }
    // X: one post with a URL ($0.200), one without ($0.015).
    expect(r.body.xCostUsd).toBeCloseTo(0.215, 6);
    // The month's grant may be written by the first look at credits (world() looked first).
    expect(await world()).toEqual(before);

    // And the real publish then sends exactly what the dry run said.
    const real = await t.call('POST', '/publish/multi-platform', {
      key,
      body: { draftId, targetAccounts: TARGETS.map((p) => ({ accountId: ids[p], platform: p })) },
    });
    expect(real.body.summary).toMatchObject({ total: 4, succeeded: 4 });
    const sent = t.server.sqlite
      .prepare(
        'SELECT pub.platform, part.text FROM publication_parts part JOIN publications pub ON pub.id = ' +
          'part.publication_id WHERE pub.draft_id = ? ORDER BY pub.platform, part.position',
      )
      .all(draftId) as { platform: string; text: string }[];
    for (const p of r.body.plan)
      expect(sent.filter((s) => s.platform === p.platform).map((s) => s.text)).toEqual(p.posts.map((x: any) => x.text));

    // Already published: a dry run says they would be skipped, at no cost.
    const again = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId, accountIds: [ids.microblog], dryRun: true },
    });
    expect(again.body.plan[0]).toMatchObject({ skipped: true, credits: 0, posts: [] });
    expect(again.body.xCostUsd).toBe(0);
  });

  it('refuses what a real publish refuses, and still sends nothing', async () => {
    const draftId = await draft(['x'.repeat(600)]);
    const before = await world();
    const r = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId, accountIds: [ids.threadblog], dryRun: true },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(await world()).toEqual(before);
  });

  it('a draft publish to one Threads or LinkedIn account answers its plan too', async () => {
    const draftId = await draft(['Dry for LinkedIn']);
    const before = await world();
    const r = await t.call('POST', '/problog/publish', {
      key,
      body: { accountId: ids.problog, draftId, dryRun: true },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.plan).toEqual([
      {
        accountId: ids.problog,
        platform: 'problog',
        posts: [
          { text: 'Dry for LinkedIn', media: [], linkCard: null, language: t.server.deps.config.defaultLanguage },
        ],
        credits: 10,
      },
    ]);
    expect(await world()).toEqual(before);
  });
});

describe('dryRun on the direct publish endpoints (text given, no draft)', () => {
  // No PDS runs here: the Bluesky account is a row only, so anything sent to it would fail and
  // leave a failed publication behind, which world() would see.
  let sky: string;
  beforeAll(() => {
    sky = addAccount(t, ownerId(t), 'skyblog').accountId;
  });

  const direct = () => [
    {
      name: 'skyblog',
      path: '/skyblog/publish',
      body: { accountUuid: sky, type: 'thread', texts: ['Sky one https://example.com/s', 'Sky two'] },
      plan: { accountId: sky, platform: 'skyblog', texts: ['Sky one https://example.com/s', 'Sky two'] },
      card: 'https://example.com/s',
    },
    {
      name: 'fedblog',
      path: '/fedblog/publish',
      body: { accountUuid: ids.fedblog, type: 'single', text: 'Fed dry' },
      plan: { accountId: ids.fedblog, platform: 'fedblog', texts: ['Fed dry'] },
    },
    {
      name: 'quote',
      path: '/microblog/quote',
      body: { accountId: ids.microblog, content: 'Quote dry https://example.com/q', quoteTweetId: '1234567890' },
      plan: { accountId: ids.microblog, platform: 'microblog', texts: ['Quote dry https://example.com/q'] },
      xCostUsd: 0.2,
    },
    {
      name: 'threadblog',
      path: '/threadblog/publish',
      body: { accountId: ids.threadblog, text: 'Threads dry', mediaUrls: ['https://example.com/pic.png'] },
      plan: { accountId: ids.threadblog, platform: 'threadblog', texts: ['Threads dry'] },
      media: [{ url: 'https://example.com/pic.png' }],
    },
    {
      name: 'problog',
      path: '/problog/publish',
      body: { accountId: ids.problog, text: 'LinkedIn dry', visibility: 'CONNECTIONS' },
      plan: { accountId: ids.problog, platform: 'problog', texts: ['LinkedIn dry'] },
    },
  ];

  it('answers what the one network would receive and cost; nothing is sent, charged or stored', async () => {
    for (const d of direct()) {
      const before = await world();
      const r = await t.call('POST', d.path, { key, body: { ...d.body, dryRun: true } });
      expect(r.status, `${d.name}: ${r.text}`).toBe(200);
      expect(r.body, d.name).toEqual({
        success: true,
        dryRun: true,
        plan: [
          {
            accountId: d.plan.accountId,
            platform: d.plan.platform,
            credits: 10,
            posts: d.plan.texts.map((text, i) => ({
              text,
              media: i === 0 ? (d.media ?? []) : [],
              linkCard: i === 0 && d.card ? { url: d.card } : null,
              language: t.server.deps.config.defaultLanguage,
            })),
          },
        ],
        credits: { needed: 10, balance: before.balance },
        xCostUsd: d.xCostUsd ?? 0,
      });
      expect(await world(), d.name).toEqual(before);
    }
  });

  it('the real request then sends what the dry run said', async () => {
    const d = direct().find((x) => x.name === 'fedblog')!;
    const dry = await t.call('POST', d.path, { key, body: { ...d.body, text: 'Fed dry, then real', dryRun: true } });
    const before = requestCounts(nets).fedblog;
    const real = await t.call('POST', d.path, { key, body: { ...d.body, text: 'Fed dry, then real' } });
    expect(real.status, real.text).toBe(200);
    expect(requestCounts(nets).fedblog).toBeGreaterThan(before);
    const sent = t.server.sqlite
      .prepare(
        'SELECT part.text FROM publication_parts part JOIN publications pub ON pub.id = part.publication_id ' +
          'WHERE pub.account_id = ? AND pub.draft_id IS NULL ORDER BY pub.created_at DESC, part.position LIMIT ' +
          '1',
      )
      .pluck()
      .all(ids.fedblog);
    expect(sent).toEqual(dry.body.plan[0].posts.map((p: any) => p.text));
  });

  it(
    'refuses what a real request refuses (402 short of credits, ' + '400 over a limit), and still sends nothing',
    async () => {
      const start = (await world()).balance;
      t.server.services.credits.adjust(ownerId(t), 5 - start, 'test: leave 5 credits');
      try {
        for (const d of direct()) {
          const before = await world();
          const r = await t.call('POST', d.path, { key, body: { ...d.body, dryRun: true } });
          expect(r.status, `${d.name}: ${r.text}`).toBe(402);
          expect(r.body.error).toBe('INSUFFICIENT_CREDITS');
          expect(await world(), d.name).toEqual(before);
        }
      } finally {
        t.server.services.credits.adjust(ownerId(t), start - (await world()).balance, 'test: restore');
      }
      const before = await world();
      const long = await t.call('POST', '/fedblog/publish', {
        key,
        body: { accountUuid: ids.fedblog, type: 'single', text: 'y'.repeat(600), dryRun: true },
      });
      expect(long.status, long.text).toBe(400);
      expect(long.body.error).toBe('INVALID_INPUT');
      expect(await world()).toEqual(before);
    },
  );
});

describe('dryRun on schedule', () => {
  it('answers the plan; nothing is scheduled', async () => {
    const draftId = await draft(['Dry scheduled']);
    const before = await world();
    const r = await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId,
        dryRun: true,
        scheduledFor: new Date(Date.now() + 3_600_000).toISOString(),
        targetAccounts: [
          { accountId: ids.microblog, platform: 'microblog' },
          { accountId: ids.fedblog, platform: 'fedblog' },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      dryRun: true,
      credits: { needed: 20, balance: before.balance },
      xCostUsd: 0.015,
    });
    expect(r.body.plan.map((p: any) => [p.platform, p.posts[0].text])).toEqual([
      ['microblog', 'Dry scheduled'],
      ['fedblog', 'Dry scheduled'],
    ]);
    expect(await world()).toEqual(before);
    expect((await t.call('GET', '/microblog/schedule', { key })).body.schedules).toEqual([]);
  });
});
