/**
 * A month of posting under an injected clock (issue #32, "Money"), with one account on each of
 * the five networks (the simulators and a real Bluesky PDS) and the user's zone Europe/Berlin on
 * a UTC clock. With the defaults, a creator who schedules a post a day to all five for December
 * gets every one published: nothing is refused for credits, and the month is Berlin's. Then in
 * January a lowered monthly grant applies at once, and scheduling (POST /microblog/schedule and
 * POST /microblog/queue) warns when the month's credits, less what earlier scheduled posts
 * reserve, will not cover the new ones; a raised grant applies at once too: the balance moves
 * the same moment, with an `adjustment` record.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { connectAll, PLATFORMS, postsOn, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 300_000 });

const clock = new TestClock(Date.parse('2026-11-30T23:30:00Z')); // 00:30 on 1 December in Berlin
let nets: Networks;
let t: TestServer;
let key: string;
let ids: Record<Platform, string>;
let queuedAt: number;

/** 09:00 in Berlin (UTC+1 all winter) on that day. */
const nineAm = (month: number, day: number) => Date.UTC(month === 0 ? 2027 : 2026, month, day, 8, 0, 0);
const credits = async () => (await t.call('POST', '/credits', { key })).body;
const ledger = () =>
  t.server.sqlite
    .prepare(
      'SELECT trans_type AS type, credits, source_type AS source, source_detail AS detail FROM credit_ledger ' +
        'ORDER BY id',
    )
    .all() as { type: string; credits: number; source: string | null; detail: string }[];
const fire = () => t.server.scheduler!.tick();

async function draft(text: string): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: text, tweets: [{ content: text }], selectedAccountIds: PLATFORMS.map((p) => ids[p]) },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}
const everywhere = () => PLATFORMS.map((p) => ({ accountId: ids[p], platform: p }));
async function schedule(text: string, at: number) {
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId: await draft(text),
      scheduledFor: new Date(at).toISOString(),
      targetAccounts: everywhere(),
      applyJitter: false,
    },
  });
  expect(r.status, r.text).toBe(200);
  return r.body as { warnings?: string[] };
}
const publications = () =>
  t.server.sqlite.prepare('SELECT status, COUNT(*) AS n FROM publications GROUP BY status').all();

beforeAll(async () => {
  nets = await startNetworks({ pds: true });
  t = await startServer({
    clock,
    scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
    settings: { ...nets.settings, HERALD_TIME_ZONE: 'Europe/Berlin' },
  });
  useFastPolling(t);
  key = await t.login();
  ids = (await connectAll(t, key, nets)) as Record<Platform, string>;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await nets?.close();
});

describe('a month of daily posts to five networks with the defaults', () => {
  it('is scheduled without a warning and published in full: nothing refused for credits', async () => {
    // Already December in Berlin, still November in UTC: the month is the user's.
    expect(await credits()).toMatchObject({
      balance: 10_000,
      monthlyCredits: 10_000,
      reserved: 0,
      timeZone: 'Europe/Berlin',
      expiresAt: '2026-12-31T23:00:00.000Z',
    });
    for (let day = 1; day <= 31; day++) {
      const r = await schedule(`December, day ${day}: a post a day everywhere`, nineAm(11, day));
      expect(r.warnings, `day ${day}`).toBeUndefined();
    }
    expect(await credits()).toMatchObject({
      balance: 10_000,
      reserved: 31 * 5 * 10,
      scheduled: { posts: 155, credits: 1550 },
      warning: null,
    });

    for (let day = 1; day <= 31; day++) {
      clock.set(new Date(nineAm(11, day) + 1_000).toISOString());
      await fire();
    }
    expect(publications()).toEqual([{ status: 'published', n: 155 }]);
    for (const p of PLATFORMS)
      expect((await postsOn(nets, p)).filter((post) => post.text.startsWith('December, day')).length, p).toBe(31);
    const rows = ledger();
    expect(rows.filter((r) => r.type === 'publish').length).toBe(155);
    expect(rows.filter((r) => r.type === 'refund')).toEqual([]);
    expect(await credits()).toMatchObject({ balance: 10_000 - 1550, reserved: 0 });
  });
});

describe('the owner changes the monthly grant in January', () => {
  it(
    'a lowered grant applies at once, and scheduling past it ' + 'warns, by POST /microblog/schedule and /queue',
    async () => {
      clock.set('2027-01-01T09:00:00Z');
      expect((await credits()).balance).toBe(10_000); // December's rest expired, January granted
      const lowered = await t.call('PUT', '/settings', { key, body: { monthlyCredits: 100 } });
      expect(lowered.status, lowered.text).toBe(200);
      expect(lowered.body.restartRequired).toBe(false);
      expect(await credits()).toMatchObject({ balance: 100, monthlyCredits: 100 });
      expect(ledger().at(-1)).toMatchObject({ type: 'adjustment', credits: -9_900, source: 'grant_change' });

      // 100 credits: two posts to five networks fit, a third does not.
      expect((await schedule('January 2', nineAm(0, 2))).warnings).toBeUndefined();
      expect((await schedule('January 3', nineAm(0, 3))).warnings).toBeUndefined();
      const short = await schedule('January 4', nineAm(0, 4));
      expect(short.warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            /^Credits fall short: 5 posts scheduled for this month need 50 credits and 0 are free, /.source +
              /after the 100 already reserved by scheduled posts\./.source,
          ),
        ),
      ]);
      expect(await credits()).toMatchObject({ balance: 100, reserved: 150 });

      // The queue says the same when it schedules.
      const set = (await t.call('GET', '/social-sets', { key })).body.socialSets[0].id as string;
      expect(
        (
          await t.call('PUT', `/social-sets/${set}/slots`, {
            key,
            body: { slots: [1, 2, 3, 4, 5, 6, 7].map((d) => ({ day: d, time: '12:00' })) },
          })
        ).status,
      ).toBe(200);
      const queued = await t.call('POST', '/microblog/queue', {
        key,
        body: { draftId: await draft('Queued in January'), socialSetId: set, applyJitter: false },
      });
      expect(queued.status, queued.text).toBe(200);
      queuedAt = Date.parse(queued.body.slot.at);
      expect(queued.body.warnings).toEqual([
        expect.stringMatching(/^Credits fall short: 5 posts scheduled for this month need 50 credits and 0 are free/),
      ]);
    },
  );

  it(
    'a raised grant applies at once: the balance moves the same ' + 'moment, as an adjustment, and the posts all go',
    async () => {
      const at = clock.now();
      const raised = await t.call('PUT', '/settings', { key, body: { monthlyCredits: 10_000 } });
      expect(raised.status, raised.text).toBe(200);
      expect(clock.now()).toBe(at);
      expect(await credits()).toMatchObject({ balance: 10_000, monthlyCredits: 10_000, reserved: 200 });
      expect((await t.call('GET', '/me', { key })).body.credits_balance).toBe(10_000);
      expect(ledger().at(-1)).toEqual({
        type: 'adjustment',
        credits: 9_900,
        source: 'grant_change',
        detail: 'Monthly grant changed from 100 to 10000 credits',
      });
      const usage = (await t.call('GET', '/credits/usage?limit=1', { key })).body.records[0];
      expect(usage).toMatchObject({ trans_type: 'adjustment', credits: 9_900, created_at: new Date(at).toISOString() });
      expect((await schedule('January 5', nineAm(0, 5))).warnings).toBeUndefined();

      // Each fires on its day (the queued one at its slot on the 1st): all are paid for now.
      for (const due of [queuedAt, nineAm(0, 2), nineAm(0, 3), nineAm(0, 4), nineAm(0, 5)]) {
        clock.set(new Date(due + 1_000).toISOString());
        await fire();
      }
      expect(publications()).toEqual([{ status: 'published', n: 155 + 5 * 5 }]);
      expect((await credits()).balance).toBe(10_000 - 250);
    },
  );
});
