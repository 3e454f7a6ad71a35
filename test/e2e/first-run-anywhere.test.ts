/**
 * Issue #33 points 1 and 2 as a new user meets them, in real Chromium against the real headless
 * Herald in a process of its own on a machine with no keychain (its D-Bus address leads nowhere),
 * with the Mastodon simulator as the network:
 * - the UI opened as http://localhost:PORT/ runs the wizard; the owner form states the password
 *   minimum before submitting; step 2 says plainly that no keychain runs, its radios keep their
 *   size and short names; "Neither for now" goes on, and a reload after each step resumes there;
 * - with nowhere to keep tokens, connecting says to choose in Settings → Data, a banner leads
 *   there, and Settings → Data chooses the encrypted file; the account connects (the network's
 *   tab ends on a styled page that closes itself); switching to another store in Settings keeps
 *   the token: the account still posts;
 * - the UI opened as http://[::1]:PORT/ signs in and shows the account.
 * Screenshots at 390 and 1280 px go to test-results/screenshots.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, shotPath } from '../helpers/browser.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { tempDir } from '../helpers/server.js';
import { builtUi } from '../helpers/ui-build.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/index.js';

const dir = tempDir('herald-first-run-anywhere-');
const NO_KEYCHAIN = {
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/herald-test-bus',
  DISPLAY: '',
  HERALD_SECRET_STORE: undefined,
  HERALD_OWNER_EMAIL: undefined,
  HERALD_OWNER_PASSWORD: undefined,
};
const OWNER = { email: 'new-user@example.test', password: 'a long first password' };
const PASSPHRASE = 'correct horse battery staple';
let child: ChildServer;
let masto: MastodonSimulator;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
let local = '';

function watch(p: Page) {
  p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // The refused connect is a 409 the page shows; anything else logged as an error is a problem.
  p.on('console', (m) => {
    if (m.type() === 'error' && !/status of 409/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  p.on('dialog', (d) => void d.accept());
}

async function shots(name: string) {
  await page.screenshot({ path: shotPath(`${name}-1280`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: shotPath(`${name}-390`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  masto = await startMastodonSimulator();
  const ui = await builtUi();
  child = await startChild({ dataDir: dir, env: { ...NO_KEYCHAIN, HERALD_UI_DIR: ui } });
  local = `http://localhost:${child.port}`;
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
  });
  context.setDefaultTimeout(15_000);
  context.on('page', watch);
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await child?.kill();
  await masto?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the wizard at http://localhost:PORT/ on a machine without a keychain', () => {
  it('the owner form says the minimum before submitting, and can show the password', async () => {
    await page.goto(`${local}/`);
    const owner = page.getByRole('form', { name: 'Create your Herald account' });
    await owner.getByLabel('E-mail').fill(OWNER.email);
    const password = owner.getByLabel('Password', { exact: true });
    expect(await owner.locator('[data-password-hint]').textContent()).toMatch(/At least 8 characters/);
    await password.fill('short');
    expect(await owner.locator('[data-password-hint]').textContent()).toMatch(/3 more/);
    await owner.getByRole('button', { name: 'Show password' }).click();
    expect(await owner.getByRole('button', { name: 'Show password' }).getAttribute('aria-pressed')).toBe('true');
    expect(await password.getAttribute('type')).toBe('text');
    await password.fill(OWNER.password);
    await shots('80-wizard-owner');
    await owner.getByRole('button', { name: 'Create and continue' }).click();
    await page.getByRole('form', { name: 'Where Herald keeps secrets' }).waitFor();
  });

  it('step 2 says in plain words that no keychain runs; radios keep their size and short names', async () => {
    await page.reload();
    const secrets = page.getByRole('form', { name: 'Where Herald keeps secrets' });
    await expect
      .poll(() => secrets.locator('[data-keychain]').getAttribute('data-keychain'), { timeout: 15_000 })
      .toBe('missing');
    const said = await secrets.locator('[data-keychain]').textContent();
    expect(said).toMatch(/no keyring service \(such as GNOME Keyring or KWallet\) is running/);
    expect(said).not.toMatch(/D-Bus|DISPLAY|autolaunch|spawning/i);
    for (const name of ['The OS keychain (not available here)', 'An encrypted file', 'Neither for now']) {
      const radio = secrets.getByRole('radio', { name, exact: true });
      const box = (await radio.boundingBox())!;
      expect({ name, w: Math.round(box.width), h: Math.round(box.height) }).toEqual({ name, w: 16, h: 16 });
    }
    await shots('81-wizard-secrets-no-keychain');
    await secrets.getByRole('radio', { name: 'Neither for now' }).check();
    await secrets.getByRole('button', { name: 'Continue' }).click();
    const declined = page.locator('[data-declined]');
    await declined.waitFor();
    expect(await declined.textContent()).toMatch(/Settings → Data/);
    await page.getByRole('button', { name: 'Continue without' }).click();
    await page.getByRole('form', { name: 'Time zone and language' }).locator('[data-detected]').waitFor();
  });

  it('a reload after each step resumes at the next one, to the end', async () => {
    await page.reload();
    const defaults = page.getByRole('form', { name: 'Time zone and language' });
    await defaults.locator('[data-detected]').waitFor();
    await shots('82-wizard-defaults');
    await defaults.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('region', { name: 'Connect networks' }).waitFor();
    await page.reload();
    const networks = page.getByRole('region', { name: 'Connect networks' });
    await networks.waitFor();
    expect(await networks.textContent()).not.toMatch(/Settings → Networks/);
    await shots('83-wizard-networks');
    await networks.getByRole('button', { name: 'Connect accounts' }).click();
    await page.locator('nav[aria-label="Main"]').waitFor();
    expect(page.url()).toMatch(/#\/accounts$/);
    await page.reload();
    await page.locator('nav[aria-label="Main"]').waitFor();
    expect((await child.call('GET', '/auth/setup')).body.wizardStep).toBeNull();
  });
});

describe('where tokens live, chosen after the wizard', () => {
  it('connecting says to choose in Settings → Data, and a banner leads there', async () => {
    await page.getByLabel('Mastodon instance').fill(masto.url);
    await page.getByRole('button', { name: 'Connect Mastodon' }).click();
    await expect
      .poll(() => page.locator('.error').allTextContents(), { timeout: 15_000 })
      .toContainEqual(expect.stringMatching(/Settings → Data/));
    const banner = page.locator('[data-no-store]');
    await banner.waitFor();
    await banner.getByRole('link', { name: /Settings → Data/ }).click();
    await page.locator('[data-store-chooser="settings"]').waitFor();
    expect(await page.locator('[data-store-in-use]').getAttribute('data-store-in-use')).toBe('unavailable');
  });

  it('Settings → Data keeps tokens in an encrypted file from now on', async () => {
    const form = page.locator('[data-store-chooser="settings"]');
    await form.getByRole('radio', { name: 'An encrypted file', exact: true }).check();
    await form.getByLabel('Passphrase (8 characters or more)').fill(PASSPHRASE);
    await form.getByLabel('The passphrase again').fill(PASSPHRASE);
    await form.getByRole('button', { name: 'Keep tokens there' }).click();
    // The passphrase's key derivation and a new keychain check take a while on a loaded machine.
    await expect
      .poll(() => page.locator('[data-store-in-use]').getAttribute('data-store-in-use'), { timeout: 15_000 })
      .toBe('encrypted');
    expect(await page.locator('[data-store-note]').textContent()).toMatch(/encrypted file/);
    await expect.poll(() => page.locator('[data-no-store]').count(), { timeout: 15_000 }).toBe(0);
    await shots('84-settings-data-encrypted');
  });

  it("the account connects; the network's tab ends on a styled page that closes itself", async () => {
    await page.goto(`${local}/#/accounts`);
    await page.getByLabel('Mastodon instance').fill(masto.url);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Connect Mastodon' }).click(),
    ]);
    await popup.getByRole('heading', { name: 'Mastodon is connected' }).waitFor({ timeout: 30_000 });
    const look = await popup.locator('main').evaluate((m) => {
      const s = getComputedStyle(m);
      return { radius: s.borderRadius, width: m.getBoundingClientRect().width };
    });
    expect(look.radius).toBe('14px');
    expect(look.width).toBeLessThanOrEqual(600);
    await popup.screenshot({ path: shotPath('85-connect-done-page') });
    await popup.waitForEvent('close', { timeout: 10_000 });
    await expect
      .poll(() => page.locator('[data-connect-notice]').textContent(), { timeout: 20_000 })
      .toMatch(/Connected Mastodon as @herald/);
  });

  it('switching the store in Settings keeps the token: the account still posts', async () => {
    await page.goto(`${local}/#/settings`);
    const form = page.locator('[data-store-chooser="settings"]');
    await form.getByRole('radio', { name: 'A plain file', exact: true }).check();
    await form.getByRole('button', { name: 'Keep tokens there' }).click();
    // Leaving the encrypted file rewrites it (a key derivation) and checks the keychain again: slow when loaded.
    const inUse = () => page.locator('[data-store-in-use]').getAttribute('data-store-in-use');
    await expect.poll(inUse, { timeout: 30_000 }).toBe('file');
    expect(await page.locator('[data-store-note]').textContent()).toMatch(/[1-9]\d* saved secrets? moved across/);
    const key = (await page.evaluate(() => localStorage.getItem('herald.apiKey')))!;
    const account = (await child.call('GET', '/accounts', { key })).body.accounts[0];
    const draft = (
      await child.call('POST', '/microblog/drafts', {
        key,
        body: {
          title: 'After the switch',
          tweets: [{ content: 'Still connected after the move' }],
          selectedAccountIds: [account.uuid],
        },
      })
    ).body.draft.id;
    const sent = await child.call('POST', '/microblog/publish', { key, body: { draftId: draft } });
    expect(sent.status, sent.text).toBeLessThan(300);
    await expect
      .poll(() => masto.state.statuses.map((s) => s.text).join('\n'), { timeout: 20_000 })
      .toMatch(/Still connected after the move/);
  });
});

describe('the UI at http://[::1]:PORT/', () => {
  it('signs in and shows the account', async () => {
    const v6 = await context.newPage();
    await v6.goto(`http://[::1]:${child.port}/`);
    const form = v6.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('E-mail').fill(OWNER.email);
    await form.getByLabel('Password').fill(OWNER.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await v6.locator('nav[aria-label="Main"]').waitFor();
    await v6.goto(`http://[::1]:${child.port}/#/accounts`);
    await v6.locator('tr[data-account]').first().waitFor();
    expect(await v6.locator('tr[data-account]').first().textContent()).toMatch(/@herald/);
    await v6.close();
  });

  it('nothing went wrong in the pages along the way (no CSP violation, no page error)', () => {
    expect(problems).toEqual([]);
  });
});
