/**
 * Connecting LinkedIn from the Accounts page when the LinkedIn app lacks the product that grants
 * post analytics: LinkedIn refuses the sign-in (`unauthorized_scope_error`, the simulator speaks it),
 * the page says why and offers connecting without analytics, which sets the app's analyticsScope
 * off and connects; the account then says its analytics are not available. Real Chromium, the
 * LinkedIn simulator's sign-in pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/index.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let li: LinkedInSimulator;
let app: UiApp;
let key: string;
const page = () => app.page;

beforeAll(async () => {
  li = await startLinkedInSimulator();
  li.state.noAnalyticsProduct = true;
  app = await startUiApp({
    server: {
      settings: {
        HERALD_PROBLOG_API_URL: li.url,
        HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
        HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
        HERALD_PROBLOG_CLIENT_ID: li.clientId,
        HERALD_PROBLOG_CLIENT_SECRET: li.clientSecret,
      },
    },
    // The refused sign-in's page is answered 400 on purpose.
    allowConsole: [/status of 400/],
  });
  key = await signIn(app, '#/accounts');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await li?.close();
});

describe('LinkedIn without analytics', () => {
  it('a refused analytics scope is named, and connecting without analytics works', async () => {
    await page().getByText('No accounts yet').waitFor();
    const [refused] = await Promise.all([
      app.context.waitForEvent('page'),
      page().getByRole('button', { name: 'Connect LinkedIn', exact: true }).click(),
    ]);
    await refused.getByRole('heading', { name: 'LinkedIn was not connected' }).waitFor();
    await refused.close();
    await page().getByRole('alert').filter({ hasText: 'r_member_postAnalytics' }).waitFor();
    const offer = page().getByRole('region', { name: 'Connect LinkedIn without analytics' });
    await offer.waitFor();
    await app.shot('accounts-no-analytics-1280-light');

    const [popup] = await Promise.all([
      app.context.waitForEvent('page'),
      offer.getByRole('button', { name: 'Connect LinkedIn without analytics' }).click(),
    ]);
    await popup.getByRole('heading', { name: 'LinkedIn is connected' }).waitFor();
    await popup.close();
    const row = page().locator('tr[data-account]');
    await row.waitFor();
    await row.locator('[data-analytics-unavailable]').filter({ hasText: 'r_member_postAnalytics' }).waitFor();
    await expect(offer.count()).resolves.toBe(0);
    const scope = async () =>
      ((await app.t.call('GET', '/networks', { key })).body.networks as any[]).find((n) => n.platform === 'problog')
        .analyticsScope;
    expect(await scope()).toBe(false);

    // Turned back on from the Networks page (once the app has the product).
    await page().goto(`${app.origin}/#/networks`);
    const box = page().locator('[data-network="problog"] [data-analytics-scope] input[type="checkbox"]');
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    // The switch follows the server's answer.
    await box.click();
    await expect.poll(() => box.isChecked()).toBe(true);
    await expect.poll(scope).toBe(true);
    await page().locator('[data-network="problog"] code', { hasText: 'r_member_postAnalytics' }).first().waitFor();
    await page().goto(`${app.origin}/#/accounts`);

    await page().setViewportSize({ width: 390, height: 844 });
    await page().emulateMedia({ colorScheme: 'dark' });
    await page().evaluate(() => localStorage.setItem('herald.theme', 'dark'));
    await page().reload();
    await page().locator('tr[data-account] [data-analytics-unavailable]').waitFor();
    const wide = await page().evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(390);
    await app.shot('accounts-no-analytics-390-dark');
    expect(app.problems.join('\n')).toBe('');
  });
});
