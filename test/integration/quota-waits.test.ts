/**
 * Posting caps before a scheduled post fires (platforms/quotas.ts, domain/publishing/quota-gate.ts),
 * with Herald's clock injected and shared with the Threads simulator's quota clock: a post over
 * the cap is held back pending and uncharged, progress shows `waitingFor: "quota"` and
 * `nextAttemptAt`, the event stream tells the new time, and it goes when the window frees.
 * Threads: 250 posts per 24 h, read from the simulator's threads_publishing_limit (posts made
 * outside Herald count). X: the Free tier's 17 posts per 24 h, counted from Herald's own records.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerId } from '../helpers/fixtures.js';
import { useFastPolling } from '../helpers/networks.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { startThreadsSimulator, type ThreadsSimulator } from '../simulators/threads.simulator.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { RECHECK_MS, windowFreesAt } from '../../server/domain/publishing/quota-gate.js';

vi.setConfig({ testTimeout: 60_000 });

const CLIENT = { clientId: 'herald-quota-client', clientSecret: 'herald-quota-secret' };
const MIN = 60_000;
const HOUR = 60 * MIN;
const clock = new TestClock(Date.parse('2026-11-15T12:00:00Z'));
let x: XSimulator;
let threads: ThreadsSimulator;
let t: TestServer;
let key: string;
let xId: string;
let threadsId: string;

beforeAll(async () => {
  [x, threads] = await Promise.all([
    startXSimulator({ ...CLIENT, rejectDuplicates: false }),
    startThreadsSimulator({ containerReadyMs: 0, now: () => clock.now() }),
  ]);
  t = await startServer({
    clock,
    scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
    settings: {
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
      HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
      HERALD_THREADBLOG_API_URL: threads.url,
      HERALD_THREADBLOG_AUTHORIZE_URL: threads.authorizeUrl,
      HERALD_THREADBLOG_TOKEN_URL: threads.tokenUrl,
      HERALD_THREADBLOG_CLIENT_ID: threads.clientId,
      HERALD_THREADBLOG_CLIENT_SECRET: threads.clientSecret,
    },
  });
  useFastPolling(t);
  key = await t.login();
  xId = (await connectOAuth(t, key, 'microblog')).body.accountUuid;
  threadsId = (await connectOAuth(t, key, 'threadblog')).body.accountUuid;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([x?.close(), threads?.close()]);
});

async function draft(text: string): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}
async function scheduleAt(draftId: string, at: number, accountId: string, platform: string) {
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(at).toISOString(),
      targetAccounts: [{ accountId, platform }],
      applyJitter: false,
    },
  });
  expect(r.status, r.text).toBe(200);
}
const progress = async (draftId: string) =>
  (await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key })).body.entries[0];
const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
const fire = () => t.server.scheduler!.tick();
const events = (after: number) =>
  t.server.services.events.read(ownerId(t), after).map((e) => ({ type: e.type, ...JSON.parse(e.data) }));

describe('when a window frees (pure)', () => {
  it('counts known requests, weights and unknown ones', () => {
    const w = { limit: 3, windowMs: HOUR };
    expect(windowFreesAt(w, [0, 10, 20], 1, 30)).toBe(HOUR + 1);
    expect(windowFreesAt(w, [0, 10], 1, 30)).toBeNull();
    expect(windowFreesAt(w, [0, 10, 20], 2, 30)).toBe(10 + HOUR + 1);
    expect(windowFreesAt(w, [0], 5, 30)).toBeNull(); // never fits: not held
    expect(windowFreesAt({ limit: 9, windowMs: HOUR, weight: 3 }, [0, 10, 20], 3, 30)).toBe(HOUR + 1);
    expect(windowFreesAt(w, [20], 1, 30, 2)).toBe(20 + HOUR + 1); // the known one leaves before the recheck
    expect(windowFreesAt(w, [20], 1, 30, 3)).toBe(30 + RECHECK_MS); // only unknown ones would have to leave
  });
});

describe('Threads: 250 posts per 24 h, from its quota endpoint', () => {
  it(
    'holds the 251st post pending with waitingFor quota and ' + 'nextAttemptAt, then sends it when the window frees',
    async () => {
      // 249 posts made outside Herald 23 h ago: Threads counts them, Herald has no record of them.
      threads.seedPosts('herald.tester', 249, clock.now() - 23 * HOUR);
      const first = await draft('Threads post 250');
      const second = await draft('Threads post 251');
      await scheduleAt(first, clock.now() + MIN, threadsId, 'threadblog');
      await scheduleAt(second, clock.now() + 2 * MIN, threadsId, 'threadblog');
      const credits = await balance();
      const after = t.server.services.events.latestId(ownerId(t));
      const checks = threads.state.quotaChecks ?? 0;
      clock.advance(2 * MIN);
      await fire();
      expect(threads.postsBy('herald.tester').filter((p) => p.text.startsWith('Threads post'))).toHaveLength(1);
      expect(threads.state.quotaChecks).toBeGreaterThanOrEqual(checks + 2);
      expect(threads.state.quotaRefusals ?? 0).toBe(0);
      // Held: the seeded posts leave the window at an unknown time, so Herald looks again within RECHECK_MS.
      const held = await progress(second);
      const nextAt = clock.now() + RECHECK_MS;
      expect(held).toMatchObject({
        status: 'pending',
        waitingFor: 'quota',
        nextAttemptAt: new Date(nextAt).toISOString(),
      });
      expect(held.statusText).toMatch(/250 posts per 24 hours/);
      expect(
        (await t.call('GET', '/microblog/schedule', { key })).body.schedules.some(
          (s: { draftId: string }) => s.draftId === second,
        ),
      ).toBe(true);
      // Charged only for the one that went out; the event stream tells when the held one goes.
      expect(credits - (await balance())).toBe(10);
      expect(events(after).find((e) => e.type === 'post.scheduled' && e.draftId === second)).toMatchObject({
        waitingFor: 'quota',
        nextAttemptAt: new Date(nextAt).toISOString(),
      });

      // Not before its time.
      clock.advance(RECHECK_MS - MIN);
      await fire();
      expect(threads.countPosts('herald.tester', 'Threads post 251')).toBe(0);
      // An hour on, the seeded posts (23 h old then) have left the 24 h window: it goes.
      clock.t = nextAt;
      await fire();
      expect(threads.countPosts('herald.tester', 'Threads post 251')).toBe(1);
      expect(await progress(second)).toMatchObject({ status: 'published', waitingFor: null });
      expect(threads.state.quotaRefusals ?? 0).toBe(0);
    },
  );

  it('a quota endpoint that fails does not hold the post: it goes (a refusal would be retried)', async () => {
    const id = await draft('Threads post while the quota endpoint fails');
    await scheduleAt(id, clock.now() + MIN, threadsId, 'threadblog');
    clock.advance(MIN);
    threads.faults.next({ kind: '503' }, { route: /threads_publishing_limit/, times: 1 });
    await fire();
    expect(threads.faults.fired.length).toBeGreaterThan(0);
    expect(threads.countPosts('herald.tester', 'Threads post while the quota endpoint fails')).toBe(1);
  });
});

describe("X by tier: the Free tier's 17 posts per 24 h", () => {
  it("holds the 18th until the first of the 17 leaves the window, counted from Herald's own records", async () => {
    expect((await t.call('PUT', '/settings', { key, body: { xTier: 'free' } })).status).toBe(200);
    const start = clock.now();
    for (let i = 1; i <= 17; i++) {
      const id = await draft(`X post ${i} of the day`);
      expect(
        (await t.call('POST', '/microblog/publish', { key, body: { draftId: id, accountIds: [xId] } })).status,
      ).toBe(200);
      clock.advance(MIN);
    }
    const eighteenth = await draft('X post 18 of the day');
    await scheduleAt(eighteenth, clock.now() + MIN, xId, 'microblog');
    clock.advance(MIN);
    const credits = await balance();
    await fire();
    expect(x.state.posts.filter((p) => p.text === 'X post 18 of the day')).toHaveLength(0);
    const freesAt = start + 24 * HOUR + 1;
    expect(await progress(eighteenth)).toMatchObject({
      status: 'pending',
      waitingFor: 'quota',
      nextAttemptAt: new Date(freesAt).toISOString(),
    });
    expect(await balance()).toBe(credits);
    clock.t = freesAt - 1;
    await fire();
    expect(x.state.posts.filter((p) => p.text === 'X post 18 of the day')).toHaveLength(0);
    clock.t = freesAt;
    await fire();
    expect(x.state.posts.filter((p) => p.text === 'X post 18 of the day')).toHaveLength(1);
    expect(await progress(eighteenth)).toMatchObject({ status: 'published' });
    expect((await t.call('PUT', '/settings', { key, body: { xTier: 'pay_per_use' } })).status).toBe(200);
  });
});
