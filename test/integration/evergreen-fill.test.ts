/**
 * Evergreen over ten weeks under the injected clock (the scheduler world: X and Mastodon
 * simulators, the scheduler fired by hand): daily slots take the due evergreen draft published
 * longest ago, each repeat a new publication in history at least minDaysBetween after the last;
 * maxRepeats ends one; X (its simulator refusing a text twice, as X does) gets the next variant
 * that differs from what it was sent, and once none is left is skipped: a `skipped` publication with
 * the reason, in progress and publications; a draft with no network left is shown stalled and never
 * queued; a fill turned back into an empty slot stays empty (and its skipped publications go).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clock, draft, fire, key, mastoId, t, useSchedulerWorld, x, xId } from '../helpers/scheduler-world.js';

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
  x.state.rejectDuplicates = true;
  const days = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '09:00' }));
  const r = await call('PUT', `/social-sets/${setId}/slots`, { slots: days });
  expect(r.status, r.text).toBe(200);
});

describe('evergreen', () => {
  it('fills daily slots over ten weeks, oldest first, up to maxRepeats; X gets a variant, then skipped', async () => {
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
    const aSkips: string[][] = [];
    const start = clock.now();
    for (let day = 0; day < 70; day++) {
      clock.t = Math.max(clock.t, start + day * DAY);
      const filled = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
      fills += filled.length;
      for (const f of filled) {
        if (f.draftId === a) aSkips.push(f.skipped.map((s: any) => s.accountId));
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
    // X got A's text, then its one variant on the first repeat, then was skipped: a duplicate never tried.
    expect(aSkips[0]).toEqual([]);
    expect(aSkips.slice(1).length).toBeGreaterThanOrEqual(2);
    for (const sk of aSkips.slice(1)) expect(sk).toEqual([xId]);
    expect(await history(a, xId)).toHaveLength(2);
    expect(
      x.state.posts
        .filter((p) => p.text.startsWith('A, told again') || p.text.startsWith('Evergreen A'))
        .map((p) => p.text),
    ).toEqual(['Evergreen A: the guide', 'A, told again']);
    expect(x.state.duplicateRejections).toBe(0);
    const pubs = (await call('GET', '/microblog/publications?limit=500')).body.publications as any[];
    const skippedRows = pubs.filter((p) => p.draftId === a && p.accountId === xId && p.status === 'skipped');
    expect(skippedRows).toHaveLength(aSkips.length - 1);
    expect(skippedRows[0].error).toMatch(/X refuses a text it was sent before/);
    expect(skippedRows[0].statusText).toMatch(/^Skipped on X: X refuses/);
    const progress = (await call('GET', `/microblog/publish/progress?draftId=${a}`)).body.entries as any[];
    expect(progress.find((e) => e.accountUuid === xId)).toMatchObject({ status: 'skipped', error: expect.any(String) });
    expect(progress.find((e) => e.accountUuid === mastoId)).toMatchObject({ status: 'published' });
    expect((await call('GET', `/microblog/drafts/${a}`)).body.draft.status).toBe('published');
    const c = (await call('GET', `/microblog/drafts/${xOnly}/evergreen`)).body.evergreen;
    expect(c.stalled).toMatch(/X refuses a text it was sent before/);
    expect(c.repeats).toBe(0);
    expect((await call('GET', `/microblog/drafts/${b}/evergreen`)).body.evergreen).toMatchObject({ repeats: 2 });
    for (const id of [a, b, xOnly]) await on(id, { enabled: false });
  });

  it('one click turns a fill back into an empty slot, which stays empty', async () => {
    const d = await draft('Evergreen D: cleared');
    await publishNow(d, [mastoId, xId]);
    await call('PUT', `/microblog/drafts/${d}/evergreen`, { enabled: true, minDaysBetween: 1 });
    clock.advance(20 * DAY);
    const filled = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
    const mine = filled.find((f) => f.draftId === d);
    expect(mine).toBeTruthy();
    expect(mine.skipped.map((k: any) => k.accountId)).toEqual([xId]);
    const skippedOf = async () =>
      ((await call('GET', '/microblog/publications?status=skipped')).body.publications as any[]).filter(
        (p) => p.draftId === d,
      );
    expect(await skippedOf()).toHaveLength(1);
    const r = await t.call('DELETE', `/microblog/queue/evergreen?socialSetId=${setId}&slot=${mine.at}`, { key });
    expect(r.status, r.text).toBe(200);
    const q = (await call('GET', `/microblog/queue?socialSetId=${setId}`)).body.items as any[];
    expect(q.find((i) => i.at === mine.at)).toMatchObject({ draft: null, evergreen: false });
    expect(await skippedOf()).toHaveLength(0);
    const again = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
    expect(again.map((f) => f.at)).not.toContain(mine.at);
    expect(
      (await t.call('DELETE', `/microblog/queue/evergreen?socialSetId=${setId}&slot=${mine.at}`, { key })).status,
    ).toBe(404);
    await call('PUT', `/microblog/drafts/${d}/evergreen`, { enabled: false });
  });

  it('passes over a variant too long for X and sends the next one', async () => {
    const e = await draft('Evergreen E: short');
    await publishNow(e, [xId, mastoId]);
    const variants = ['E '.repeat(200), 'E, said again'];
    const on = await call('PUT', `/microblog/drafts/${e}/evergreen`, { enabled: true, minDaysBetween: 1, variants });
    expect(on.status, on.text).toBe(200);
    clock.advance(3 * DAY);
    const filled = (await call('POST', '/microblog/queue/evergreen/fill')).body.filled as any[];
    const mine = filled.find((f) => f.draftId === e);
    expect(mine.skipped).toEqual([]);
    clock.t = Date.parse(mine.at) + 1_000;
    await fire();
    expect((await history(e, xId)).length).toBe(2);
    const variantsSent = x.state.posts.filter((p) => /^E[, ]/.test(p.text)).map((p) => p.text);
    expect(variantsSent).toEqual(['E, said again']);
  });
});
