/**
 * Connecting an account again, and accounts that cannot post, in real Chromium against a real
 * Herald and the Mastodon simulator: a second Connect of the same Mastodon user says "Already
 * connected as @herald — tokens refreshed" and adds no row; a Reconnect that signs in as another
 * user shows why nothing changed; the composer unticks (and will not tick) an expired or revoked
 * account, says why with a Reconnect link, and keeps an expiring one tickable; a consent cancelled
 * at the network is named on the Accounts page. Screenshots at
 * 1280 and 390 px go to test-results/screenshots.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/index.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

const DAY = 86_400_000;
let masto: MastodonSimulator;
let app: UiApp;
const page = () => app.page;

async function both(name: string) {
  await app.shot(`${name}-1280`);
  await page().setViewportSize({ width: 390, height: 800 });
  await app.shot(`${name}-390`);
  await page().setViewportSize({ width: 1280, height: 800 });
}

/** Clicks `button`, lets the network's page in the new window finish, and closes it. */
async function throughPopup(button: () => Promise<void>, heading: RegExp) {
  const [popup] = await Promise.all([app.context.waitForEvent('page'), button()]);
  await popup.getByRole('heading', { name: heading }).waitFor({ timeout: 30_000 });
  await popup.close();
}

beforeAll(async () => {
  masto = await startMastodonSimulator();
  masto.addAccount({ username: 'someone_else' });
  // The refused reconnect's callback answers 400 on purpose (in the network's window).
  app = await startUiApp({ allowConsole: [/status of 400/] });
  await signIn(app, '#/accounts');
}, 60_000);

afterAll(async () => {
  await app?.close();
  await masto?.close();
});

it('a second Connect of the same account says it was already connected; no second row', async () => {
  await page().getByLabel('Mastodon instance').fill(masto.url);
  const connect = () => page().getByRole('button', { name: 'Connect Mastodon' }).click();
  await throughPopup(connect, /Mastodon is connected/);
  const notice = page().locator('[data-connect-notice]');
  await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/Connected Mastodon as @herald/);
  await throughPopup(connect, /Mastodon is connected/);
  await expect
    .poll(() => notice.textContent(), { timeout: 20_000 })
    .toMatch(/Already connected as @herald on Mastodon — tokens refreshed; no second account was added/);
  expect(await page().locator('tr[data-account]').count()).toBe(1);
  await both('connect-again-already');
});

it('a Reconnect that signs in as another user says nothing changed and why', async () => {
  masto.setCurrentUser('someone_else');
  try {
    await throughPopup(() => page().locator('[data-reconnect="fedblog"]').click(), /Mastodon was not connected/);
    await expect
      .poll(() => page().locator('.error').allTextContents(), { timeout: 20_000 })
      .toContainEqual(
        expect.stringMatching(
          /You signed in to Mastodon as @someone_else, but the account to reconnect is @herald\. Nothing was changed/,
        ),
      );
    await both('connect-again-wrong-user');
  } finally {
    masto.setCurrentUser('herald');
  }
  expect(await page().locator('tr[data-account]').count()).toBe(1);
});

it('cancelling on the consent page says so on the Accounts page, with the next step', async () => {
  // The person presses Cancel at the instance: it sends the browser back with access_denied.
  await app.context.route(`${masto.url}/oauth/authorize**`, (route) => {
    const q = new URL(route.request().url()).searchParams;
    const back = new URL(q.get('redirect_uri')!);
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('state', q.get('state')!);
    return route.fulfill({ status: 302, headers: { location: back.toString() } });
  });
  try {
    await page().getByLabel('Mastodon instance').fill(masto.url);
    await throughPopup(
      () => page().getByRole('button', { name: 'Connect Mastodon' }).click(),
      /Mastodon was not connected/,
    );
    await expect
      .poll(() => page().locator('.error').allTextContents(), { timeout: 20_000 })
      .toContainEqual(
        expect.stringMatching(
          new RegExp(
            [
              'You cancelled on the Mastodon consent page',
              'nothing was connected\\. To connect, start again and choose Authorize',
            ].join('.*'),
          ),
        ),
      );
    await both('connect-cancelled');
  } finally {
    await app.context.unroute(`${masto.url}/oauth/authorize**`);
  }
  expect(await page().locator('tr[data-account]').count()).toBe(1);
});

it('the composer unticks an account that cannot post, says why with Reconnect, and keeps an expiring one', async () => {
  const repo = (app.t.server.services.credentialCheck as any).accounts;
  const userId = app.t.server.services.users.byEmail('owner@example.test')!.id;
  const base = {
    userId,
    displayName: '',
    avatar: '',
    followersCount: 0,
    followingCount: 0,
    createdAt: new Date().toISOString(),
    serverUrl: null,
  };
  repo.insert({
    ...base,
    id: 'acc-expired',
    platform: 'problog',
    platformUserId: 'urn:li:person:gone',
    username: 'gone',
    status: 'needs_reauth',
    meta: JSON.stringify({ token: { expiresAt: Date.now() - DAY, refresh: 'none' } }),
  });
  repo.insert({
    ...base,
    id: 'acc-soon',
    platform: 'threadblog',
    platformUserId: 't-soon',
    username: 'soon',
    status: 'active',
    meta: JSON.stringify({ token: { expiresAt: Date.now() + 3 * DAY, refresh: 'none' } }),
  });
  for (const id of ['acc-expired', 'acc-soon'])
    app.t.server.services.socialSets.attachAccount(userId, id, { handle: id, mode: 'add_to_existing' });

  await page().goto(`${app.origin}/#/compose`);
  const chip = (id: string) => page().locator(`label[data-account="${id}"] input[type="checkbox"]`);
  await chip('acc-expired').waitFor();
  expect(await chip('acc-expired').isChecked()).toBe(false);
  expect(await chip('acc-expired').isDisabled()).toBe(true);
  const why = page().locator('[data-unticked="acc-expired"]');
  expect(await why.textContent()).toMatch(/Not sending to LinkedIn @gone: its sign-in expired\. Reconnect/);
  expect(await why.getByRole('link', { name: 'Reconnect' }).getAttribute('href')).toBe('#/accounts');
  // Expiring in 3 days: still ticked, with a warning, and the person may untick and tick it again.
  expect(await chip('acc-soon').isChecked()).toBe(true);
  expect(await page().locator('label[data-account="acc-soon"] [data-health-warning="expiring"]').count()).toBe(1);
  await chip('acc-soon').uncheck();
  expect(await chip('acc-soon').isChecked()).toBe(false);
  await chip('acc-soon').check();
  expect(await chip('acc-soon').isChecked()).toBe(true);
  // The previews follow the accounts that will be sent to: no LinkedIn.
  await page().locator('[data-preview="threadblog"]').waitFor();
  expect(await page().locator('[data-preview="problog"]').count()).toBe(0);
  await both('composer-unticked');
  expect(app.problems).toEqual([]);
});
