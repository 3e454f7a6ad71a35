/**
 * The Credits page in real Chromium against a real Herald (issue #32): it says what the meter is
 * (a posting budget the owner sets), what the posts scheduled this month reserve, and when the
 * month ends in the user's zone (America/New_York here, the browser in Berlin); the owner adds
 * credits through a confirmation, and a removal past the balance is refused with nothing
 * written. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
let key: string;
const page = () => app.page;
const ledgerRows = () => app.t.server.sqlite.prepare('SELECT COUNT(*) FROM credit_ledger').pluck().get() as number;

beforeAll(async () => {
  app = await startUiApp({ server: { scheduler: false, settings: { HERALD_TIME_ZONE: 'America/New_York' } } });
  key = await signIn(app, '#/credits');
  const owner = userIdOf(app.t, OWNER.email);
  const accounts = ['fedblog', 'skyblog'].map((p) => addAccount(app.t, owner, p).accountId);
  const draft = await app.t.call('POST', '/microblog/drafts', {
    key,
    body: { title: 'Tomorrow', tweets: [{ content: 'Scheduled for tomorrow' }] },
  });
  // An hour ahead stays inside this month unless the test runs in its last hour.
  const at = new Date(Date.now() + 3_600_000).toISOString();
  const s = await app.t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId: draft.body.draft.id,
      scheduledFor: at,
      targetAccounts: accounts.map((accountId) => ({ accountId })),
    },
  });
  expect(s.status, s.text).toBe(200);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('Credits page', () => {
  it(
    "explains the meter: a budget the owner sets, what scheduled posts reserve, and the month's end in the " +
      "user's zone",
    async () => {
      await page().goto(`${app.origin}/#/credits`);
      await page().reload();
      const meter = page().locator('[data-credit-meter]');
      await expect.poll(() => meter.getByTestId('balance').textContent()).toBe('10,000');
      const c = (await app.t.call('POST', '/credits', { key })).body;
      expect(c.reserved).toBe(20);
      expect(await meter.locator('[data-reserved]').textContent()).toBe('20');
      expect(await meter.locator('[data-free]').textContent()).toBe('9,980');
      expect(await meter.textContent()).toMatch(/posting budget you set for yourself/);
      expect(await meter.textContent()).toMatch(/You get 10,000 credits each month/);
      // The month's end as New York's wall clock says it (midnight there), not Berlin's.
      expect(await meter.locator('[data-month-end]').textContent()).toMatch(
        /This credit month runs until (\w{3},? )?1 \w{3} \d{4},? 00:00 \(America\/New_York\)/,
      );
      await app.shot('credits-1280');
      expect(app.problems).toEqual([]);
    },
  );

  it('adds credits after a confirmation; a removal past the balance is refused and nothing is written', async () => {
    const form = page().locator('[data-adjust-credits]');
    await form.getByLabel('Credits to change').fill('500');
    await form.getByLabel('Note').fill('Launch week');
    await form.getByRole('button', { name: 'Review' }).click();
    const confirm = form.locator('[data-confirm-adjust]');
    expect(await confirm.textContent()).toMatch(/Add 500 credits\? The balance goes from 10,000 to 10,500\./);
    await confirm.getByRole('button', { name: 'Add 500 credits' }).click();
    await form.getByText('Added 500 credits; the balance is 10,500.').waitFor();
    await expect.poll(() => page().getByTestId('balance').textContent()).toBe('10,500');
    await page().locator('td', { hasText: 'Launch week' }).waitFor();
    expect((await app.t.call('POST', '/credits', { key })).body.balance).toBe(10_500);

    const rows = ledgerRows();
    await form.getByLabel('Add or remove').selectOption('remove');
    await form.getByLabel('Credits to change').fill('20000');
    await form.getByRole('button', { name: 'Review' }).click();
    await form.getByText(/at most that can be removed/).waitFor();
    expect(await confirm.count()).toBe(0);
    expect(ledgerRows()).toBe(rows);

    await page().setViewportSize({ width: 390, height: 844 });
    await form.getByLabel('Credits to change').fill('100');
    await form.getByRole('button', { name: 'Review' }).click();
    await confirm.waitFor();
    // From the top: the phone layout's sticky bar would otherwise sit in the middle of a full-page shot.
    await page().evaluate(() => window.scrollTo(0, 0));
    await app.shot('credits-390');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(ledgerRows()).toBe(rows);
    await page().setViewportSize({ width: 1280, height: 800 });
    expect(app.problems).toEqual([]);
  });
});
