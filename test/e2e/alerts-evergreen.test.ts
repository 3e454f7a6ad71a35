/**
 * In real Chromium against a real Herald: Settings → Alerts (a webhook added through the service
 * helper, its Test button and last delivery, a destination that is down shown failing, delete
 * after a confirmation), and the queue showing evergreen fills (still marked once moved to another
 * slot) with the one click that empties a slot (a Mastodon simulator post published 31 days
 * earlier by the injected clock). Screenshots at 390 and 1280 px of both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoEvergreenFills } from '../helpers/evergreen-fills.js';
import { closedPort, TestClock } from '../helpers/server.js';
import { shotPath } from '../helpers/browser.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { startWebhookSimulator, type WebhookSimulator } from '../simulators/alerts.hooks.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

const clock = new TestClock(Date.now());
let app: UiApp;
let key: string;
let hook: WebhookSimulator;
let masto: MastodonSimulator;
const page = () => app.page;
const call = (method: string, p: string, body?: unknown) => app.t.call(method, p, { key, body });

async function shots(name: string, selector: string) {
  for (const width of [390, 1280]) {
    await page().setViewportSize({ width, height: 900 });
    await page()
      .locator(selector)
      .screenshot({ path: shotPath(`${name}-${width}`) });
  }
  await page().setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  [hook, masto] = await Promise.all([startWebhookSimulator(), startMastodonSimulator()]);
  app = await startUiApp({ server: { clock, scheduler: false, alerts: { pollMs: 3_600_000 } } });
  key = await signIn(app, '#/settings');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([hook?.close(), masto?.close()]);
});

describe('Settings → Alerts', () => {
  it('adds a webhook through the helper, tests it, shows a failing one, deletes after asking', async () => {
    const down = await call('POST', '/alerts', {
      url: `ntfy://127.0.0.1:${await closedPort()}/herald`,
      events: ['post.failed', 'credits.low'],
    });
    expect(down.status, down.text).toBe(200);
    await call('POST', `/alerts/${down.body.alert.id}/test`);
    await page().reload();
    const panel = page().locator('[data-alerts]');
    await panel.getByLabel('Service').selectOption('generic');
    await panel.getByLabel('https:// URL').fill(`${hook.url}/hook`);
    await panel.getByLabel('Signing key').fill('ui-secret');
    await panel.getByLabel('Credits are running low').check();
    await panel.getByRole('button', { name: 'Add alert' }).click();
    const row = panel.locator('[data-alert="generic"]');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => row.locator('[data-last-delivery]').textContent()).toContain('sent');
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].signature).toMatch(/^sha256=/);
    await expect
      .poll(() => panel.locator('[data-alert="ntfy"] [data-last-delivery]').textContent())
      .toMatch(/failed — ntfy could not be reached/);
    expect(await panel.textContent()).not.toContain('ui-secret');
    await shots('settings-alerts', '[data-alerts]');
    await panel.locator('[data-alert="ntfy"]').getByRole('button', { name: 'Delete…' }).click();
    await panel.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => panel.locator('[data-alert="ntfy"]').count()).toBe(0);
    expect((await call('GET', '/alerts')).body.alerts).toHaveLength(1);
    expect(app.problems).toEqual([]);
  });
});

describe('the queue', () => {
  it('shows evergreen fills, and one click empties a slot', async () => {
    const { setId } = await twoEvergreenFills(app.t, key, masto.url, clock);
    await page().goto(`${app.origin}/#/queue`);
    await page().reload();
    await page().getByRole('tab', { name: 'Slots' }).click();
    const chips = page().locator('[data-evergreen-fill]');
    await expect.poll(() => chips.count()).toBe(2);
    await shots('queue-evergreen', '[data-testid="slot-queue"]');
    // Moving a fill (here onto the other fill: they swap) keeps each marked on its draft's new slot.
    const first = page().locator('li[data-slot]').filter({ has: chips }).first();
    const [moved, from] = [await first.getAttribute('data-draft'), await first.getAttribute('data-slot')];
    await first.getByRole('button', { name: /^Move .* down$/ }).click();
    const movedRow = page().locator(`li[data-draft="${moved}"]`);
    await expect.poll(() => movedRow.getAttribute('data-slot')).not.toBe(from);
    await expect.poll(() => chips.count()).toBe(2);
    await expect.poll(() => movedRow.locator('[data-evergreen-fill]').count()).toBe(1);
    await shots('queue-evergreen-moved', '[data-testid="slot-queue"]');
    await movedRow.locator('[data-empty-slot]').click();
    await expect.poll(() => chips.count()).toBe(1);
    await expect.poll(() => movedRow.count()).toBe(0);
    expect(app.problems).toEqual([]);
  });
});

describe('the composer', () => {
  it('turns a saved draft evergreen', async () => {
    const d = (await call('POST', '/microblog/drafts', { title: 'Keep me', tweets: [{ content: 'Keep me' }] })).body
      .draft.id;
    await page().goto(`${app.origin}/#/compose?draft=${d}`);
    const panel = page().locator('[data-evergreen]');
    await panel.locator('summary').click();
    await panel.getByLabel('Days between repeats').fill('45');
    await panel.getByLabel('Repeat in free queue slots').check();
    await expect
      .poll(async () => (await call('GET', `/microblog/drafts/${d}/evergreen`)).body.evergreen.enabled)
      .toBe(true);
    expect((await call('GET', `/microblog/drafts/${d}/evergreen`)).body.evergreen.minDaysBetween).toBe(45);
    expect(app.problems).toEqual([]);
  });
});
