/**
 * The app's other pages in real Chromium against a real Herald and the four network simulators:
 * accounts (connect X, Mastodon, Threads and LinkedIn through their sign-in pages; remove one,
 * its tokens gone), social sets, history (a failure explained, then retried), drafts (search,
 * status filter, open, delete), API keys (shown once, working, deleted), credits (balance, usage,
 * spending chart) and settings (saved, backup made). A screenshot of each page is saved.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSecretName } from '../../server/secrets/secret-store.js';
import {
  startLinkedInSimulator,
  startMastodonSimulator,
  startThreadsSimulator,
  startXSimulator,
  type LinkedInSimulator,
  type MastodonSimulator,
  type ThreadsSimulator,
  type XSimulator,
} from '../simulators/index.js';
import { signIn, startUiApp, unnamedControls, type UiApp } from '../helpers/ui-app.js';

let x: XSimulator;
let masto: MastodonSimulator;
let threads: ThreadsSimulator;
let li: LinkedInSimulator;
let app: UiApp;
let key: string;

const page = () => app.page;
const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
const go = async (name: string) => {
  await page().getByRole('link', { name, exact: true }).click();
  await page()
    .getByRole('heading', { name: name === 'Compose' ? /draft$/ : name, exact: true })
    .waitFor();
};
const accountsNow = async () =>
  (await app.t.call('GET', '/accounts', { key })).body.accounts as {
    uuid: string;
    platform: string;
    username: string;
  }[];

beforeAll(async () => {
  [x, masto, threads, li] = await Promise.all([
    startXSimulator({ clientId: 'e2e-x', clientSecret: 'e2e-x-secret' }),
    startMastodonSimulator(),
    startThreadsSimulator(),
    startLinkedInSimulator(),
  ]);
  const oauth = (
    p: string,
    s: { url: string; authorizeUrl: string; tokenUrl: string; clientId: string; clientSecret?: string },
    api = s.url,
  ) => ({
    [`HERALD_${p}_API_URL`]: api,
    [`HERALD_${p}_AUTHORIZE_URL`]: s.authorizeUrl,
    [`HERALD_${p}_TOKEN_URL`]: s.tokenUrl,
    [`HERALD_${p}_CLIENT_ID`]: s.clientId,
    [`HERALD_${p}_CLIENT_SECRET`]: s.clientSecret ?? '',
  });
  app = await startUiApp({
    server: { settings: { ...oauth('MICROBLOG', x), ...oauth('THREADBLOG', threads), ...oauth('PROBLOG', li) } },
    // The refused key is answered 401 on purpose.
    allowConsole: [/status of 401/],
  });
  key = await signIn(app, '#/accounts');
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([x, masto, threads, li].map((s) => s?.close()));
});

describe('accounts', () => {
  async function connect(button: string, network: string) {
    const [popup] = await Promise.all([
      app.context.waitForEvent('page'),
      page().getByRole('button', { name: button }).click(),
    ]);
    await popup.getByRole('heading', { name: `${network} is connected` }).waitFor();
    await popup.close();
  }

  it('connects X, Threads, LinkedIn and Mastodon through their sign-in pages', async () => {
    await page().getByText('No accounts yet').waitFor();
    await connect('Connect X', 'X');
    await connect('Connect Threads', 'Threads');
    await connect('Connect LinkedIn', 'LinkedIn');
    await page().getByLabel('Mastodon instance').fill(masto.url);
    await connect('Connect Mastodon', 'Mastodon');
    await expect.poll(() => page().locator('tr[data-account]').count(), { timeout: 20_000 }).toBe(4);
    const rows = await page().locator('tr[data-account]').allTextContents();
    for (const name of ['@herald_tester', '@herald.tester', '@herald']) expect(rows.join('\n')).toContain(name);
    await expect(page().locator('tr[data-account] [data-status="active"]').count()).resolves.toBe(4);
    expect((await accountsNow()).map((a) => a.platform).sort()).toEqual([
      'fedblog',
      'microblog',
      'problog',
      'threadblog',
    ]);
    await app.shot('30-accounts-four-networks');
  });

  it('an account whose sign-in ran out shows it, and Reconnect makes it active again', async () => {
    const xAccount = (await accountsNow()).find((a) => a.platform === 'microblog')!;
    // X stops honouring the tokens: the next publish finds the account needs signing in again.
    x.expireAccessTokens();
    for (const r of x.state.refreshTokens.values()) r.used = true;
    const draft = (
      await app.t.call('POST', '/microblog/drafts', {
        key,
        body: { title: 'Expired', tweets: [{ content: 'after expiry' }], selectedAccountIds: [xAccount.uuid] },
      })
    ).body.draft.id;
    await app.t.call('POST', '/microblog/publish', { key, body: { draftId: draft } });
    await page().reload();
    const row = page().locator(`tr[data-account="${xAccount.uuid}"]`);
    await row.locator('[data-status="needs_reauth"]').waitFor();
    await app.shot('30b-accounts-needs-reauth');
    const [popup] = await Promise.all([
      app.context.waitForEvent('page'),
      row.getByRole('button', { name: 'Reconnect' }).click(),
    ]);
    await popup.getByRole('heading', { name: 'X is connected' }).waitFor();
    await popup.close();
    await row.locator('[data-status="active"]').waitFor();
    await expect(page().locator('tr[data-account]').count()).resolves.toBe(4);
  });

  it('removing an account deletes it and its tokens', async () => {
    const linkedin = (await accountsNow()).find((a) => a.platform === 'problog')!;
    expect(await app.t.server.deps.secrets.get(accountSecretName(linkedin.uuid))).toBeTruthy();
    await page().locator(`tr[data-account="${linkedin.uuid}"]`).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page().locator('tr[data-account]').count()).toBe(3);
    // A LinkedIn member is named, not given an @handle LinkedIn does not have.
    expect(app.dialogs.pop()).toMatch(
      new RegExp(
        `^confirm: Remove ${(linkedin as { display_name?: string }).display_name || linkedin.username} ` +
          `\\(LinkedIn\\)\\?`,
      ),
    );
    expect(await app.t.server.deps.secrets.get(accountSecretName(linkedin.uuid))).toBeNull();
  });
});

describe('social sets', () => {
  it('creates a set, picks its accounts, makes it the default the composer uses, and deletes it', async () => {
    await go('Social sets');
    await page().getByLabel('New set name').fill('Work');
    await page().getByRole('button', { name: 'Create set' }).click();
    const work = page().locator('[data-set]', { hasText: 'Work' });
    await work.waitFor();
    for (const name of [/X @herald_tester/, /Mastodon @herald/]) {
      await work.getByLabel(name).click();
      await expect.poll(() => work.getByLabel(name).isChecked()).toBe(true);
      await expect.poll(() => work.getByLabel(name).isEnabled()).toBe(true);
    }
    await expect
      .poll(
        async () =>
          (await app.t.call('GET', '/social-sets', { key })).body.socialSets.find((s: any) => s.name === 'Work')
            .accounts.length,
      )
      .toBe(2);
    await work.getByRole('button', { name: 'Make default' }).click();
    await work.getByText('default', { exact: true }).waitFor();
    await app.shot('31-social-sets');

    await go('Compose');
    // The sets load after the page opens: until then the first option reads "No social set".
    await expect
      .poll(() => page().getByLabel('Social set').locator('option:checked').textContent())
      .toBe('Work (default)');
    await expect.poll(() => page().locator('[data-account]').count()).toBe(2);
    await expect(
      page()
        .locator('[data-preview]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-preview'))),
    ).resolves.toEqual(['microblog', 'fedblog']);

    await go('Social sets');
    const old = page().locator('[data-set]', { has: page().getByRole('heading', { name: 'Default', exact: true }) });
    await old.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page().locator('[data-set]').count()).toBe(1);
    expect(app.dialogs.pop()).toMatch(/^confirm: Delete the set Default/);
  });
});

describe('history', () => {
  it('a failed target is explained in progress and history, and Retry publishes it', async () => {
    // X answers 503 once: that target fails, Mastodon's goes out.
    x.faults.next({ kind: '503' }, { route: 'POST /2/tweets', times: 1 });
    await go('Compose');
    await post(1).fill('History has the whole story.');
    await page().getByRole('button', { name: 'Publish now' }).click();
    // Publish now asks first, by mouse as by Ctrl+Enter.
    await page()
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();
    await page()
      .getByText('Published to 1 of 2 accounts; 1 failed. It is not tried again automatically: see History to retry.')
      .waitFor({ timeout: 30_000 });
    const xRow = page().locator('[data-progress="microblog"]');
    await expect(xRow.locator('[data-status]').getAttribute('data-status')).resolves.toBe('failed');
    const reason = (await xRow.locator('.error').textContent()) ?? '';
    expect(reason).toMatch(/X/);
    expect(reason.length).toBeGreaterThan(10);
    await expect(page().locator('[data-progress="fedblog"]').getByRole('link', { name: 'open' }).count()).resolves.toBe(
      1,
    );

    await go('History');
    const failed = page().locator('tr[data-publication]', {
      hasText: 'History has the whole story.',
      has: page().locator('[data-status="failed"]'),
    });
    await expect(failed.textContent()).resolves.toContain(reason);
    await app.shot('32-history-failed');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => failed.count()).toBe(0);
    await expect
      .poll(() =>
        page()
          .locator('tr[data-publication]', { hasText: 'History has the whole story.' })
          .locator('[data-status="published"]')
          .count(),
      )
      .toBe(2);
    expect(x.countPosts('herald_tester', 'History has the whole story.')).toBe(1);
    expect(masto.countPosts('herald', 'History has the whole story.')).toBe(1);
    // The status filter.
    await page().getByLabel('Filter by status').selectOption('published');
    await expect.poll(() => page().locator('tr[data-publication]').count()).toBe(2);
    await app.shot('33-history');
  });
});

describe('drafts', () => {
  it('search and status filters narrow the list; a draft opens in the composer and can be deleted', async () => {
    const make = (title: string, text: string) =>
      app.t.call('POST', '/microblog/drafts', { key, body: { title, tweets: [{ content: text }] } });
    const apple = (await make('Apple pie', 'Recipe with cinnamon')).body.draft.id;
    await make('Banana bread', 'Needs ripe bananas');
    const cherry = (await make('Cherry news', 'Season starts in June')).body.draft.id;
    const s = await app.t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId: cherry, scheduledFor: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(s.status, s.text).toBe(200);

    await go('Drafts');
    // with the published and the expired ones
    await expect.poll(() => page().locator('tr[data-draft]').count()).toBe(5);
    await page().getByLabel('Search drafts').fill('cinnamon');
    await expect.poll(() => page().locator('tr[data-draft]').count()).toBe(1);
    await page().getByLabel('Search drafts').fill('');
    await page().getByLabel('Filter by status').selectOption('scheduled');
    await expect
      .poll(() => page().locator('tr[data-draft]').allTextContents())
      .toEqual([expect.stringContaining('Cherry news')]);
    await page().getByLabel('Filter by status').selectOption('');
    await page().getByLabel('Search drafts').fill('nothing matches this');
    await page().getByText('No draft matches.').waitFor();
    await page().getByLabel('Search drafts').fill('');
    await app.shot('34-drafts');

    await page().getByRole('link', { name: 'Apple pie' }).click();
    await page().getByRole('heading', { name: 'Edit draft' }).waitFor();
    await expect(post(1).inputValue()).resolves.toBe('Recipe with cinnamon');

    await go('Drafts');
    await page().locator(`tr[data-draft="${apple}"]`).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page().locator(`tr[data-draft="${apple}"]`).count()).toBe(0);
    expect((await app.t.call('GET', `/microblog/drafts/${apple}`, { key })).status).toBe(404);
  });
});

describe('API keys', () => {
  it('a new key is shown once, works, and stops working when deleted', async () => {
    await go('API keys');
    await page().getByLabel('Key name').fill('My scripts');
    await page().getByLabel('Tier').selectOption('free');
    await page().getByRole('button', { name: 'Create key' }).click();
    const shown = (await page().getByTestId('new-key').textContent())!;
    expect((await app.t.call('GET', '/me', { key: shown })).status).toBe(200);
    await app.shot('35-api-keys-new');
    await page().getByRole('button', { name: 'Done' }).click();
    const row = page().locator('tr', { hasText: 'My scripts' });
    await expect(row.textContent()).resolves.not.toContain(shown);
    await expect(page().content()).resolves.not.toContain(shown);
    await page().reload();
    await row.waitFor();
    await expect(page().content()).resolves.not.toContain(shown);
    await row.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await app.t.call('GET', '/me', { key: shown })).status).toBe(401);
  });
});

describe('credits', () => {
  it('shows the balance the server has, the usage table with the refund, and the spending chart', async () => {
    const credits = (await app.t.call('POST', '/credits', { key })).body;
    await go('Credits');
    // Grouped as the browser's locale writes numbers (en-GB: 9,980).
    await expect.poll(() => page().getByTestId('balance').textContent()).toBe(credits.balance.toLocaleString('en-GB'));
    // 4 targets charged (10 each), the two failed ones refunded.
    expect(credits.balance).toBe(10_000 - 40 + 20);
    const rows = page().locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    const text = (await rows.allTextContents()).join('\n');
    expect(text).toMatch(/refund/);
    expect(text).toMatch(/-10/);
    // The chart: today's net spending, 30 charged less 10 refunded.
    await expect(page().locator('[data-spend]').allTextContents()).resolves.toEqual([expect.stringMatching(/20$/)]);
    await app.shot('36-credits');
  });
});

describe('settings', () => {
  it('saves the install settings, shows the data folder, and makes a backup', async () => {
    await go('Settings');
    await expect.poll(() => page().locator('code').first().textContent()).toBe(app.t.dataDir);
    await page()
      .getByLabel(/Grace period/)
      .fill('30');
    await page().getByLabel('Monthly credit grant').fill('2000');
    await page().getByLabel('Default tier of new API keys').selectOption('free');
    await page().getByRole('button', { name: 'Save', exact: true }).click();
    await page()
      .getByText(/^Saved\./)
      .waitFor();
    // Saved for the next start (environment variables still win).
    const saved = JSON.parse(fs.readFileSync(path.join(app.t.dataDir, 'config.json'), 'utf8'));
    expect(saved).toMatchObject({
      HERALD_GRACE_MINUTES: 30,
      HERALD_MONTHLY_CREDITS: 2000,
      HERALD_DEFAULT_TIER: 'free',
    });

    await page().getByRole('button', { name: 'Back up now' }).click();
    const note = (await page()
      .getByText(/^Backed up/)
      .textContent())!;
    const file = /to (.+) in /.exec(note)![1];
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
    await app.shot('37-settings');
  });

  it('on every page, every control has a name and the main navigation is reachable by keyboard', async () => {
    for (const hash of [
      'compose',
      'drafts',
      'queue',
      'calendar',
      'history',
      'accounts',
      'sets',
      'templates',
      'keys',
      'credits',
      'settings',
    ]) {
      await page().goto(`${app.origin}/#/${hash}`);
      await page().locator('main h1').waitFor();
      await page().waitForLoadState('networkidle');
      expect({ hash, unnamed: await unnamedControls(page()) }).toEqual({ hash, unnamed: [] });
    }
    // From the top of the page, Tab reaches the navigation first.
    await page().reload();
    await page().locator('main h1').waitFor();
    await page().keyboard.press('Tab');
    await expect(page().evaluate(() => document.activeElement?.textContent)).resolves.toBe('Compose');
    await page().keyboard.press('Enter');
    await page()
      .getByRole('heading', { name: /draft$/ })
      .waitFor();
  });

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
    expect(app.dialogs.filter((d) => !d.startsWith('confirm:'))).toEqual([]);
  });
});
