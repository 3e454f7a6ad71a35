/**
 * Settings → Networks in real Chromium against a real Herald and the X and Threads simulators,
 * with no network app in the environment: the owner reads the guides, copies nothing by hand
 * but the secret, saves X's app, sees "configured", runs Test (a wrong secret first, named
 * precisely), and connects an X account from the Accounts page at once. Threads, with its own
 * HTTPS redirect URI, connects through the pasted address. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startThreadsSimulator, startXSimulator, type ThreadsSimulator, type XSimulator } from '../simulators/index.js';
import { canaryToken } from '../simulators/util.js';
import { signIn, startUiApp, unnamedControls, type UiApp } from '../helpers/ui-app.js';

const X_SECRET = canaryToken('x', 'secret');
const THREADS_REDIRECT = 'https://herald-redirect.example.test/threads';
let x: XSimulator;
let threads: ThreadsSimulator;
let app: UiApp;
let key: string;
const page = () => app.page;
const panel = (name: string) => page().getByRole('region', { name, exact: true });

beforeAll(async () => {
  [x, threads] = await Promise.all([
    startXSimulator({ clientId: 'e2e-netapps-x', clientSecret: X_SECRET }),
    startThreadsSimulator({
      clientSecret: canaryToken('threads', 'secret'),
      httpsRedirectsOnly: true,
      redirectUris: [THREADS_REDIRECT],
    }),
  ]);
  app = await startUiApp({
    server: {
      settings: {
        HERALD_MICROBLOG_API_URL: x.url,
        HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
        HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
        HERALD_THREADBLOG_API_URL: threads.url,
        HERALD_THREADBLOG_AUTHORIZE_URL: threads.authorizeUrl,
        HERALD_THREADBLOG_TOKEN_URL: threads.tokenUrl,
      },
    },
  });
  key = await signIn(app, '#/networks');
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([x?.close(), threads?.close()]);
});

it('sets up X on Settings → Networks, tests it, and connects an account with it', async () => {
  await page().getByRole('heading', { name: 'Networks', exact: true }).waitFor();
  const xPanel = panel('X');
  await expect.poll(() => xPanel.locator('[data-status]').textContent()).toBe('not configured');
  for (const name of ['Threads', 'LinkedIn', 'Mastodon', 'Bluesky']) await panel(name).waitFor();
  expect(await xPanel.getByRole('textbox', { name: 'X redirect URI' }).inputValue()).toBe(
    `${app.t.base}/microblog/callback`,
  );
  expect(await unnamedControls(page())).toEqual([]);
  await app.shot('60-networks-1280');

  await xPanel.getByLabel('OAuth 2.0 Client ID').fill('e2e-netapps-x');
  await xPanel.getByLabel('OAuth 2.0 Client Secret').fill(canaryToken('x', 'secret'));
  await xPanel.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => xPanel.locator('[data-status]').textContent()).toBe('configured');
  await xPanel.getByRole('button', { name: 'Test' }).click();
  await expect
    .poll(() => xPanel.locator('[data-test-result]').textContent())
    .toMatch(/X did not accept the client id and secret/);

  await xPanel.getByLabel('OAuth 2.0 Client ID').fill('e2e-netapps-x');
  await xPanel.getByLabel('OAuth 2.0 Client Secret').fill(X_SECRET);
  await xPanel.getByRole('button', { name: 'Save', exact: true }).click();
  await xPanel.getByRole('button', { name: 'Test' }).click();
  await expect
    .poll(() => xPanel.locator('[data-test-result]').textContent())
    .toMatch(/X accepted the client id and secret/);
  expect(await xPanel.locator('[data-source]').textContent()).toMatch(/saved in Herald's secret store/);
  await app.shot('61-networks-x-configured');

  await page().getByRole('link', { name: 'Accounts', exact: true }).click();
  await page().getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
  const [popup] = await Promise.all([
    app.context.waitForEvent('page'),
    page().getByRole('button', { name: 'Connect X' }).click(),
  ]);
  await popup.getByRole('heading', { name: 'X is connected' }).waitFor();
  await popup.close();
  await expect
    .poll(async () => (await app.t.call('GET', '/accounts', { key })).body.accounts.map((a: any) => a.platform))
    .toContain('microblog');
});

it('connects Threads through the pasted address', async () => {
  await page().getByRole('link', { name: 'Networks', exact: true }).click();
  const tPanel = panel('Threads');
  await tPanel.getByLabel('Threads App ID').fill(threads.clientId);
  await tPanel.getByLabel('Threads App Secret').fill(threads.clientSecret);
  await tPanel.getByLabel(/Own redirect URI/).fill(THREADS_REDIRECT);
  await tPanel.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(() => tPanel.getByRole('textbox', { name: 'Threads redirect URI' }).inputValue())
    .toBe(THREADS_REDIRECT);

  await page().getByRole('link', { name: 'Accounts', exact: true }).click();
  // The consent page sends the browser to the person's HTTPS address, which does not exist here:
  // read where Threads sent it, as the person reads the address bar.
  const [popup] = await Promise.all([
    app.context.waitForEvent('page'),
    page().getByRole('button', { name: 'Connect Threads' }).click(),
  ]);
  const sentTo = await new Promise<string>((resolve) => {
    const seen = (u: string) => {
      if (u.startsWith(THREADS_REDIRECT)) resolve(u);
    };
    popup.on('request', (r) => seen(r.url()));
    popup.on('framenavigated', (f) => seen(f.url()));
    seen(popup.url());
  });
  await popup.close();
  await page()
    .getByLabel(/Paste the address you were sent to/)
    .fill(sentTo);
  await app.shot('62-accounts-paste-address');
  await page().getByRole('button', { name: 'Finish connecting' }).click();
  await expect
    .poll(async () => (await app.t.call('GET', '/accounts', { key })).body.accounts.map((a: any) => a.platform))
    .toContain('threadblog');
  await page().getByText('herald.tester').first().waitFor();
});

it('reads well at 390 px', async () => {
  await page().setViewportSize({ width: 390, height: 844 });
  await page()
    .getByRole('link', { name: 'Networks', exact: true })
    .click()
    .catch(async () => {
      await page().goto(`${app.t.base.replace(/\/api\/v1$/, '')}/#/networks`);
    });
  await page().getByRole('heading', { name: 'Networks', exact: true }).waitFor();
  await app.shot('63-networks-390');
  const overflow = await page().evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
