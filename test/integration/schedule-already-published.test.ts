/**
 * Scheduling or queueing a draft on accounts it was already published to (docs/decisions.md §22): 409
 * ALREADY_PUBLISHED naming them, nothing scheduled; with `force: true` it posts again at its
 * time, a new publication charged and shown in history like any other; and a forced entry that
 * fired and was then fired again (a crash before its entry said so) does not post a third time.
 * Against the X and Mastodon simulators with an injected clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  clock,
  draft,
  fire,
  key,
  MIN,
  mastoId,
  t,
  tweets,
  useSchedulerWorld,
  xId,
} from '../helpers/scheduler-world.js';

useSchedulerWorld();

const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
const pending = (draftId: string) =>
  t.server.sqlite
    .prepare("SELECT COUNT(*) FROM schedule_entries WHERE draft_id = ? AND status = 'pending'")
    .pluck()
    .get(draftId) as number;
const balance = async () => (await call('POST', '/credits')).body.balance as number;
const history = async (draftId: string) =>
  (
    (await call('GET', '/publish/history?limit=100')).body.publications as {
      draftId: string;
      accountId: string;
      status: string;
    }[]
  ).filter((h) => h.draftId === draftId);
const x = () => [{ accountId: xId, platform: 'microblog' }];
const both = () => [
  { accountId: xId, platform: 'microblog' },
  { accountId: mastoId, platform: 'fedblog' },
];

async function published(text: string, targets: { accountId: string; platform: string }[]): Promise<string> {
  const id = await draft(text);
  const r = await call('POST', '/microblog/publish', { draftId: id, accountIds: targets.map((a) => a.accountId) });
  expect(r.status, r.text).toBe(200);
  expect(r.body.success).toBe(true);
  return id;
}

beforeAll(() => clock.set('2026-11-26T12:00:00.000Z'));

describe('scheduling a draft that is already published', () => {
  it('POST /microblog/schedule answers 409 ALREADY_PUBLISHED naming the accounts, and schedules nothing', async () => {
    const id = await published('Already out on X only', x());
    const r = await call('POST', '/microblog/schedule', {
      draftId: id,
      scheduledFor: new Date(clock.now() + 10 * MIN).toISOString(),
      targetAccounts: both(),
    });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toBe('ALREADY_PUBLISHED');
    expect(r.body.message).toMatch(/@\S+ on X/);
    expect(r.body.message).not.toMatch(/Mastodon/);
    expect(r.body.message).toMatch(/force/);
    expect(r.body.details).toEqual([{ path: 'force', message: expect.stringContaining(xId) }]);
    expect(pending(id)).toBe(0);
    // The unpublished account alone is scheduled as usual.
    const rest = await call('POST', '/microblog/schedule', {
      draftId: id,
      scheduledFor: new Date(clock.now() + 10 * MIN).toISOString(),
      targetAccounts: [both()[1]],
      applyJitter: false,
    });
    expect(rest.status, rest.text).toBe(200);
  });

  it('POST /microblog/queue answers the same 409', async () => {
    const set = await call('POST', '/social-sets', { name: 'Again', timeZone: 'UTC', accountIds: [xId] });
    expect(set.status, set.text).toBe(200);
    const setId = set.body.socialSet.id;
    expect((await call('PUT', `/social-sets/${setId}/slots`, { slots: [{ day: 5, time: '09:00' }] })).status).toBe(200);
    const id = await published('Already out, queued again', x());
    const r = await call('POST', '/microblog/queue', { draftId: id, socialSetId: setId });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toBe('ALREADY_PUBLISHED');
    expect(pending(id)).toBe(0);
    const forced = await call('POST', '/microblog/queue', { draftId: id, socialSetId: setId, force: true });
    expect(forced.status, forced.text).toBe(200);
    expect(pending(id)).toBe(1);
    expect((await call('DELETE', `/microblog/schedule?draftId=${id}`)).body.cancelled).toBe(1);
  });

  it('with force: true it posts again at its time: a new publication, charged and in history', async () => {
    const text = 'Posted twice on purpose';
    const id = await published(text, x());
    expect(tweets(text)).toBe(1);
    const r = await call('POST', '/microblog/schedule', {
      draftId: id,
      scheduledFor: new Date(clock.now() + 5 * MIN).toISOString(),
      targetAccounts: x(),
      applyJitter: false,
      force: true,
    });
    expect(r.status, r.text).toBe(200);
    const before = await balance();
    clock.advance(5 * MIN);
    await fire();
    expect(tweets(text)).toBe(2);
    expect(before - (await balance())).toBe(10);
    const rows = await history(id);
    expect(rows.map((h) => h.status)).toEqual(['published', 'published']);

    // Its entry fired again (as after a crash before it was marked done): no third post.
    t.server.sqlite
      .prepare("UPDATE schedule_entries SET status = 'pending', due_at = ? WHERE draft_id = ?")
      .run(clock.now(), id);
    await fire();
    expect(tweets(text)).toBe(2);
    expect(await history(id)).toHaveLength(2);
  });
});
