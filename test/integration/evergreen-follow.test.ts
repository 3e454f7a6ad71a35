/**
 * An evergreen fill follows what happens to its schedule entries and its draft: a fill cancelled
 * another way (DELETE /microblog/schedule) lets go like Empty slot (no repeat counted, its skipped
 * rows gone, the slot stays empty); a deleted draft leaves no `skipped` row behind (it would read
 * as a direct post); a fill moved in the Queue moves with its draft (shown there, emptied there,
 * and its old slot takes another due draft). The composer's summary of a repeat with a skipped
 * network counts the network as skipped with its reason, not as one of the accounts left to go.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clock, draft, key, mastoId, t, useSchedulerWorld, x, xId } from '../helpers/scheduler-world.js';
import { publishSummaryText } from '../../text/status-text.js';

vi.setConfig({ testTimeout: 60_000 });
useSchedulerWorld();

const DAY = 86_400_000;
const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
let setId: string;

/** A draft published to X and Mastodon, evergreen with no variant: a repeat skips X. */
async function evergreenDraft(text: string): Promise<string> {
  const id = await draft(text);
  const r = await call('POST', '/microblog/publish', { draftId: id, accountIds: [xId, mastoId] });
  expect(r.status, r.text).toBe(200);
  expect((await call('PUT', `/microblog/drafts/${id}/evergreen`, { enabled: true, minDaysBetween: 1 })).status).toBe(
    200,
  );
  return id;
}
const fill = async () => (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
const queue = async () => (await call('GET', `/microblog/queue?socialSetId=${setId}&count=20`)).body.items as any[];
const skippedRows = async () =>
  (await call('GET', '/microblog/publications?status=skipped&limit=500')).body.publications as any[];

beforeAll(async () => {
  setId = ((await call('GET', '/social-sets')).body.socialSets as any[]).find((s) => s.isDefault).id;
  x.state.rejectDuplicates = true;
  const days = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '09:00' }));
  expect((await call('PUT', `/social-sets/${setId}/slots`, { slots: days })).status).toBe(200);
});

describe('an evergreen fill follows its entries and its draft', () => {
  it('a fill whose schedule is cancelled lets go: no repeat, no skipped row, the slot stays empty', async () => {
    const d = await evergreenDraft('Follow A: cancelled');
    clock.advance(3 * DAY);
    const mine = (await fill()).find((f) => f.draftId === d);
    expect(mine.skipped.map((k: any) => k.accountId)).toEqual([xId]);
    expect((await call('GET', `/microblog/drafts/${d}/evergreen`)).body.evergreen.repeats).toBe(1);
    const r = await call('DELETE', `/microblog/schedule?draftId=${d}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.cancelled).toBe(1);
    expect((await queue()).find((i) => i.at === mine.at)).toMatchObject({ draft: null, evergreen: false });
    expect((await skippedRows()).filter((p) => p.draftId === d || p.draftId === null)).toEqual([]);
    expect((await call('GET', `/microblog/drafts/${d}/evergreen`)).body.evergreen.repeats).toBe(0);
    // Like Empty slot: the slot is not filled again at the next look.
    expect((await fill()).map((f) => f.at)).not.toContain(mine.at);
    await call('PUT', `/microblog/drafts/${d}/evergreen`, { enabled: false });
  });

  it('a deleted draft leaves no skipped row behind (none shows as a direct post)', async () => {
    const d = await evergreenDraft('Follow B: deleted');
    clock.advance(1 * DAY);
    const mine = (await fill()).find((f) => f.draftId === d);
    expect(mine.skipped).toHaveLength(1);
    expect((await skippedRows()).filter((p) => p.draftId === d)).toHaveLength(1);
    const r = await call('DELETE', `/microblog/drafts/${d}`);
    expect(r.status, r.text).toBe(200);
    expect((await skippedRows()).filter((p) => p.draftId === null || p.draftId === d)).toEqual([]);
    const history = (await call('GET', '/publish/history?limit=200')).body.publications as any[];
    expect(history.filter((p) => p.status === 'skipped' && p.draftId === null)).toEqual([]);
    expect((await queue()).find((i) => i.at === mine.at)).toMatchObject({ draft: null, evergreen: false });
  });

  it(
    'a fill moved in the Queue follows its draft; Empty slot ' + 'empties the new one; the old slot fills again',
    async () => {
      const f = await evergreenDraft('Follow C: moved');
      clock.advance(1_000);
      const g = await evergreenDraft('Follow D: takes the freed slot');
      // Published after f: f, due longer, takes the first free slot.
      clock.advance(1 * DAY);
      const mine = (await fill()).find((x) => x.draftId === f);
      expect(mine).toBeTruthy();
      const later = new Date(Date.parse(mine.at) + 2 * DAY).toISOString();
      const moved = await call('POST', '/microblog/queue/move', { draftId: f, toSlot: later, socialSetId: setId });
      expect(moved.status, moved.text).toBe(200);
      const q = await queue();
      expect(q.find((i) => i.at === later)).toMatchObject({ draft: { id: f }, evergreen: true });
      expect(q.find((i) => i.at === mine.at)).toMatchObject({ draft: null, evergreen: false });
      const skipped = (await skippedRows()).find((p) => p.draftId === f);
      expect(skipped).toBeTruthy();
      // The freed slot is free for the rule: the other due draft takes it.
      const again = await fill();
      expect(again.find((x) => x.at === mine.at)).toMatchObject({ draftId: g });
      const emptied = await t.call('DELETE', `/microblog/queue/evergreen?socialSetId=${setId}&slot=${later}`, { key });
      expect(emptied.status, emptied.text).toBe(200);
      const after = await queue();
      expect(after.find((i) => i.at === later)).toMatchObject({ draft: null, evergreen: false });
      expect(after.find((i) => i.at === mine.at)).toMatchObject({ draft: { id: g }, evergreen: true });
      expect((await skippedRows()).filter((p) => p.draftId === f)).toEqual([]);
      for (const id of [f, g]) await call('PUT', `/microblog/drafts/${id}/evergreen`, { enabled: false });
    },
  );

  it('a fill rescheduled through POST /microblog/schedule keeps the variant chosen for X', async () => {
    const h = await draft('Follow F: rescheduled');
    expect((await call('POST', '/microblog/publish', { draftId: h, accountIds: [xId, mastoId] })).status).toBe(200);
    const on = { enabled: true, minDaysBetween: 1, variants: ['F, once more'] };
    expect((await call('PUT', `/microblog/drafts/${h}/evergreen`, on)).status).toBe(200);
    clock.advance(3 * DAY);
    const mine = (await fill()).find((f) => f.draftId === h);
    expect(mine.skipped).toEqual([]);
    const later = new Date(Date.parse(mine.at) + 3 * 3_600_000).toISOString();
    const r = await call('POST', '/microblog/schedule', {
      draftId: h,
      scheduledFor: later,
      force: true,
      applyJitter: false,
    });
    expect(r.status, r.text).toBe(200);
    const refusedBefore = x.state.duplicateRejections;
    clock.t = Date.parse(later) + 1_000;
    await t.server.scheduler!.tick();
    expect(x.state.posts.filter((p) => p.text.startsWith('F, once more'))).toHaveLength(1);
    expect(x.state.duplicateRejections).toBe(refusedBefore);
    await call('PUT', `/microblog/drafts/${h}/evergreen`, { enabled: false });
  });

  it("the composer's summary of a repeat that skipped X says skipped, with the reason, not 1 of 2", async () => {
    const d = await evergreenDraft('Follow E: summed up');
    // Past the slot the last test left empty on purpose.
    clock.advance(5 * DAY);
    const mine = (await fill()).find((f) => f.draftId === d);
    clock.t = Date.parse(mine.at) + 1_000;
    await t.server.scheduler!.tick();
    const progress = (await call('GET', `/microblog/publish/progress?draftId=${d}`)).body;
    expect(progress.entries.map((e: any) => e.status).sort()).toEqual(['published', 'skipped']);
    const names: Record<string, string> = { microblog: 'X', fedblog: 'Mastodon' };
    const text = publishSummaryText(
      progress.entries.map((e: any) => ({ status: e.status, network: names[e.platform], reason: e.error })),
    ).text;
    expect(text).toMatch(/^Published to 1 account; skipped on X: X refuses a text it was sent before/);
    expect(text).not.toMatch(/1 of 2|Not published/);
    await call('PUT', `/microblog/drafts/${d}/evergreen`, { enabled: false });
  });
});
