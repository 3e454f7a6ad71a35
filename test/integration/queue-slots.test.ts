/**
 * Time zones, slots, the queue and per-network times through the API (docs/decisions.md §13), with an
 * injected clock (Thursday 2026-11-26 12:00Z = 07:00 in New York) and the X and Mastodon
 * simulators: bad input answered 400 naming the field, the next free slot in the set's zone,
 * queue order and moves, posts at the slot (jitter only when asked), and a draft going to two networks at two times.
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

const NOW = '2026-11-26T12:00:00.000Z';
const weekdays = [1, 2, 3, 4, 5].flatMap((day) => [
  { day, time: '17:30' },
  { day, time: '09:00' },
]);
let setId: string;

const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
const paths = (r: { body: any }) =>
  (r.body.error?.details ?? r.body.details ?? []).map((d: { path: string }) => d.path);
const entries = (draftId: string) =>
  (
    t.server.sqlite
      .prepare(
        'SELECT account_id AS accountId, fire_at AS fireAt, requested_at AS requestedAt FROM ' +
          "schedule_entries WHERE draft_id = ? AND status = 'pending' ORDER BY account_id",
      )
      .all(draftId) as { accountId: string; fireAt: number; requestedAt: number }[]
  ).map((e) => ({ ...e, fire: new Date(e.fireAt).toISOString(), slot: new Date(e.requestedAt).toISOString() }));

beforeAll(() => clock.set(NOW));

describe('time zones and slots on social sets', () => {
  it("a set takes an IANA zone (default: the user's); an unknown zone is 400 naming timeZone", async () => {
    const bad = await call('POST', '/social-sets', { name: 'Mars', timeZone: 'Mars/Olympus_Mons' });
    expect(bad.status).toBe(400);
    expect(paths(bad)).toContain('timeZone');
    const plain = await call('POST', '/social-sets', { name: 'Plain' });
    expect(plain.body.socialSet.timeZone).toBe((await call('GET', '/me')).body.timezone);
    const r = await call('POST', '/social-sets', {
      name: 'New York',
      timeZone: 'America/New_York',
      accountIds: [xId, mastoId],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.socialSet.timeZone).toBe('America/New_York');
    setId = r.body.socialSet.id;
    const upd = await call('PUT', '/social-sets', { id: plain.body.socialSet.id, timeZone: 'Nowhere/Land' });
    expect(upd.status).toBe(400);
    expect(paths(upd)).toContain('timeZone');
  });

  it('"add to queue" on a set with no slots is 400 naming socialSetId', async () => {
    const r = await call('POST', '/microblog/queue', { draftId: await draft('no slots yet'), socialSetId: setId });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(['socialSetId']);
    expect(r.body.error?.message ?? r.body.message).toMatch(/no queue slots/);
  });

  it('a slot at 25:00, a day 8 and overlapping slots are 400 naming the slot and field', async () => {
    const late = await call('PUT', `/social-sets/${setId}/slots`, { slots: [{ day: 1, time: '25:00' }] });
    expect(late.status).toBe(400);
    expect(paths(late)).toEqual(['body.slots.0.time']);
    const day8 = await call('PUT', `/social-sets/${setId}/slots`, { slots: [{ day: 8, time: '09:00' }] });
    expect(paths(day8)).toEqual(['body.slots.0.day']);
    const overlap = await call('PUT', `/social-sets/${setId}/slots`, {
      slots: [
        { day: 2, time: '09:00' },
        { day: 2, time: '09:03' },
      ],
    });
    expect(overlap.status).toBe(400);
    expect(paths(overlap)).toEqual(['slots.1.time']);
    expect((await call('GET', '/social-sets/nope/slots')).status).toBe(404);
  });

  it("slots are kept sorted, in the set's zone", async () => {
    const r = await call('PUT', `/social-sets/${setId}/slots`, { slots: weekdays });
    expect(r.status, r.text).toBe(200);
    expect(r.body.slots.slice(0, 3)).toEqual([
      { day: 1, time: '09:00' },
      { day: 1, time: '17:30' },
      { day: 2, time: '09:00' },
    ]);
    const got = await call('GET', `/social-sets/${setId}/slots`);
    expect(got.body).toMatchObject({
      success: true,
      socialSetId: setId,
      timeZone: 'America/New_York',
      slots: r.body.slots,
    });
  });
});

describe('the queue', () => {
  const ids: string[] = [];

  it("fills the next free slots in order, in the set's zone (jitter off)", async () => {
    for (const n of [1, 2, 3]) {
      const id = await draft(`queued ${n}`);
      ids.push(id);
      const r = await call('POST', '/microblog/queue', { draftId: id, socialSetId: setId, applyJitter: false });
      expect(r.status, r.text).toBe(200);
      expect(r.body.accountCount).toBe(2);
    }
    // Thu 09:00 EST
    expect(entries(ids[0]).map((e) => e.fire)).toEqual(['2026-11-26T14:00:00.000Z', '2026-11-26T14:00:00.000Z']);
    expect(entries(ids[1])[0].fire).toBe('2026-11-26T22:30:00.000Z'); // Thu 17:30
    expect(entries(ids[2])[0].fire).toBe('2026-11-27T14:00:00.000Z'); // Fri 09:00
  });

  it('answers the slot with its wall time and offset', async () => {
    const id = await draft('queued 4');
    ids.push(id);
    const r = await call('POST', '/microblog/queue', { draftId: id, socialSetId: setId, applyJitter: false });
    expect(r.body.slot).toEqual({
      at: '2026-11-27T22:30:00.000Z',
      local: '2026-11-27T17:30',
      offset: '-05:00',
      timeZone: 'America/New_York',
    });
    expect(r.body.queueIds).toHaveLength(2);
  });

  it('a dry run answers the plan and the slot it would take, and queues nothing', async () => {
    const id = await draft('only a look');
    const r = await call('POST', '/microblog/queue', {
      draftId: id,
      socialSetId: setId,
      applyJitter: false,
      dryRun: true,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.dryRun).toBe(true);
    expect(r.body.slot.local).toBe('2026-11-30T09:00');
    expect(r.body.plan).toHaveLength(2);
    expect(r.body.queueIds).toBeUndefined();
    // The slot is still free for the next draft.
    const list = await call('GET', `/microblog/queue?socialSetId=${setId}&count=6`);
    expect(list.body.items.map((i: any) => i.draft?.id ?? null)).not.toContain(id);
  });

  it('lists the coming slots with their draft or null', async () => {
    const r = await call('GET', `/microblog/queue?socialSetId=${setId}&count=6`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.timeZone).toBe('America/New_York');
    expect(r.body.items.map((i: any) => [i.local, i.draft?.id ?? null])).toEqual([
      ['2026-11-26T09:00', ids[0]],
      ['2026-11-26T17:30', ids[1]],
      ['2026-11-27T09:00', ids[2]],
      ['2026-11-27T17:30', ids[3]],
      ['2026-11-30T09:00', null],
      ['2026-11-30T17:30', null],
    ]);
  });

  it('moving onto a taken slot swaps the two drafts; onto a free slot just moves', async () => {
    const r = await call('POST', '/microblog/queue/move', {
      draftId: ids[2],
      toSlot: '2026-11-26T14:00:00.000Z',
      socialSetId: setId,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.moved.map((m: any) => [m.draftId, m.slot.local])).toEqual([
      [ids[2], '2026-11-26T09:00'],
      [ids[0], '2026-11-27T09:00'],
    ]);
    expect(entries(ids[2])[0].fire).toBe('2026-11-26T14:00:00.000Z');
    expect(entries(ids[0])[0].fire).toBe('2026-11-27T14:00:00.000Z');
    const free = await call('POST', '/microblog/queue/move', {
      draftId: ids[3],
      toSlot: '2026-11-30T14:00:00.000Z',
      socialSetId: setId,
    });
    expect(free.status, free.text).toBe(200);
    const list = await call('GET', `/microblog/queue?socialSetId=${setId}&count=5`);
    expect(list.body.items.map((i: any) => i.draft?.id ?? null)).toEqual([ids[2], ids[1], ids[0], null, ids[3]]);
    // The freed slot is the next free one again.
    const id = await draft('queued 5');
    const again = await call('POST', '/microblog/queue', { draftId: id, socialSetId: setId, applyJitter: false });
    expect(again.body.slot.local).toBe('2026-11-27T17:30');
    ids.push(id);
  });

  it('a move to a time that is not a slot, or of a draft not queued, is 400 naming the field', async () => {
    const off = await call('POST', '/microblog/queue/move', {
      draftId: ids[0],
      toSlot: '2026-11-30T15:00:00.000Z',
      socialSetId: setId,
    });
    expect(off.status).toBe(400);
    expect(paths(off)).toEqual(['toSlot']);
    const notQueued = await call('POST', '/microblog/queue/move', {
      draftId: await draft('loose'),
      toSlot: '2026-11-30T14:00:00.000Z',
      socialSetId: setId,
    });
    expect(paths(notQueued)).toEqual(['draftId']);
  });

  it(
    'without applyJitter a queued post goes out at its slot; with ' + 'it, jitter applies around the slot, per entry',
    async () => {
      const id = await draft('jittered');
      const r = await call('POST', '/microblog/queue', { draftId: id, socialSetId: setId, applyJitter: true });
      expect(r.body.slot.local).toBe('2026-11-30T17:30');
      const es = entries(id);
      for (const e of es) {
        expect(e.slot).toBe('2026-11-30T22:30:00.000Z');
        expect(Math.abs(e.fireAt - e.requestedAt)).toBeLessThanOrEqual(180_000);
      }
      // Not asked for: exactly at the slot, on every account.
      const plain = await draft('at the slot');
      const next = await call('POST', '/microblog/queue', { draftId: plain, socialSetId: setId });
      expect(next.body.slot.local).toBe('2026-12-01T09:00');
      expect(entries(plain).map((e) => e.fire)).toEqual(['2026-12-01T14:00:00.000Z', '2026-12-01T14:00:00.000Z']);
    },
  );

  it('a set in Asia/Kolkata places slots at +05:30', async () => {
    const set = await call('POST', '/social-sets', { name: 'India', timeZone: 'Asia/Kolkata', accountIds: [xId] });
    await call('PUT', `/social-sets/${set.body.socialSet.id}/slots`, { slots: [{ day: 4, time: '18:00' }] });
    const r = await call('POST', '/microblog/queue', {
      draftId: await draft('kolkata'),
      socialSetId: set.body.socialSet.id,
      applyJitter: false,
    });
    expect(r.body.slot).toEqual({
      at: '2026-11-26T12:30:00.000Z',
      local: '2026-11-26T18:00',
      offset: '+05:30',
      timeZone: 'Asia/Kolkata',
    });
  });

  it('the first queued draft fires at its slot', async () => {
    clock.set('2026-11-26T14:00:00.000Z');
    await fire();
    expect(tweets('queued 3')).toBe(1);
    expect(tweets('queued 2')).toBe(0);
  });
});

describe('per-network times', () => {
  it('each target keeps its own time (X 12:00, Mastodon 08:00 the next day)', async () => {
    const id = await draft('two times');
    const at = (iso: string) => iso;
    const r = await call('POST', '/microblog/schedule', {
      draftId: id,
      applyJitter: false,
      targetAccounts: [
        { accountId: xId, scheduledFor: at('2026-11-28T17:00:00Z') },
        { accountId: mastoId, platform: 'fedblog', scheduledFor: at('2026-11-29T13:00:00Z') },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.scheduledFor).toBe('2026-11-28T17:00:00.000Z');
    const byAccount = Object.fromEntries(entries(id).map((e) => [e.accountId, e.fire]));
    expect(byAccount).toEqual({ [xId]: '2026-11-28T17:00:00.000Z', [mastoId]: '2026-11-29T13:00:00.000Z' });
  });

  it("a target without a time takes the request's; no time at all, or one in the past, is 400 naming it", async () => {
    const id = await draft('mixed times');
    const r = await call('POST', '/microblog/schedule', {
      draftId: id,
      applyJitter: false,
      scheduledFor: '2026-11-28T10:00:00Z',
      targetAccounts: [{ accountId: xId }, { accountId: mastoId, scheduledFor: '2026-11-28T11:00:00Z' }],
    });
    expect(r.status, r.text).toBe(200);
    expect(Object.fromEntries(entries(id).map((e) => [e.accountId, e.fire]))).toEqual({
      [xId]: '2026-11-28T10:00:00.000Z',
      [mastoId]: '2026-11-28T11:00:00.000Z',
    });
    const none = await call('POST', '/microblog/schedule', { draftId: id, targetAccounts: [{ accountId: xId }] });
    expect(none.status).toBe(400);
    expect(paths(none)).toEqual(['scheduledFor']);
    const past = await call('POST', '/microblog/schedule', {
      draftId: id,
      targetAccounts: [
        { accountId: xId, scheduledFor: '2026-11-28T10:00:00Z' },
        { accountId: mastoId, scheduledFor: '2020-01-01T00:00:00Z' },
      ],
    });
    expect(past.status).toBe(400);
    expect(paths(past)).toEqual(['targetAccounts.1.scheduledFor']);
  });

  it('each entry of a per-network schedule fires at its own time', async () => {
    clock.set('2026-11-28T17:00:00.000Z');
    await fire();
    expect(tweets('two times')).toBe(1);
    clock.advance(MIN);
  });
});
