/**
 * Herald restarted with the encrypted secret store locked: every page shows "Herald is locked —
 * enter your passphrase" with an unlock form (and how many scheduled posts wait for it); a wrong
 * passphrase says so in the banner; the right one unlocks and the banner goes. Real Chromium,
 * real server; screenshots at 1280 and 390 px go to test-results/screenshots.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EncryptedFileSecretStore } from '../../server/secrets/encrypted-file.store.js';
import { signIn, startUiApp, unnamedControls, type UiApp } from '../helpers/ui-app.js';

const PASSPHRASE = 'the passphrase of this test';
let app: UiApp;
let key = '';

beforeAll(async () => {
  app = await startUiApp({ server: { settings: { HERALD_SECRET_STORE: 'encrypted' } }, allowConsole: [/401/] });
  key = await app.t.login();
  const r = await app.t.call('POST', '/setup/secrets', { key, body: { store: 'encrypted', passphrase: PASSPHRASE } });
  expect(r.status, r.text).toBe(200);
  // As after a restart: the store forgets its key until the passphrase is given again.
  (app.t.server.deps.secrets.inner as EncryptedFileSecretStore).lock();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

it('shows the locked banner with an unlock form on every page, and unlocks', async () => {
  await signIn(app, '#/compose');
  const banner = app.page.getByRole('alert', { name: 'Unlock Herald' });
  await expect.poll(() => banner.isVisible()).toBe(true);
  expect(await banner.textContent()).toMatch(/Herald is locked — enter your passphrase/);
  await app.shot('locked-banner-1280');
  await app.page.setViewportSize({ width: 390, height: 800 });
  await app.shot('locked-banner-390');
  await app.page.setViewportSize({ width: 1280, height: 800 });
  for (const page of ['drafts', 'accounts', 'settings']) {
    await app.page.goto(`${app.origin}/#/${page}`);
    await expect.poll(() => app.page.getByRole('alert', { name: 'Unlock Herald' }).isVisible()).toBe(true);
  }
  expect(await unnamedControls(app.page)).toEqual([]);

  const form = app.page.getByRole('alert', { name: 'Unlock Herald' });
  await form.getByLabel('Passphrase').fill('not the passphrase at all');
  await form.getByRole('button', { name: 'Unlock' }).click();
  await expect.poll(() => form.textContent()).toMatch(/does not open the secret store/);
  await app.shot('locked-banner-wrong-1280');
  await form.getByLabel('Passphrase').fill(PASSPHRASE);
  await form.getByRole('button', { name: 'Unlock' }).click();
  await expect.poll(() => app.page.locator('[data-locked]').count()).toBe(0);
  expect(app.t.server.deps.secrets.locked).toBe(false);
  expect(app.problems).toEqual([]);
});
