/**
 * In real Chromium against a real Herald: the Calendar marks the evergreen repeats that filled
 * free queue slots (Mastodon simulator posts published 31 days earlier by the injected clock), and
 * one click on a fill's "Empty slot" takes it off the calendar with Undo; Undo puts it back, and
 * when the time for Undo is up the slot is empty on the server. Screenshots at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoEvergreenFills } from '../helpers/evergreen-fills.js';
import { TestClock } from '../helpers/server.js';
import { shotPath } from '../helpers/browser.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

const clock = new TestClock(Date.now());
let app: UiApp;
let key: string;
let masto: MastodonSimulator;
const page = () => app.page;
const call = (method: string, p: string, body?: unknown) => app.t.call(method, p, { key, body });

beforeAll(async () => {
  masto = await startMastodonSimulator();
  app = await startUiApp({ server: { clock, scheduler: false } });
  key = await signIn(app, '#/calendar');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await masto?.close();
});

describe('the calendar', () => {
  it('shows evergreen fills, and one click (with Undo) turns a fill back into an empty slot', async () => {
    const { setId } = await twoEvergreenFills(app.t, key, masto.url, clock);
    const fillsOnServer = async () =>
      ((await call('GET', `/microblog/queue?socialSetId=${setId}`)).body.items as any[]).filter((i) => i.evergreen);
    const first = (await fillsOnServer())[0];

    // The browser's today is not the injected clock's: the calendar is opened on the fill's week.
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().goto(`${app.origin}/#/calendar?view=week&date=${first.local.slice(0, 10)}`);
    await page().reload();
    const grid = page().locator('[data-testid="calendar"]');
    const fills = grid.locator('.cal-item.fill');
    await expect.poll(() => fills.count()).toBe(2);
    expect(await grid.locator('[data-evergreen-fill]').count()).toBe(2);
    // Only the fills are marked: the same drafts' earlier publications are not.
    expect(await grid.locator('.cal-item:not(.fill) [data-evergreen-fill]').count()).toBe(0);
    // A fill holds its queue slot: it is emptied here, not moved (Move… would schedule it anew).
    expect(await fills.first().getAttribute('draggable')).toBe('false');
    expect(await fills.getByRole('button', { name: /^Move/ }).count()).toBe(0);

    for (const width of [390, 1280]) {
      await page().setViewportSize({ width, height: 900 });
      await page()
        .locator('.main')
        .screenshot({ path: shotPath(`calendar-evergreen-${width}`) });
    }
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().getByRole('tab', { name: 'Month' }).click();
    await expect.poll(() => grid.locator('.cal-item.fill').count()).toBe(2);
    await grid.screenshot({ path: shotPath('calendar-evergreen-month-1280') });
    await page().getByRole('tab', { name: 'Week' }).click();

    // One click: gone from the calendar at once, with Undo offered; Undo brings it back.
    await fills.first().getByRole('button', { name: 'Empty slot' }).click();
    await expect.poll(() => fills.count()).toBe(1);
    const offer = page().locator('[data-undo^="evergreen-fill."]');
    await offer.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => fills.count()).toBe(2);
    expect(await fillsOnServer()).toHaveLength(2);

    // Again, and left to run: the slot is empty on the server and stays so on the calendar.
    const target = await fills.first().getAttribute('data-fill');
    await fills.first().getByRole('button', { name: 'Empty slot' }).click();
    await expect.poll(() => fills.count()).toBe(1);
    await expect.poll(async () => (await fillsOnServer()).length, { timeout: 15_000, interval: 250 }).toBe(1);
    expect((await fillsOnServer()).map((i) => i.at)).not.toContain(target);
    await page().reload();
    await expect.poll(() => fills.count()).toBe(1);
    expect(await fills.first().getAttribute('data-fill')).not.toBe(target);
    expect(app.problems).toEqual([]);
  }, 60_000);
});
