/**
 * Evergreen over ten weeks under the injected clock (the scheduler world: X and Mastodon
 * simulators, the scheduler fired by hand): daily slots take the due evergreen draft published
 * longest ago, each repeat a new publication in history at least minDaysBetween after the last;
 * maxRepeats ends one; X, which refuses a text twice, is left out with the reason; a draft with no
 * network left is shown stalled and never queued; a fill turned back into an empty slot stays empty.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clock, draft, fire, key, mastoId, t, useSchedulerWorld, xId } from '../helpers/scheduler-world.js';

vi.setConfig({ testTimeout: 120_000 });
useSchedulerWorld();

const DAY = 86_400_000;
const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
let setId: string;

async function publishNow(draftId: string, accountIds: string[]) {
  const r = await call('POST', '/microblog/publish', { draftId, accountIds });
  expect(r.status, r.text).toBe(200);
}
const history = async (draftId: string, accountId: string) =>
  ((await call('GET', '/publish/history?limit=100')).body.publications as any[])
    .filter((p) => p.draftId === draftId && p.accountId === accountId && p.status === 'published')
    .map((p) => Date.parse(p.publishedAt))
    .sort((a, b) => a - b);

beforeAll(async () => {
  const sets = (await call('GET', '/social-sets')).body.socialSets;
  setId = sets.find((s: any) => s.isDefault).id;
  const days = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '09:00' }));
  const r = await call('PUT', `/social-sets/${setId}/slots`, { slots: days });
  expect(r.status, r.text).toBe(200);
});

describe('evergreen', () => {
  it('fills daily slots over ten weeks, spaced, oldest first, ending at maxRepeats; X left out', async () => {
    const a = await draft('Evergreen A: the guide');
    const b = await draft('Evergreen B: the checklist');
    const xOnly = await draft('Evergreen C: only on X');
    await publishNow(a, [xId, mastoId]);
    clock.advance(2 * DAY);
    await publishNow(b, [mastoId]);
    await publishNow(xOnly, [xId]);
    await call('PUT', `/microblog/drafts/${xOnly}`, { selectedAccountIds: [xId] });
    const on = (id: string, body: object) => call('PUT', `/microblog/drafts/${id}/evergreen`, body);
    expect((await on(a, { enabled: true, minDaysBetween: 14, variants: ['A, told again'] })).status).toBe(200);
    expect((await on(b, { enabled: true, minDaysBetween: 14, maxRepeats: 2 })).status).toBe(200);
    expect((await on(xOnly, { enabled: true, minDaysBetween: 7 })).status).toBe(200);
    let fills = 0;
    let markedInQueue = 0;
    const start = clock.now();
    for (let day = 0; day < 70; day++) {
      clock.t = Math.max(clock.t, start + day * DAY);
      const filled = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
      fills += filled.length;
      for (const f of filled) {
        if (f.draftId === a) expect(f.skipped.map((s: any) => s.accountId)).toEqual([xId]);
        const q = (await call('GET', `/microblog/queue?socialSetId=${setId}`)).body.items as any[];
        if (q.some((i) => i.evergreen && i.draft?.id === f.draftId && i.at === f.at)) markedInQueue++;
      }
      // The scheduler fires each fill at its slot.
      for (const at of filled.map((f) => Date.parse(f.at)).sort((x, y) => x - y)) {
        clock.t = at + 1_000;
        await fire();
      }
    }
    expect(fills).toBeGreaterThan(3);
    expect(markedInQueue).toBe(fills);
    const aTimes = await history(a, mastoId);
    const bTimes = await history(b, mastoId);
    // The first publication and then a repeat every 14 days or more: about five in ten weeks.
    expect(aTimes.length).toBeGreaterThanOrEqual(4);
    expect(bTimes).toHaveLength(1 + 2);
    for (const times of [aTimes, bTimes])
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(14 * DAY - 60_000);
    // A (published two days before B) went first.
    expect(aTimes[1]).toBeLessThan(bTimes[1]);
    // X was sent A once: a repeat of the same text is never tried.
    expect(await history(a, xId)).toHaveLength(1);
    const c = (await call('GET', `/microblog/drafts/${xOnly}/evergreen`)).body.evergreen;
    expect(c.stalled).toMatch(/X refuses a text it was sent before/);
    expect(c.repeats).toBe(0);
    expect((await call('GET', `/microblog/drafts/${b}/evergreen`)).body.evergreen).toMatchObject({ repeats: 2 });
  });

  it('one click turns a fill back into an empty slot, which stays empty', async () => {
    const d = await draft('Evergreen D: cleared');
    await publishNow(d, [mastoId]);
    await call('PUT', `/microblog/drafts/${d}/evergreen`, { enabled: true, minDaysBetween: 1 });
    clock.advance(20 * DAY);
    const filled = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
    const mine = filled[0];
    expect(mine).toBeTruthy();
    const r = await t.call('DELETE', `/microblog/queue/evergreen?socialSetId=${setId}&slot=${mine.at}`, { key });
    expect(r.status, r.text).toBe(200);
    const q = (await call('GET', `/microblog/queue?socialSetId=${setId}`)).body.items as any[];
    expect(q.find((i) => i.at === mine.at)).toMatchObject({ draft: null, evergreen: false });
    const again = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
    expect(again.map((f) => f.at)).not.toContain(mine.at);
    expect(
      (await t.call('DELETE', `/microblog/queue/evergreen?socialSetId=${setId}&slot=${mine.at}`, { key })).status,
    ).toBe(404);
  });
});
