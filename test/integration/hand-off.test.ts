/**
 * Mastodon hand-off end to end (docs/decisions.md §14; issue #23 item 5a): Herald with an injected clock
 * that the Mastodon simulator shares, so the instance publishes scheduled statuses "at their
 * time" by the same clock. A post due 10 minutes or more ahead is created on the instance with
 * scheduled_at; progress says `handed_off`; cancel and reschedule in Herald delete and move it
 * there; after its time Herald confirms the status and marks the entry published with its URL,
 * however long Herald slept; an instance that refuses it falls back to local firing, visibly.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

const MIN = 60_000;
const clock = new TestClock(Date.parse('2026-11-16T08:00:00Z'));
/** How far the instance's clock runs ahead of Herald's (a skewed instance refuses a close time). */
let skew = 0;
let masto: MastodonSimulator;
let t: TestServer;
let key: string;
let acct: string;

beforeAll(async () => {
  masto = await startMastodonSimulator({ now: () => clock.now() + skew });
  t = await startServer({
    clock,
    scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
    settings: { HERALD_FEDBLOG_HAND_OFF: '1' },
  });
  key = await t.login();
  acct = (await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url })).body.accountUuid;
});
afterAll(async () => {
  await t?.close();
  await masto?.close();
});
beforeEach(() => {
  skew = 0;
  masto.faults.clear();
});

const host = () => new URL(masto.url).host;
const fire = () => t.server.scheduler!.tick();

async function draft(...posts: string[]): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: posts[0], tweets: posts.map((content) => ({ content })) },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id;
}

async function schedule(draftId: string, inMs: number) {
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + inMs).toISOString(),
      targetAccounts: [{ accountId: acct, platform: 'fedblog' }],
      applyJitter: false,
    },
  });
  expect(r.status, r.text).toBe(200);
  await fire(); // waits for the hand-off pass the change started
}

async function progress(draftId: string) {
  const r = await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body.entries[0] as Record<string, any>;
}

const held = (text: string) => [...masto.state.scheduled.values()].filter((s) => s.params.status === text);
const published = (text: string) => masto.state.statuses.filter((s) => s.text === text);
const entry = (draftId: string) =>
  t.server.sqlite
    .prepare(
      `SELECT status, network_scheduled_id AS networkId, handed_off_for AS heldFor, fire_at AS fireAt, hand_off_note AS
    note
  FROM schedule_entries WHERE draft_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    )
    .get(draftId) as {
    status: string;
    networkId: string | null;
    heldFor: number | null;
    fireAt: number;
    note: string | null;
  };
const publishedEvents = (draftId: string) =>
  (t.server.sqlite.prepare("SELECT data FROM events WHERE type = 'post.published'").all() as { data: string }[])
    .map((e) => JSON.parse(e.data) as { draftId: string; url: string })
    .filter((e) => e.draftId === draftId);

describe('Mastodon hand-off', () => {
  it('hands a post due in an hour to the instance, shows it, and confirms it after its time with its URL', async () => {
    const id = await draft('Handed off at nine');
    await schedule(id, 60 * MIN);
    const [s] = held('Handed off at nine');
    expect(s, 'the instance holds a scheduled status').toBeTruthy();
    expect(s.scheduledAt).toBe(clock.now() + 60 * MIN);
    expect(entry(id)).toMatchObject({ status: 'pending', networkId: s.id });

    const p = await progress(id);
    expect(p).toMatchObject({ status: 'handed_off', networkScheduledId: s.id, handedOffTo: host() });
    expect(p.statusText).toContain(`Handed to ${host()}`);
    expect(p.statusText).toContain('Goes out at 2026-11-16 09:00 UTC');
    const list = await t.call('GET', '/microblog/schedule', { key });
    expect(list.body.schedules.find((x: any) => x.draftId === id)).toMatchObject({
      networkScheduledId: s.id,
      handedOffTo: host(),
    });

    clock.advance(60 * MIN);
    await fire();
    const out = published('Handed off at nine');
    expect(out).toHaveLength(1);
    expect(held('Handed off at nine')).toHaveLength(0);
    const after = await progress(id);
    expect(after.status).toBe('published');
    expect(after.url).toBe(`${masto.url}/@herald/${out[0].id}`);
    expect(entry(id).status).toBe('done');
    expect(publishedEvents(id).map((e) => e.url)).toEqual([after.url]);
  });

  it('is confirmed, not missed, when Herald wakes long after its time (the instance published it)', async () => {
    const id = await draft('Out while the laptop slept');
    await schedule(id, 30 * MIN);
    expect(held('Out while the laptop slept')).toHaveLength(1);
    clock.advance(30 * MIN + 3 * 60 * MIN); // asleep three hours past it; grace is 15 minutes
    await fire();
    expect((await progress(id)).status).toBe('published');
    expect(published('Out while the laptop slept')).toHaveLength(1);
  });

  it('cancel after hand-off deletes the scheduled status on the instance; nothing goes out', async () => {
    const id = await draft('Cancelled after hand-off');
    await schedule(id, 45 * MIN);
    expect(held('Cancelled after hand-off')).toHaveLength(1);
    const r = await t.call('DELETE', `/microblog/schedule?draftId=${id}`, { key });
    expect(r.status, r.text).toBe(200);
    await fire();
    expect(held('Cancelled after hand-off')).toHaveLength(0);
    expect(masto.requests.some((x) => /^DELETE \/api\/v1\/scheduled_statuses\//.test(x))).toBe(true);
    clock.advance(60 * MIN);
    await fire();
    masto.publishDue();
    expect(published('Cancelled after hand-off')).toHaveLength(0);
    expect((t.server.sqlite.prepare('SELECT COUNT(*) AS n FROM network_withdrawals').get() as { n: number }).n).toBe(0);
  });

  it('a cancel the instance does not answer is withdrawn at the next pass', async () => {
    const id = await draft('Withdrawn on the second try');
    await schedule(id, 45 * MIN);
    masto.faults.next({ kind: '503' }, { route: 'DELETE /api/v1/scheduled_statuses', times: 5 });
    await t.call('DELETE', `/microblog/schedule?draftId=${id}`, { key });
    await fire();
    expect(held('Withdrawn on the second try')).toHaveLength(1);
    expect(
      (t.server.sqlite.prepare('SELECT last_error AS e FROM network_withdrawals').get() as { e: string }).e,
    ).toMatch(/503/);
    masto.faults.clear();
    await fire();
    expect(held('Withdrawn on the second try')).toHaveLength(0);
  });

  it(
    'reschedule after hand-off moves it on the instance (PUT scheduled_at); closer than 10 minutes it is ' +
      'withdrawn and sent by Herald',
    async () => {
      const id = await draft('Moved after hand-off');
      await schedule(id, 60 * MIN);
      const [first] = held('Moved after hand-off');
      await schedule(id, 120 * MIN);
      const [moved] = held('Moved after hand-off');
      expect(moved.id).toBe(first.id);
      expect(moved.scheduledAt).toBe(clock.now() + 120 * MIN);
      expect(masto.requests.some((x) => x.startsWith(`PUT /api/v1/scheduled_statuses/${first.id}`))).toBe(true);
      expect(entry(id)).toMatchObject({ networkId: first.id, heldFor: clock.now() + 120 * MIN });

      await schedule(id, 6 * MIN);
      expect(held('Moved after hand-off')).toHaveLength(0);
      const e = entry(id);
      expect(e.networkId).toBeNull();
      expect(e.note).toMatch(/less than 10 minutes/);
      const p = await progress(id);
      expect(p.status).toBe('pending');
      expect(p.statusText).toMatch(/less than 10 minutes/);

      clock.advance(6 * MIN);
      await fire();
      expect(published('Moved after hand-off')).toHaveLength(1);
      expect((await progress(id)).status).toBe('published');
    },
  );

  it(
    'an instance that refuses the hand-off (422 too soon by its ' + 'clock) leaves the post to Herald, with a notice',
    async () => {
      skew = 8 * MIN; // 12 minutes ahead for Herald is 4 for the instance: under its 5-minute minimum
      const id = await draft('Refused with 422');
      await schedule(id, 12 * MIN);
      expect(held('Refused with 422')).toHaveLength(0);
      const p = await progress(id);
      expect(p.status).toBe('pending');
      expect(p.handOffNote).toMatch(/refused the hand-off.*scheduled date must be in the future/);
      expect(p.statusText).toContain('refused the hand-off');
      clock.advance(12 * MIN);
      await fire();
      expect(published('Refused with 422')).toHaveLength(1);
      expect((await progress(id)).status).toBe('published');
    },
  );

  it(
    'a lost answer to the hand-off is settled by the same ' + 'Idempotency-Key: one scheduled status, handed off',
    async () => {
      masto.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses' });
      const id = await draft('Answer lost once');
      await schedule(id, 40 * MIN);
      const copies = held('Answer lost once');
      expect(copies).toHaveLength(1);
      expect(entry(id)).toMatchObject({ networkId: copies[0].id, note: null });
      expect(masto.state.idempotentReplays).toBeGreaterThan(0);
      await t.call('DELETE', `/microblog/schedule?draftId=${id}`, { key });
      await fire();
    },
  );

  it('an instance failing with 503 also falls back to local firing', async () => {
    masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses' });
    const id = await draft('Refused with 503');
    await schedule(id, 20 * MIN);
    expect(held('Refused with 503')).toHaveLength(0);
    expect(entry(id).note).toMatch(/refused the hand-off/);
    clock.advance(20 * MIN);
    await fire();
    expect(published('Refused with 503')).toHaveLength(1);
  });

  it('threads and posts due in under 10 minutes fire locally; a thread says why', async () => {
    const thread = await draft('Thread one', 'Thread two');
    await schedule(thread, 30 * MIN);
    const soon = await draft('Due in nine minutes');
    await schedule(soon, 9 * MIN);
    expect(masto.state.scheduled.size).toBe(0);
    expect(entry(thread).note).toMatch(/thread/i);
    expect(entry(soon)).toMatchObject({ networkId: null, note: null });
    clock.advance(9 * MIN);
    await fire();
    clock.advance(21 * MIN);
    await fire();
    expect(published('Thread one')).toHaveLength(1);
    expect(published('Thread two')[0].inReplyToId).toBe(published('Thread one')[0].id);
    expect(published('Due in nine minutes')).toHaveLength(1);
  });

  it("editing a handed-off draft replaces the instance's copy with the new text", async () => {
    const id = await draft('Old text, handed off');
    await schedule(id, 50 * MIN);
    expect(held('Old text, handed off')).toHaveLength(1);
    const r = await t.call('PUT', `/microblog/drafts/${id}`, {
      key,
      body: { tweets: [{ content: 'New text, handed off again' }] },
    });
    expect(r.status, r.text).toBe(200);
    await fire();
    expect(held('Old text, handed off')).toHaveLength(0);
    const [copy] = held('New text, handed off again');
    expect(copy.scheduledAt).toBe(clock.now() + 50 * MIN);
    expect(entry(id).networkId).toBe(copy.id);
    clock.advance(50 * MIN);
    await fire();
    expect(published('Old text, handed off')).toHaveLength(0);
    expect(published('New text, handed off again')).toHaveLength(1);
    expect((await progress(id)).status).toBe('published');
  });

  it('deleting a handed-off draft withdraws its post from the instance', async () => {
    const id = await draft('Deleted after hand-off');
    await schedule(id, 50 * MIN);
    expect(held('Deleted after hand-off')).toHaveLength(1);
    const r = await t.call('DELETE', `/microblog/drafts/${id}`, { key });
    expect(r.status, r.text).toBe(200);
    await fire();
    expect(held('Deleted after hand-off')).toHaveLength(0);
    clock.advance(60 * MIN);
    masto.publishDue();
    expect(published('Deleted after hand-off')).toHaveLength(0);
  });

  it("publishing a handed-off draft now withdraws the instance's copy: one post, not two", async () => {
    const id = await draft('Published now after hand-off');
    await schedule(id, 50 * MIN);
    expect(held('Published now after hand-off')).toHaveLength(1);
    const r = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId: id, targetAccounts: [{ accountId: acct, platform: 'fedblog' }] },
    });
    expect(r.status, r.text).toBe(200);
    await fire();
    expect(held('Published now after hand-off')).toHaveLength(0);
    expect(entry(id).status).toBe('cancelled');
    clock.advance(60 * MIN);
    await fire();
    masto.publishDue();
    expect(published('Published now after hand-off')).toHaveLength(1);
  });

  it('the setting fedblogHandOff off: nothing is handed off', async () => {
    const off = await t.call('PUT', '/settings', { key, body: { fedblogHandOff: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.settings.fedblogHandOff).toBe(false);
    const id = await draft('Not handed off: setting off');
    await schedule(id, 60 * MIN);
    expect(held('Not handed off: setting off')).toHaveLength(0);
    expect((await progress(id)).status).toBe('pending');
    await t.call('PUT', '/settings', { key, body: { fedblogHandOff: true } });
    await t.call('DELETE', `/microblog/schedule?draftId=${id}`, { key });
  });
});
