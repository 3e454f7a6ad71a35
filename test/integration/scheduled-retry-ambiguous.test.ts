/**
 * Issue #19 item 5: a scheduled post whose first attempt was committed by the network, then
 * answered with a gateway error (502/504), is retried by the scheduler a minute later. The retry
 * must not send a second copy: Mastodon gets the same Idempotency-Key (and the simulator, like
 * Mastodon, answers the first status again), X, Threads and LinkedIn are asked for the post before
 * anything is sent. The scheduler runs for real under an injected clock, so the retry happens at
 * the instant it chose; every count is read from the simulators.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import type { Waker } from '../../server/jobs/scheduler.js';
import { createFedblogAdapter } from '../../server/platforms/fedblog.adapter.js';
import { connectAll, postsOn, startNetworks, useFastPolling, type Networks } from '../helpers/networks.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 90_000 });

class ManualWaker implements Waker {
  arm() {}
  cancel() {}
}

const POST_ROUTE: Partial<Record<Platform, RegExp>> = {
  microblog: /^POST \/2\/tweets$/,
  fedblog: /^POST \/api\/v1\/statuses$/,
  threadblog: /^POST .*\/threads_publish$/,
  problog: /^POST \/rest\/posts$/,
};

let nets: Networks;
let t: TestServer;
let key: string;
let ids: Record<Platform, string>;
const clock = new TestClock(Date.now());

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({
    clock,
    settings: nets.settings,
    scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
  });
  useFastPolling(t);
  key = await t.login();
  ids = (await connectAll(t, key, nets)) as Record<Platform, string>;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await nets?.close();
});

interface Entry {
  status: string;
  attempts: number;
  dueAt: number;
  nextAttemptAt: number | null;
  lastError: string | null;
}
const entryOf = (draftId: string) =>
  t.server.sqlite
    .prepare(
      `SELECT status, attempts, due_at AS dueAt, next_attempt_at AS nextAttemptAt, last_error AS lastError
  FROM schedule_entries WHERE draft_id = ?`,
    )
    .get(draftId) as Entry;

const sim = (p: Platform) =>
  (
    ({ microblog: nets.x, fedblog: nets.masto, threadblog: nets.threads, problog: nets.li }) as Record<
      string,
      Networks['x'] | Networks['masto'] | Networks['threads'] | Networks['li']
    >
  )[p];

async function scheduleOne(platform: Platform, text: string): Promise<string> {
  const d = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
  expect(d.status, d.text).toBe(200);
  const draftId = d.body.draft.id as string;
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + 60_000).toISOString(),
      applyJitter: false,
      targetAccounts: [{ accountId: ids[platform], platform }],
    },
  });
  expect(r.status, r.text).toBe(200);
  return draftId;
}

describe('a scheduled post committed, then answered with a gateway error, is retried without a duplicate', () => {
  const cases: [Platform, 502 | 504][] = [
    ['fedblog', 502],
    ['fedblog', 504],
    ['microblog', 504],
    ['threadblog', 502],
    ['problog', 504],
  ];
  it.each(cases)(
    '%s answering %d after taking the post: exactly one post after the scheduled retry',
    async (platform, status) => {
      const text = `Gateway ${status} on ${platform} at ${clock.now()}`;
      const draftId = await scheduleOne(platform, text);
      sim(platform).faults.next({ kind: 'commit-then-error', status }, { route: POST_ROUTE[platform] });
      const replays = nets.masto.state.idempotentReplays;

      clock.advance(60_000);
      await t.server.scheduler!.tick();
      expect(sim(platform).faults.fired.at(-1)?.kind).toBe('commit-then-error');
      const first = entryOf(draftId);
      // The first attempt failed in Herald's eyes and a retry is planned.
      expect(first).toMatchObject({ status: 'pending', attempts: 1 });
      expect(first.nextAttemptAt).toBeGreaterThan(clock.now());
      const onNetwork = async () => (await postsOn(nets, platform)).filter((p) => p.text === text).length;
      expect(await onNetwork()).toBe(1);

      clock.t = first.nextAttemptAt!;
      await t.server.scheduler!.tick();
      expect(entryOf(draftId)).toMatchObject({ status: 'done', attempts: 2 });
      expect(await onNetwork()).toBe(1);
      expect(sim(platform).state.counter.duplicates()).toEqual([]);
      if (platform === 'fedblog')
        expect(nets.masto.state.idempotentReplays, 'the retry carried the first key').toBe(replays + 1);
      const p = await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
      expect(p.body.entries[0]).toMatchObject({ status: 'published', url: expect.any(String) });
    },
  );
});

describe('a Mastodon write that times out (issue #19 item 8)', () => {
  it(
    "ends the attempt after the adapter's one same-key repeat, with a retry planned, instead of holding " +
      '"publishing" for rounds of timeouts',
    async () => {
      // The production wait is 30 s; the test shortens it so the simulator's held connection outlasts it.
      t.server.deps.platforms.register(createFedblogAdapter({ statusTimeoutMs: 300 }));
      const text = `Timeout on Mastodon at ${clock.now()}`;
      const draftId = await scheduleOne('fedblog', text);
      const route = POST_ROUTE.fedblog!;
      nets.masto.faults.next({ kind: 'timeout', ms: 1_500 }, { route, times: 10 });
      const posts = () => nets.masto.requests.filter((r) => route.test(r)).length;
      const before = posts();

      clock.advance(60_000);
      await t.server.scheduler!.tick();
      nets.masto.faults.clear();
      // The first send and the adapter's repeat with the same key; no further rounds.
      expect(posts() - before).toBe(2);
      const first = entryOf(draftId);
      expect(first).toMatchObject({ status: 'pending', attempts: 1 });
      expect(first.nextAttemptAt).toBeGreaterThan(clock.now());

      clock.t = first.nextAttemptAt!;
      await t.server.scheduler!.tick();
      expect(entryOf(draftId)).toMatchObject({ status: 'done', attempts: 2 });
      expect((await postsOn(nets, 'fedblog')).filter((p) => p.text === text)).toHaveLength(1);
      t.server.deps.platforms.register(createFedblogAdapter());
    },
  );
});
