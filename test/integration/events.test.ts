/**
 * GET /events against a real server and the network simulators: a real publish's events arrive
 * in order with the right types; schedule and cancel tell of themselves; 1,000 events with the
 * reader killed midway and resumed with Last-Event-ID, none lost or repeated; a key sees its own
 * user's events only; a client that stops reading is dropped with a resume point, its memory here
 * bounded; events older than 7 days are purged (injected clock).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HeraldClient, type HeraldEvent } from '../../client/index.js';
import type { Platform } from '../../server/core/config.js';
import { ownerId } from '../helpers/fixtures.js';
import { connectAll, postsOn, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { addUser, startServer, TestClock, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 90_000 });

let nets: Networks;
let t: TestServer;
let key: string;
let ids: Partial<Record<Platform, string>>;
let owner: string;

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({ settings: nets.settings });
  useFastPolling(t);
  key = await t.login();
  owner = ownerId(t);
  ids = await connectAll(t, key, nets);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await nets?.close();
});

/** Reads the stream into `got` until `stop` says so; returns when the stream ended. */
function collect(apiKey: string, lastEventId: number | undefined, stop: (got: HeraldEvent[]) => boolean) {
  const ac = new AbortController();
  const got: HeraldEvent[] = [];
  const client = new HeraldClient({ baseUrl: t.base, apiKey });
  const done = (async () => {
    for await (const e of client.events({ lastEventId, signal: ac.signal })) {
      got.push(e);
      if (stop(got)) break;
    }
    ac.abort();
    return got;
  })();
  return { got, done, abort: () => ac.abort() };
}

const streamsOpen = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (t.server.services.events.streams >= n ? resolve() : setTimeout(check, 5));
    check();
  });

async function draft(posts: string[]): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: posts[0], tweets: posts.map((content) => ({ content })) },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}

describe('a real publish', () => {
  it('tells, per account in order: sending, then published with its URL; every charge as credits.changed', async () => {
    const draftId = await draft(['Events one', 'Events two']);
    const targets: Platform[] = ['microblog', 'fedblog'];
    const reader = collect(
      key,
      undefined,
      (got) => got.filter((e) => e.type === 'post.published').length === targets.length,
    );
    await streamsOpen(1);
    const r = await t.call('POST', '/publish/multi-platform', {
      key,
      body: { draftId, targetAccounts: targets.map((p) => ({ accountId: ids[p], platform: p })) },
    });
    expect(r.status, r.text).toBe(200);
    const got = await reader.done;
    expect(got.map((e) => e.id)).toEqual([...got.map((e) => e.id)].sort((a, b) => a - b));
    for (const p of targets) {
      const mine = got.filter((e) => e.data.accountId === ids[p]);
      expect(
        mine.map((e) => e.type),
        p,
      ).toEqual(['post.sending', 'post.published']);
      for (const e of mine) expect(e.data).toMatchObject({ draftId, platform: p, at: expect.any(String) });
      const url = r.body.results.find((x: any) => x.platform === p).data.url;
      expect(mine[1].data.url).toBe(url);
    }
    // Two charges (10 each), and the balance they left.
    // (The month's grant is written at the first look at credits: this file's first publish.)
    const credits = got.filter((e) => e.type === 'credits.changed' && e.data.reason === 'publish');
    expect(credits.map((e) => e.data.change)).toEqual([-10, -10]);
    const balance = (await t.call('POST', '/credits', { key })).body.balance;
    expect(credits.at(-1)!.data.balance).toBe(balance);
    expect((await postsOn(nets, 'fedblog')).some((p) => p.text === 'Events one')).toBe(true);
  });

  it('a failed target tells post.failed with its reason and the refund', async () => {
    const draftId = await draft(['Events failing']);
    nets.masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses' });
    const reader = collect(
      key,
      undefined,
      (got) =>
        got.some((e) => e.type === 'post.failed') && got.filter((e) => e.type === 'credits.changed').length === 2,
    );
    await streamsOpen(1);
    const r = await t.call('POST', '/microblog/publish', { key, body: { draftId, accountIds: [ids.fedblog] } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.results[0].success).toBe(false);
    const got = await reader.done;
    // Charge and plan in one transaction, failure and refund in another.
    expect(
      got
        .slice(0, 2)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['credits.changed', 'post.sending']);
    expect(
      got
        .slice(2)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['credits.changed', 'post.failed']);
    expect(got.find((e) => e.type === 'post.failed')!.data).toMatchObject({
      draftId,
      accountId: ids.fedblog,
      platform: 'fedblog',
      error: expect.any(String),
      nextAttemptAt: null,
    });
    expect(got.filter((e) => e.type === 'credits.changed').map((e) => e.data.change)).toEqual([-10, 10]);
  });

  it('schedule and cancel tell of each entry', async () => {
    const draftId = await draft(['Events scheduled']);
    const reader = collect(key, undefined, (got) => got.filter((e) => e.type === 'post.cancelled').length === 2);
    await streamsOpen(1);
    const when = new Date(Date.now() + 86_400_000).toISOString();
    const s = await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId,
        scheduledFor: when,
        targetAccounts: [
          { accountId: ids.microblog, platform: 'microblog' },
          { accountId: ids.threadblog, platform: 'threadblog' },
        ],
      },
    });
    expect(s.status, s.text).toBe(200);
    expect((await t.call('DELETE', `/microblog/schedule?draftId=${draftId}`, { key })).status).toBe(200);
    const got = await reader.done;
    expect(got.map((e) => e.type)).toEqual(['post.scheduled', 'post.scheduled', 'post.cancelled', 'post.cancelled']);
    expect(new Set(got.map((e) => e.data.accountId))).toEqual(new Set([ids.microblog, ids.threadblog]));
    expect(got[0].data.scheduledFor).toMatch(/^\d{4}-/);
  });
});

describe('resuming', () => {
  it('1,000 events, the reader killed midway and resumed with Last-Event-ID: none lost or repeated', async () => {
    const ev = t.server.services.events;
    const start = ev.latestId(owner);
    let written = 0;
    // Written 10 per turn of the event loop, while the reader reads.
    const writer = (async () => {
      while (written < 1000) {
        t.server.sqlite.transaction(() => {
          for (let i = 0; i < 10; i++) ev.record(owner, 'credits.changed', { balance: written++ });
        })();
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const first = collect(key, start, (got) => got.length >= 400);
    const part1 = await first.done;
    const part2 = await collect(key, part1.at(-1)!.id, (got) => got.at(-1)?.data.balance === 999).done;
    await writer;
    const all = [...part1, ...part2].map((e) => e.data.balance);
    expect(all).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    const idsSeen = [...part1, ...part2].map((e) => e.id);
    expect(new Set(idsSeen).size).toBe(1000);
  });

  it('refuses a Last-Event-ID that is no id, and a stream without a key', async () => {
    const bad = await t.call('GET', '/events', { key, headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_INPUT');
    const none = await t.call('GET', '/events');
    expect(none.status).toBe(401);
  });
});

describe('isolation', () => {
  it("a key sees its own user's events only", async () => {
    const otherKey = await addUser(t, 'events-other@example.test');
    const other = t.server.sqlite
      .prepare('SELECT id FROM users WHERE email = ?')
      .pluck()
      .get('events-other@example.test') as string;
    const ev = t.server.services.events;
    const mine = collect(key, ev.latestId(owner), (got) => got.some((e) => e.data.mark === 'owner-end'));
    const theirs = collect(otherKey, ev.latestId(other), (got) => got.some((e) => e.data.mark === 'other-end'));
    await streamsOpen(2);
    ev.record(other, 'credits.changed', { mark: 'other-1' });
    ev.record(owner, 'credits.changed', { mark: 'owner-1' });
    ev.record(other, 'credits.changed', { mark: 'other-end' });
    ev.record(owner, 'credits.changed', { mark: 'owner-end' });
    expect((await mine.done).map((e) => e.data.mark)).toEqual(['owner-1', 'owner-end']);
    expect((await theirs.done).map((e) => e.data.mark)).toEqual(['other-1', 'other-end']);
  });
});

describe('a client that stops reading', () => {
  it(
    'is read for no further than the buffer allows, then dropped ' + 'with a resume point; resuming loses nothing',
    async () => {
      const ev = t.server.services.events;
      const saved = { ...ev.limits };
      Object.assign(ev.limits, { bufferBytes: 16 * 1024, stallMs: 400, batch: 50 });
      try {
        const start = ev.latestId(owner);
        const padding = 'p'.repeat(4000);
        const N = 4000; // ~16 MB: past every socket buffer between the two ends of loopback
        const dropped = ev.dropped;
        let text = '';
        const req = http.request(`${t.base}/events`, { headers: { 'svc-key': key, 'last-event-id': String(start) } });
        const paused = new Promise<http.IncomingMessage>((resolve) =>
          req.on('response', (res) => {
            res.setEncoding('utf8');
            const onData = (c: string) => {
              text += c;
              // A few events read, then it stops reading altogether.
              if ((text.match(/\n\n/g) ?? []).length > 5) {
                res.pause();
                res.off('data', onData);
                resolve(res);
              }
            };
            res.on('data', onData);
          }),
        );
        req.on('error', () => {});
        req.end();
        await streamsOpen(1);
        t.server.sqlite.transaction(() => {
          for (let i = 0; i < N; i++) ev.record(owner, 'post.failed', { seq: i, error: padding });
        })();
        const res = await paused;
        await vi.waitUntil(() => ev.dropped > dropped, { timeout: 30_000, interval: 50 });
        expect(ev.streams).toBe(0);
        res.destroy();
        // The resume point: the last whole event it read.
        const lastRead = Math.max(...[...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
        const seqRead = [...text.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
        expect(seqRead.length).toBeGreaterThan(0);
        const rest = await collect(key, lastRead, (got) => got.at(-1)?.data.seq === N - 1).done;
        const seen = [...new Set([...seqRead.filter((_, i) => i < seqRead.length), ...rest.map((e) => e.data.seq)])];
        expect(rest[0].data.seq).toBe(seqRead.at(-1)! + 1);
        expect(seen.length).toBe(N);
      } finally {
        Object.assign(ev.limits, saved);
      }
    },
  );
});

describe('kept 7 days', () => {
  it(
    'events older than 7 days are purged (injected clock); ' + 'Last-Event-ID 0 then starts at the oldest kept',
    async () => {
      const clock = new TestClock();
      const p = await startServer({ clock, scheduler: false });
      try {
        const k = await p.login();
        const me = ownerId(p);
        const ev = p.server.services.events;
        ev.record(me, 'credits.changed', { mark: 'old' });
        clock.advance(7 * 86_400_000 + 60_000);
        ev.record(me, 'credits.changed', { mark: 'new' });
        const ac = new AbortController();
        const got: HeraldEvent[] = [];
        for await (const e of new HeraldClient({ baseUrl: p.base, apiKey: k }).events({
          lastEventId: 0,
          signal: ac.signal,
        })) {
          got.push(e);
          if (e.data.mark === 'new') ac.abort();
        }
        expect(got.map((e) => e.data.mark ?? e.type)).not.toContain('old');
        expect(got.at(-1)!.data.mark).toBe('new');
        expect(ev.read(me, 0, 1000).some((r) => r.data.includes('"old"'))).toBe(false);
      } finally {
        await p.close();
      }
    },
  );
});
