/**
 * What the scheduler does when a post fires, with an injected clock and a manual waker, against
 * the X and Mastodon simulators (accounts connected over Herald's own OAuth): retries with
 * backoff that honour a 429's reset, at most 3 attempts, permanent failures at once; priority
 * among posts due together; the draft's status while some of its posts are still to come; (a draft
 * scheduled again after a kill: scheduler-restart.test.ts; node-schedule's wake-up: test/unit/scheduler-waker.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  clock,
  draft,
  draftStatus,
  entry,
  fire,
  key,
  masto,
  mastoId,
  MIN,
  scheduleAt,
  t,
  tweets,
  useSchedulerWorld,
  x,
  xId,
} from '../helpers/scheduler-world.js';

useSchedulerWorld();

describe('retries', () => {
  it(
    'retries a 5xx after the first backoff, then a 429 no ' + 'sooner than its reset, and stops after 3 attempts',
    async () => {
      const text = 'Retried three times at most';
      const id = await draft(text);
      await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
      clock.advance(MIN);
      x.faults.next({ kind: '503' }, { route: 'POST /2/tweets' });
      await fire();
      expect(entry(id)).toMatchObject({ status: 'pending', attempts: 1, dueAt: clock.now() + MIN });
      expect(entry(id).error).toMatch(/X/);

      // Attempt 2: the rate limit lifts in 20 minutes, later than the 5-minute backoff.
      clock.advance(MIN);
      x.faults.next({ kind: '429', resetInSeconds: 1200 }, { route: 'POST /2/tweets' });
      await fire();
      const second = entry(id);
      expect(second).toMatchObject({ status: 'pending', attempts: 2 });
      // The reset comes from the simulator's own clock (real time); the backoff from Herald's.
      expect(second.dueAt).toBeGreaterThan(clock.now() + 5 * MIN);
      expect(Math.abs(second.dueAt - (Date.now() + 1_200_000))).toBeLessThan(5_000);

      // Attempt 3 fails too: no fourth.
      clock.t = second.dueAt;
      x.faults.next({ kind: '503' }, { route: 'POST /2/tweets' });
      await fire();
      expect(entry(id)).toMatchObject({ status: 'failed', attempts: 3 });
      expect(tweets(text)).toBe(0);
      expect(draftStatus(id)).toBe('failed');
      const progress = (await t.call('GET', `/microblog/publish/progress?draftId=${id}`, { key })).body;
      expect(progress.entries[0]).toMatchObject({ status: 'failed', error: expect.any(String) });
    },
  );

  it(
    'fails at once when the post is refused before anything is ' + 'sent, and publishes once when a retry succeeds',
    async () => {
      const refused = await draft('Edited past the limit after scheduling');
      const retried = await draft('Published on the second attempt');
      await scheduleAt(refused, MIN, [{ accountId: xId, platform: 'microblog' }]);
      await scheduleAt(retried, MIN + 1000, [{ accountId: xId, platform: 'microblog' }]);
      // Edited after it was scheduled: X refuses 300 characters.
      const edit = await t.call('PUT', `/microblog/drafts/${refused}`, {
        key,
        body: { tweets: [{ content: 'a'.repeat(300) }] },
      });
      expect(edit.status, edit.text).toBe(200);
      const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
      const before = await balance();
      clock.advance(MIN + 1000);
      x.faults.next({ kind: '503' }, { route: 'POST /2/tweets' });
      await fire();
      expect(entry(refused)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry(refused).error).toMatch(/280|long|characters/i);
      expect(draftStatus(refused)).toBe('failed');
      expect(entry(retried)).toMatchObject({ status: 'pending', attempts: 1 });
      clock.advance(MIN);
      await fire();
      expect(entry(retried)).toMatchObject({ status: 'done', attempts: 2 });
      expect(tweets('Published on the second attempt')).toBe(1);
      // Charged once for the one that went out; the failed attempt was refunded.
      expect(before - (await balance())).toBe(10);
    },
  );
});

describe('backoff', () => {
  it(
    'waits about 1, then 5 minutes after plain 5xx; a 429 whose reset comes sooner still waits the backoff; ' +
      'nothing fires early',
    async () => {
      const text = 'Backed off one, then five minutes';
      const id = await draft(text);
      await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
      const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
      const before = await balance();
      clock.advance(MIN);
      x.faults.next({ kind: '502' }, { route: 'POST /2/tweets' });
      await fire();
      const first = entry(id);
      expect(first).toMatchObject({ status: 'pending', attempts: 1, dueAt: clock.now() + MIN });
      // A tick a second before the retry is due sends nothing.
      clock.t = first.dueAt - 1000;
      await fire();
      expect(entry(id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect(x.faults.pending()).toBe(0);
      const posts = x.state.posts.length;

      // Attempt 2: rate-limited with a reset 10 s away; the 5-minute backoff is the later of the two.
      clock.t = first.dueAt;
      x.faults.next({ kind: '429', resetInSeconds: 10 }, { route: 'POST /2/tweets' });
      await fire();
      const second = entry(id);
      expect(second).toMatchObject({ status: 'pending', attempts: 2, dueAt: clock.now() + 5 * MIN });
      clock.t = second.dueAt - 1000;
      await fire();
      expect(entry(id).attempts).toBe(2);
      expect(x.state.posts.length).toBe(posts);

      // Attempt 3 goes through: published once, charged once (the failed attempts were refunded).
      clock.t = second.dueAt;
      await fire();
      expect(entry(id)).toMatchObject({ status: 'done', attempts: 3 });
      expect(tweets(text)).toBe(1);
      expect(before - (await balance())).toBe(10);
      expect(draftStatus(id)).toBe('published');
      const progress = (await t.call('GET', `/microblog/publish/progress?draftId=${id}`, { key })).body;
      expect(progress.entries[0]).toMatchObject({ status: 'published', attempts: 3 });
    },
  );
});

describe('a retry due while Herald was closed', () => {
  it('looked at 10 minutes after it was due (within the grace period), it goes out at once', async () => {
    const text = 'Retry due while closed for 10 minutes';
    const id = await draft(text);
    await scheduleAt(id, MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
    const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
    const before = await balance();
    clock.advance(MIN);
    masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses' });
    await fire();
    const due = entry(id, mastoId).dueAt;
    expect(entry(id, mastoId)).toMatchObject({ status: 'pending', attempts: 1 });
    clock.t = due + 10 * MIN;
    await fire();
    expect(entry(id, mastoId)).toMatchObject({ status: 'done', attempts: 2 });
    expect(masto.state.statuses.filter((s) => s.text === text)).toHaveLength(1);
    expect(before - (await balance())).toBe(10);
  });

  it(
    'a retry looked at 20 minutes after it was due is missed: ' + 'not published, not charged, shown in progress',
    async () => {
      const text = 'Retry missed after a long close';
      const id = await draft(text);
      await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
      const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
      const before = await balance();
      clock.advance(MIN);
      x.faults.next({ kind: '503' }, { route: 'POST /2/tweets' });
      await fire();
      const due = entry(id).dueAt;
      expect(entry(id)).toMatchObject({ status: 'pending', attempts: 1 });
      clock.t = due + 20 * MIN;
      await fire();
      expect(entry(id)).toMatchObject({ status: 'missed', attempts: 1 });
      expect(entry(id).error).toMatch(/not running .* for attempt 2 \(20 min late\)/);
      expect(tweets(text)).toBe(0);
      expect(await balance()).toBe(before);
      const progress = (await t.call('GET', `/microblog/publish/progress?draftId=${id}`, { key })).body;
      expect(progress.entries).toEqual([expect.objectContaining({ status: 'missed', platform: 'microblog' })]);
      expect(progress.summary).toMatchObject({ total: 1, failed: 1, pending: 0, completed: 0 });
      expect(draftStatus(id)).toBe('failed');
    },
  );
});

describe("the draft's status once its last post is out", () => {
  it(
    'is published for every draft whose posts on two networks fire together (each outcome written after the ' +
      'other finished)',
    async () => {
      const texts = Array.from({ length: 24 }, (_, i) => `Two networks at once ${i + 1}`);
      const ids: string[] = [];
      for (const text of texts) ids.push(await draft(text));
      for (const id of ids)
        await scheduleAt(id, MIN, [
          { accountId: xId, platform: 'microblog' },
          { accountId: mastoId, platform: 'fedblog' },
        ]);
      clock.advance(MIN);
      await fire();
      for (const id of ids) {
        expect(entry(id, xId).status).toBe('done');
        expect(entry(id, mastoId).status).toBe('done');
      }
      const statuses = ids.map(draftStatus);
      expect(
        statuses.filter((s) => s !== 'published'),
        statuses.join(' '),
      ).toEqual([]);
      for (const text of texts) expect(tweets(text)).toBe(1);
    },
  );

  it(
    "is partially published when one network's post was missed " + "and the other's went out in the same wake-up",
    async () => {
      const text = 'One missed, one published, found due together';
      const id = await draft(text);
      await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
      await scheduleAt(id, 11 * MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
      // Back after 17 minutes: X's post is 17 minutes late (missed), Mastodon's 7 (published).
      clock.advance(18 * MIN);
      await fire();
      expect(entry(id, xId).status).toBe('missed');
      expect(entry(id, mastoId).status).toBe('done');
      expect(tweets(text)).toBe(0);
      expect(draftStatus(id)).toBe('partially_published');
    },
  );
});

describe('an entry found late whose post already went out', () => {
  it(
    'is done, not missed (published meanwhile, or a crash after ' + 'it was published before its entry said so)',
    async () => {
      const text = 'Published already when its late entry is found';
      const id = await draft(text);
      await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
      const now = await t.call('POST', '/microblog/publish', { key, body: { draftId: id, accountIds: [xId] } });
      expect(now.body.summary, now.text).toEqual({ total: 1, succeeded: 1, failed: 0 });
      clock.advance(MIN + 20 * MIN);
      await fire();
      expect(entry(id)).toMatchObject({ status: 'done', error: null });
      expect(tweets(text)).toBe(1);
      expect(draftStatus(id)).toBe('published');
      const progress = (await t.call('GET', `/microblog/publish/progress?draftId=${id}`, { key })).body;
      expect(progress.entries).toEqual([expect.objectContaining({ status: 'published' })]);
    },
  );
});

describe('cancelling while a post is going out', () => {
  it('removes the pending entries; the one already publishing finishes, once', async () => {
    const text = 'Cancelled while it was going out';
    const id = await draft(text);
    await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
    await scheduleAt(id, 30 * MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
    clock.advance(MIN);
    x.faults.latencyMs = 300;
    try {
      const firing = fire();
      const pub = () =>
        t.server.sqlite
          .prepare('SELECT status FROM publications WHERE draft_id = ? AND account_id = ?')
          .get(id, xId) as { status: string } | undefined;
      for (let i = 0; i < 200 && pub()?.status !== 'publishing'; i++) await new Promise((r) => setTimeout(r, 5));
      expect(pub()?.status).toBe('publishing');
      const r = await t.call('DELETE', `/microblog/schedule?draftId=${id}`, { key });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ success: true, cancelled: 1, message: expect.stringContaining('1') });
      await firing;
    } finally {
      x.faults.latencyMs = 0;
    }
    expect(tweets(text)).toBe(1);
    expect(entry(id, xId).status).toBe('done');
    expect(entry(id, mastoId)).toBeUndefined();
    expect(draftStatus(id)).toBe('published');
    clock.advance(30 * MIN);
    await fire();
    expect(masto.state.statuses.some((s) => s.text === text)).toBe(false);
  });
});

describe('order and status', () => {
  it('publishes posts due together by priority, then by time', async () => {
    const [low, high, later] = await Promise.all(['Priority 0', 'Priority 5', 'Priority 9, a second later'].map(draft));
    await scheduleAt(low, MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
    await scheduleAt(high, MIN, [{ accountId: mastoId, platform: 'fedblog' }], { priority: 5 });
    await scheduleAt(later, MIN + 1000, [{ accountId: mastoId, platform: 'fedblog' }], { priority: 9 });
    clock.advance(MIN + 1000);
    await fire();
    const order = masto.state.statuses
      .filter((s) => s.text.startsWith('Priority'))
      .sort((a, b) => a.seq - b.seq)
      .map((s) => s.text);
    expect(order).toEqual(['Priority 5', 'Priority 0', 'Priority 9, a second later']);
  });

  it(
    'keeps a draft scheduled until its last post fires; one missed while others went out leaves it partially ' +
      'published',
    async () => {
      const id = await draft('Two networks, two times');
      await scheduleAt(id, MIN, [{ accountId: xId, platform: 'microblog' }]);
      // The same draft for Mastodon an hour later (a second request adds its entry).
      await scheduleAt(id, 60 * MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
      expect(draftStatus(id)).toBe('scheduled');
      clock.advance(MIN);
      await fire();
      expect(entry(id, xId).status).toBe('done');
      expect(draftStatus(id)).toBe('scheduled');
      // Closed past the grace period: the Mastodon post is missed.
      clock.advance(59 * MIN + 16 * MIN);
      await fire();
      expect(entry(id, mastoId).status).toBe('missed');
      expect(draftStatus(id)).toBe('partially_published');
      expect(masto.state.statuses.some((s) => s.text === 'Two networks, two times')).toBe(false);
    },
  );
});

describe('a permanent refusal from the network', () => {
  // After every other test that uses the Mastodon account: it leaves it needing to be connected again.
  it(
    'fails the post at once (a revoked Mastodon token): not ' + 'retried, refunded, the account marked needs_reauth',
    async () => {
      const text = 'Refused for good by Mastodon';
      const id = await draft(text);
      await scheduleAt(id, MIN, [{ accountId: mastoId, platform: 'fedblog' }]);
      const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
      const before = await balance();
      clock.advance(MIN);
      // Mastodon has no refresh token: a 401 means the access was revoked.
      masto.faults.next({ kind: 'expired-token' }, { route: 'POST /api/v1/statuses' });
      await fire();
      expect(entry(id, mastoId)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry(id, mastoId).error).toMatch(/connect/i);
      expect(await balance()).toBe(before);
      expect(draftStatus(id)).toBe('failed');
      expect(masto.state.statuses.some((s) => s.text === text)).toBe(false);
      const account = (await t.call('GET', `/accounts/${mastoId}`, { key })).body.account;
      expect(account.status).toBe('needs_reauth');
      // Nothing comes back later.
      clock.advance(30 * MIN);
      await fire();
      expect(entry(id, mastoId)).toMatchObject({ status: 'failed', attempts: 1 });
    },
  );
});
