/**
 * The browser UI's session, in real Chromium: one sign-in serves every tab of the app, the key it
 * keeps is a session key (expires 30 days after its last use), and signing out in one tab revokes
 * the key on the server and returns the other tabs to the sign-in page.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OWNER } from '../helpers/server.js';
import { startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
beforeAll(async () => {
  // The key revoked by signing out is refused (401) when the test tries it.
  app = await startUiApp({ allowConsole: [/status of 401/] });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const nav = 'nav[aria-label="Main"]';
const signInHeading = { name: 'Sign in to Herald' };

it('signs in once for every tab; signing out in one revokes the key and signs the others out', async () => {
  const first = app.page;
  await first.goto(`${app.origin}/`);
  await first.getByRole('heading', signInHeading).waitFor();
  await first.getByLabel('E-mail').fill(OWNER.email);
  await first.getByLabel('Password').fill(OWNER.password);
  await first.getByRole('button', { name: 'Sign in' }).click();
  await first.locator(nav).waitFor();
  const key = await first.evaluate(() => localStorage.getItem('herald.apiKey'));
  expect(key).toMatch(/^hk_/);
  // The key the UI holds is a session key: it expires, 30 days on.
  const row = app.t.server.sqlite
    .prepare('SELECT expires_at AS e, sliding FROM api_keys WHERE preview = ?')
    .get(`${key!.slice(0, 7)}…${key!.slice(-4)}`) as { e: string; sliding: number };
  expect(row.sliding).toBe(1);
  expect(Date.parse(row.e) - Date.now()).toBeGreaterThan(29 * 86_400_000);

  // A second tab is signed in without signing in again.
  const second = await app.context.newPage();
  await second.goto(`${app.origin}/#/drafts`);
  await second.locator(nav).waitFor();
  expect(await second.getByRole('heading', signInHeading).count()).toBe(0);

  // Sign out in the second tab: the key is revoked, and the first tab returns to sign-in.
  await second.getByRole('button', { name: 'Sign out' }).click();
  await second.getByRole('heading', signInHeading).waitFor();
  await first.getByRole('heading', signInHeading).waitFor();
  const after = await app.t.call('GET', '/me', { key: key! });
  expect([after.status, after.body.error]).toEqual([401, 'INVALID_API_KEY']);
  expect(await first.evaluate(() => localStorage.getItem('herald.apiKey'))).toBeNull();

  // Signing in again in one tab takes the other in too.
  await first.getByLabel('E-mail').fill(OWNER.email);
  await first.getByLabel('Password').fill(OWNER.password);
  await first.getByRole('button', { name: 'Sign in' }).click();
  await first.locator(nav).waitFor();
  await second.locator(nav).waitFor();
  await second.close();
  expect(app.problems).toEqual([]);
});
