/**
 * The first run in real Chromium from an empty data folder (no owner): the wizard creates the
 * owner, checks the OS keychain (gnome-keyring under `npm test`) and keeps secrets there, shows
 * the detected zone and language and saves the choice, then links to the networks; a reload
 * after step 1 resumes at step 2. Accounts then
 * show each account's health with a Reconnect button for every network, and the composer warns
 * about an account that cannot post. Each wizard step is saved to docs/screenshots (the README's
 * Getting started shows them, so they stay current); 390 px and dark variants go to test-results.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startUiApp, unnamedControls, type UiApp } from '../helpers/ui-app.js';

const DOCS = path.resolve('docs/screenshots');
const DAY = 86_400_000;
let app: UiApp;
const page = () => app.page;

/** The step at 1280 px light into docs/, and at 390 px and in dark into test-results. */
async function shots(name: string) {
  await page().emulateMedia({ colorScheme: 'light' });
  await page().screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: true });
  await page().emulateMedia({ colorScheme: 'dark' });
  await app.shot(`${name}-1280-dark`);
  await page().setViewportSize({ width: 390, height: 800 });
  await app.shot(`${name}-390-dark`);
  await page().emulateMedia({ colorScheme: 'light' });
  await app.shot(`${name}-390-light`);
  await page().setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  // No owner from the environment and the default store (the OS keychain), as on a new machine.
  app = await startUiApp({ server: { owner: false, settings: { HERALD_SECRET_STORE: '' } } });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

it('goes through the wizard: owner, secrets (keychain checked), zone and language, networks', async () => {
  await page().goto(`${app.origin}/`);
  const owner = page().getByRole('form', { name: 'Create your Herald account' });
  await owner.getByLabel('E-mail').fill('owner@example.com');
  await owner.getByLabel('Password').fill('a long owner password');
  await shots('1-owner');
  await owner.getByRole('button', { name: 'Create and continue' }).click();
  await page().getByRole('form', { name: 'Where Herald keeps secrets' }).waitFor();
  // The step is kept on the server: a reload comes back to it, not to an app with steps skipped.
  await page().reload();

  const secrets = page().getByRole('form', { name: 'Where Herald keeps secrets' });
  await expect.poll(() => secrets.locator('[data-keychain]').getAttribute('data-keychain')).toBe('available');
  expect(await secrets.textContent()).toMatch(/written, read back and deleted/);
  expect(await secrets.getByRole('radio', { name: 'The OS keychain (recommended)', exact: true }).isChecked()).toBe(
    true,
  );
  await shots('2-secrets');
  await secrets.getByRole('button', { name: 'Continue' }).click();

  const defaults = page().getByRole('form', { name: 'Time zone and language' });
  await defaults.locator('[data-detected]').waitFor();
  await shots('3-zone-language');
  await defaults.getByLabel('Time zone for schedules').fill('Europe/Berlin');
  await defaults.getByLabel(/Language of new posts/).fill('de');
  await defaults.getByRole('button', { name: 'Continue' }).click();

  const networks = page().getByRole('region', { name: 'Connect networks' });
  await networks.waitFor();
  await shots('4-networks');
  expect(await unnamedControls(page())).toEqual([]);
  await networks.getByRole('button', { name: 'Connect accounts' }).click();
  await page().locator('nav[aria-label="Main"]').waitFor();
  expect(page().url()).toMatch(/#\/accounts$/);

  const key = await page().evaluate(() => localStorage.getItem('herald.apiKey'));
  const s = await app.t.call('GET', '/settings', { key: key! });
  expect(s.body.settings).toMatchObject({ timeZone: 'Europe/Berlin', defaultLanguage: 'de', secretStore: 'keychain' });
  expect(app.problems).toEqual([]);
});

it("Accounts shows each account's health with Reconnect for every network; the composer warns", async () => {
  // Two accounts as a revoked Bluesky login and a LinkedIn token five days from its end leave them.
  const repo = (app.t.server.services.credentialCheck as any).accounts;
  const userId = app.t.server.services.users.byEmail('owner@example.com')!.id;
  const base = {
    userId,
    displayName: '',
    avatar: '',
    followersCount: 0,
    followingCount: 0,
    createdAt: new Date().toISOString(),
  };
  repo.insert({
    ...base,
    id: 'acc-sky',
    platform: 'skyblog',
    platformUserId: 'did:plc:ada',
    username: 'ada.bsky.social',
    status: 'needs_reauth',
    serverUrl: 'https://bsky.social',
    meta: '{}',
  });
  repo.insert({
    ...base,
    id: 'acc-li',
    platform: 'problog',
    platformUserId: 'urn:li:person:ada',
    username: 'ada',
    status: 'active',
    serverUrl: null,
    meta: JSON.stringify({ token: { expiresAt: Date.now() + 5 * DAY, refresh: 'none' } }),
  });
  for (const id of ['acc-sky', 'acc-li'])
    app.t.server.services.socialSets.attachAccount(userId, id, { handle: id, mode: 'add_to_existing' });
  await page().reload();
  await page().locator('[data-account="acc-li"] [data-health]').waitFor();
  expect(await page().locator('[data-account="acc-sky"] [data-health]').getAttribute('data-health')).toBe('revoked');
  expect(await page().locator('[data-account="acc-li"] [data-health]').textContent()).toMatch(/expiring in 5 days/);
  expect(await page().locator('[data-reconnect]').count()).toBe(2);
  await page().locator('[data-reconnect="skyblog"]').click();
  expect(await page().getByLabel('Bluesky handle').inputValue()).toBe('ada.bsky.social');
  await page().getByLabel('Bluesky app password').fill('my-main-password');
  await page().locator('[data-main-password]').waitFor();
  await shots('5-accounts-health');

  await page().goto(`${app.origin}/#/compose`);
  await page().locator('[data-cannot-post="revoked"]').waitFor();
  expect(app.problems).toEqual([]);
});
