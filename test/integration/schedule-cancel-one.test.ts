/**
 * Cancelling one network of a multi-network schedule (DELETE /microblog/schedule?draftId=&accountId=):
 * only that account's entry goes, the draft stays scheduled on the other, and it returns to
 * `draft` once the last one is cancelled. Without accountId every entry goes, as before. An
 * account with nothing pending cancels nothing; a draft of another user is 404. The client passes
 * it on.
 */
import { describe, expect, it } from 'vitest';
import { HeraldClient } from '../../client/index.js';
import { addUser } from '../helpers/server.js';
import {
  clock,
  draft,
  draftStatus,
  key,
  MIN,
  mastoId,
  scheduleAt,
  t,
  useSchedulerWorld,
  xId,
} from '../helpers/scheduler-world.js';

useSchedulerWorld();

const both = () => [
  { accountId: xId, platform: 'microblog' },
  { accountId: mastoId, platform: 'fedblog' },
];
const pending = (draftId: string) =>
  t.server.sqlite
    .prepare("SELECT account_id FROM schedule_entries WHERE draft_id = ? AND status = 'pending' ORDER BY account_id")
    .pluck()
    .all(draftId) as string[];
const cancel = (query: string, k = key) => t.call('DELETE', `/microblog/schedule?${query}`, { key: k });

describe('cancel one network of a schedule', () => {
  it('cancels only that account; the draft stays scheduled until the last one goes', async () => {
    clock.set('2026-11-26T12:00:00.000Z');
    const id = await draft('two networks, cancel one');
    await scheduleAt(id, 60 * MIN, both());
    expect(pending(id).sort()).toEqual([xId, mastoId].sort());

    const one = await cancel(`draftId=${id}&accountId=${mastoId}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.cancelled).toBe(1);
    expect(pending(id)).toEqual([xId]);
    expect(draftStatus(id)).toBe('scheduled');
    const listed = (await t.call('GET', '/microblog/schedule', { key })).body.schedules.filter(
      (s: any) => s.draftId === id,
    );
    expect(listed.map((s: any) => s.accountUuid)).toEqual([xId]);

    const again = await cancel(`draftId=${id}&accountId=${mastoId}`);
    expect(again.body.cancelled).toBe(0);
    expect(pending(id)).toEqual([xId]);

    const last = await cancel(`draftId=${id}&accountId=${xId}`);
    expect(last.body.cancelled).toBe(1);
    expect(draftStatus(id)).toBe('draft');
  });

  it('without accountId every entry of the draft is cancelled', async () => {
    const id = await draft('two networks, cancel all');
    await scheduleAt(id, 60 * MIN, both());
    const r = await cancel(`draftId=${id}`);
    expect(r.body.cancelled).toBe(2);
    expect(pending(id)).toEqual([]);
    expect(draftStatus(id)).toBe('draft');
  });

  it('the client sends accountId (cancelSchedule(draftId, accountId))', async () => {
    const id = await draft('cancel one through the client');
    await scheduleAt(id, 60 * MIN, both());
    const c = new HeraldClient({ baseUrl: t.base, apiKey: key });
    await expect(c.cancelSchedule(id, xId)).resolves.toMatchObject({ success: true, cancelled: 1 });
    expect(pending(id)).toEqual([mastoId]);
  });

  it('another user cannot cancel it; an empty accountId is 400', async () => {
    const id = await draft('not yours');
    await scheduleAt(id, 60 * MIN, both());
    const otherKey = await addUser(t, 'other@example.test');
    expect((await cancel(`draftId=${id}&accountId=${xId}`, otherKey)).status).toBe(404);
    expect((await cancel(`draftId=${id}&accountId=`)).status).toBe(400);
    expect(pending(id).length).toBe(2);
  });
});
