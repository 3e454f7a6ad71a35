/**
 * A signed-in browser keeps its session when Herald does not answer for a moment at start (Herald
 * restarting, or a page left while its first requests were under way): the UI says it is waiting,
 * asks again, and comes back signed in with the same key. Only a key the server refuses (401) is
 * forgotten. Before, any failed first request removed the key from localStorage, which signed the
 * person out; reloading a page whose start-up check was still in flight did the same.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;

beforeAll(async () => {
  // The refused requests below show in the console as failed loads; that is the point.
  app = await startUiApp({
    allowConsole: [/Failed to load resource/, /ERR_CONNECTION_REFUSED|ERR_FAILED/, /status of 401/],
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const storedKey = () => app.page.evaluate(() => localStorage.getItem('herald.apiKey'));

it('keeps the key while Herald does not answer, says so, and is signed in again once it does', async () => {
  const key = await signIn(app, '#/drafts');
  let asked = 0;
  await app.page.route('**/api/v1/me', async (route) => {
    asked += 1;
    if (asked === 1) await route.abort('connectionrefused');
    else await route.continue();
  });
  await app.page.reload();
  await app.page.getByText(/Herald is not answering .*trying again/).waitFor();
  expect(await storedKey()).toBe(key);
  await app.page.locator('nav[aria-label="Main"]').waitFor();
  expect(asked).toBeGreaterThanOrEqual(2);
  expect(await storedKey()).toBe(key);
  await app.page.unroute('**/api/v1/me');
});

it('forgets a key the server refuses, and shows the sign-in page', async () => {
  await signIn(app, '#/drafts');
  await app.page.route('**/api/v1/me', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        error: 'INVALID_API_KEY',
        message: 'The svc-key header is missing, or the key is invalid or revoked',
      }),
    }),
  );
  await app.page.reload();
  await app.page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(await storedKey()).toBeNull();
  await app.page.unroute('**/api/v1/me');
  expect(app.problems).toEqual([]);
});
