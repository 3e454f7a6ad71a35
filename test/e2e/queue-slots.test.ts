/**
 * Slots, the queue and per-network times in real Chromium against a real Herald: the browser is
 * in Europe/Berlin, the social set in Asia/Kolkata, and every time the UI shows or takes is the
 * set's. The slots editor (zone, weekday preset, an overlap refused naming the slot), "Add to
 * queue" in the composer, the queue reordered by drag and drop and by the ↑ button, and a draft
 * scheduled for two networks at two times. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { formatLocal, formatScheduled, machineTimeZone } from '../../time/index.js';

let app: UiApp;
let key: string;
let setId: string;
let fed: string;
let x: string;
const page = () => app.page;
const api = async (method: string, p: string, body?: unknown) => (await app.t.call(method, p, { key, body })).body;
const draft = async (title: string) =>
  (await api('POST', '/microblog/drafts', { title, tweets: [{ content: title }] })).draft.id as string;
const queueOrder = async () =>
  ((await api('GET', `/microblog/queue?socialSetId=${setId}&count=6`)).items as any[]).map(
    (i) => i.draft?.title ?? null,
  );

beforeAll(async () => {
  app = await startUiApp({ server: { scheduler: false }, allowConsole: [/status of 400/] });
  key = await signIn(app, '#/sets');
  const owner = userIdOf(app.t, OWNER.email);
  ({ accountId: fed, socialSetId: setId } = addAccount(app.t, owner, 'fedblog'));
  x = addAccount(app.t, owner, 'microblog', { socialSetId: setId }).accountId;
  await page().reload();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('slots editor', () => {
  it('sets the zone and weekday slots; an overlapping slot is refused naming it', async () => {
    const editor = page().locator(`[data-slots-editor="${setId}"]`);
    await editor.getByRole('button', { name: 'Weekdays 09:00 and 17:30' }).waitFor();
    await editor.getByLabel(/^Time zone of/).fill('Asia/Kolkata');
    await editor.getByRole('button', { name: 'Weekdays 09:00 and 17:30' }).click();
    await editor.getByRole('button', { name: 'Save slots' }).click();
    await editor.getByText('Saved 10 slot(s) in Asia/Kolkata.').waitFor();
    expect((await api('GET', `/social-sets/${setId}/slots`)).timeZone).toBe('Asia/Kolkata');

    await editor.getByRole('button', { name: 'Add slot' }).click();
    await editor.getByLabel('Slot 11 day').selectOption('5');
    await editor.getByLabel('Slot 11 time').fill('17:32');
    await editor.getByRole('button', { name: 'Save slots' }).click();
    await editor.getByText(/slots\.10\.time overlaps slot 9/).waitFor();
    await app.shot('60-slots-editor-1280');
    await page().setViewportSize({ width: 390, height: 844 });
    await app.shot('60-slots-editor-390');
    await page().setViewportSize({ width: 1280, height: 800 });
    await editor.getByRole('button', { name: 'Remove slot 11' }).click();
    await editor.getByRole('button', { name: 'Save slots' }).click();
    await editor.getByText('Saved 10 slot(s) in Asia/Kolkata.').waitFor();
  });
});

describe('queue', () => {
  it('"Add to queue" in the composer takes the next free slot, shown in the set\'s zone', async () => {
    const first = await draft('First in line');
    await page().goto(`${app.origin}/#/compose?draft=${first}`);
    await page().getByRole('button', { name: 'Add to queue' }).click();
    // The slot in the set's zone, named (the user's zone is the machine's).
    const slot = (await api('GET', `/microblog/queue?socialSetId=${setId}&count=1`)).items[0];
    await page()
      .getByText(
        `Queued for ${formatScheduled(slot.at, 'Asia/Kolkata', { userZone: machineTimeZone(), locale: 'en-GB' })}.`,
      )
      .waitFor();
    expect(formatLocal('Asia/Kolkata', Date.parse(slot.at)).local.slice(11)).toMatch(/^(09:00|17:30)$/);
    for (const t of ['Second in line', 'Third in line'])
      await api('POST', '/microblog/queue', { draftId: await draft(t), socialSetId: setId });
    expect((await queueOrder()).slice(0, 3)).toEqual(['First in line', 'Second in line', 'Third in line']);
  });

  it("the Slots view lists slots with drafts in the set's zone; drag and drop and ↑ reorder", async () => {
    await page().goto(`${app.origin}/#/queue`);
    await page().getByRole('tab', { name: 'Slots' }).click();
    const list = page().getByRole('list', { name: 'Queue slots' });
    await list.locator('li').first().waitFor();
    await page().getByText('Times in Asia/Kolkata').waitFor();
    const firstSlot = (await api('GET', `/microblog/queue?socialSetId=${setId}&count=1`)).items[0];
    const shown = formatScheduled(firstSlot.at, 'Asia/Kolkata', { userZone: machineTimeZone(), locale: 'en-GB' });
    await expect(list.locator('li').first().locator('.slot-time time').textContent()).resolves.toBe(shown);
    expect(firstSlot.local.slice(11)).toMatch(/^(09:00|17:30)$/);
    await app.shot('61-queue-slots-1280');
    await page().setViewportSize({ width: 390, height: 844 });
    await app.shot('61-queue-slots-390');
    await page().setViewportSize({ width: 1280, height: 800 });

    // Drag the third draft onto the first slot: they swap.
    await list.locator('li', { hasText: 'Third in line' }).locator('.slot-draft').dragTo(list.locator('li').first());
    await expect
      .poll(async () => (await queueOrder()).slice(0, 3))
      .toEqual(['Third in line', 'Second in line', 'First in line']);
    await list.locator('li').first().getByText('Third in line').waitFor();
    // The keyboard alternative: ↑ moves "First in line" one slot earlier.
    await page().getByRole('button', { name: 'Move First in line up' }).click();
    await expect
      .poll(async () => (await queueOrder()).slice(0, 3))
      .toEqual(['Third in line', 'First in line', 'Second in line']);
    // ↓ on the last queued draft moves it into the free slot after it.
    await page().getByRole('button', { name: 'Move Second in line down' }).click();
    await expect
      .poll(async () => (await queueOrder()).slice(0, 4))
      .toEqual(['Third in line', 'First in line', null, 'Second in line']);
  });
});

describe('per-network times', () => {
  it("schedules X and Mastodon at their own times, entered in the set's zone", async () => {
    const id = await draft('Two networks, two times');
    await page().goto(`${app.origin}/#/compose?draft=${id}`);
    await page().getByText('Times are in Asia/Kolkata.').waitFor();
    await page()
      .getByLabel(/jitter/)
      .uncheck();
    await page().getByLabel('A different time per network').check();
    const year = new Date().getUTCFullYear() + 1;
    await page()
      .getByLabel(/^Time for Mastodon/)
      .fill(`${year}-01-04T08:00`);
    await page()
      .getByLabel(/^Time for X/)
      .fill(`${year}-01-04T12:00`);
    await app.shot('62-per-network-times-1280');
    await page().getByRole('button', { name: 'Schedule', exact: true }).click();
    await page()
      .getByText(/Scheduled for 2 account/)
      .waitFor();
    const entries = (await api('GET', '/microblog/schedule')).schedules.filter((s: any) => s.draftId === id);
    const byAccount = Object.fromEntries(entries.map((e: any) => [e.accountUuid, e.scheduledFor]));
    // 08:00 and 12:00 in Kolkata (+05:30), whatever the browser's zone (Berlin).
    expect(byAccount).toEqual({ [fed]: `${year}-01-04T02:30:00.000Z`, [x]: `${year}-01-04T06:30:00.000Z` });
    expect(formatLocal('Asia/Kolkata', Date.parse(byAccount[x])).local).toBe(`${year}-01-04T12:00`);
  });

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
  });
});
