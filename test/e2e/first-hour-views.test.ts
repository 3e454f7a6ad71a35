/**
 * Issue #33's smaller points on the pages a new user opens first, in real Chromium against a
 * real Herald, at 390 and 1280 px:
 * - Accounts: labelled inputs; no Connect button for a network whose app is not set up (it says
 *   so and links to the Networks page, never "Settings → Networks"); a LinkedIn member shown by
 *   name, not as "@Jane Writer"; followers LinkedIn and Threads do not give shown as unknown, not 0;
 * - API keys: browser sessions apart from API keys, this one named "This browser"; ending it
 *   asks first and signs this browser out;
 * - Calendar at 1280 × 800: opened on this month it shows the current week even when the weeks
 *   above are full, and a 500-character title does not stretch its day;
 * - a queue slot's post (networks minutes apart across the hour) is one calendar card;
 * - navigation at 390 px: a bar with a Menu button, not a scrolling row of twelve links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { startUiApp, unnamedControls, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
let owner = '';
const page = () => app.page;
const DAY = 86_400_000;

async function both(name: string) {
  await app.shot(`${name}-1280`);
  await page().setViewportSize({ width: 390, height: 844 });
  await app.shot(`${name}-390`);
  await page().setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  app = await startUiApp();
  owner = userIdOf(app.t, OWNER.email);
  // Signed in through the sign-in page, as a person does: a browser session.
  await page().goto(`${app.origin}/`);
  const form = page().getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(OWNER.email);
  await form.getByLabel('Password').fill(OWNER.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page().locator('nav[aria-label="Main"]').waitFor();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('Accounts', () => {
  it(
    'says which networks need their app first, shows names and ' + 'unknown followers honestly, labels its inputs',
    async () => {
      const sql = app.t.server.sqlite;
      const li = addAccount(app.t, owner, 'problog').accountId;
      sql
        .prepare(
          "UPDATE accounts SET username = 'Jane Writer', display_name = 'Jane Writer', followers_count = 0 " +
            'WHERE id = ?',
        )
        .run(li);
      const threads = addAccount(app.t, owner, 'threadblog').accountId;
      const sky = addAccount(app.t, owner, 'skyblog').accountId;
      sql.prepare('UPDATE accounts SET followers_count = 42 WHERE id = ?').run(sky);
      await page().goto(`${app.origin}/#/accounts`);
      await page().locator(`tr[data-account="${li}"]`).waitFor();

      const liRow = page().locator(`tr[data-account="${li}"]`);
      expect(await liRow.locator('td[data-label="Account"]').textContent()).toBe('Jane Writer');
      expect(await liRow.locator('td[data-label="Followers"]').textContent()).toMatch(/not shared by LinkedIn/);
      expect(await page().locator(`tr[data-account="${threads}"] td[data-label="Followers"]`).textContent()).toMatch(
        /not read from Threads/,
      );
      expect(await page().locator(`tr[data-account="${sky}"] td[data-label="Followers"]`).textContent()).toBe('42');

      // No app set up on this install: none of the three offers a Connect that can only fail.
      for (const [p, name] of [
        ['microblog', 'X'],
        ['threadblog', 'Threads'],
        ['problog', 'LinkedIn'],
      ]) {
        const row = page().locator(`[data-app-network="${p}"]`);
        await expect(row.getByRole('button', { name: `Connect ${name}` }).isDisabled()).resolves.toBe(true);
        expect(await row.textContent()).toMatch(new RegExp(`${name} needs an app of yours set up first`));
        expect(await row.getByRole('link', { name: 'set it up on the Networks page' }).getAttribute('href')).toBe(
          '#/networks',
        );
      }
      expect(await page().locator('main').textContent()).not.toMatch(/Settings → Networks/);

      // Every input is named by a visible label, not only a placeholder.
      const unlabelled = await page().evaluate(() =>
        [...document.querySelectorAll('main input')]
          .filter((i) => !(i as HTMLInputElement).labels?.length)
          .map((i) => i.outerHTML.slice(0, 80)),
      );
      expect(unlabelled).toEqual([]);
      expect(await page().getByLabel('Mastodon instance').getAttribute('placeholder')).toBe('mastodon.social');
      expect(await unnamedControls(page())).toEqual([]);
      await both('86-accounts');
    },
  );
});

describe('API keys', () => {
  it("lists this browser's session apart from API keys, and asks before ending it", async () => {
    await app.t.call('POST', '/auth/api-keys', { key: await app.t.login(), body: { name: 'My scripts' } });
    await page().goto(`${app.origin}/#/keys`);
    const sessions = page().getByRole('region', { name: 'Browser sessions' });
    const keys = page().getByRole('region', { name: 'API keys' });
    await sessions.locator('tr[data-session="current"]').waitFor();
    expect(await sessions.locator('tr[data-session="current"]').textContent()).toMatch(/This browser/);
    await keys.locator('tr[data-key]').first().waitFor();
    expect(await keys.textContent()).toMatch(/My scripts/);
    // The browser's own sign-in is not among the API keys.
    expect(await keys.locator('tr[data-key]').count()).toBe(
      await keys.locator('tr[data-key]', { hasText: /My scripts|Default API Key/ }).count(),
    );
    expect(await sessions.textContent()).not.toMatch(/My scripts/);
    await both('87-keys-sessions');
    const before = app.dialogs.length;
    await sessions.locator('tr[data-session="current"]').getByRole('button', { name: 'Sign out here' }).click();
    await page().getByRole('form', { name: 'Sign in' }).waitFor();
    expect(app.dialogs.slice(before)).toEqual([
      expect.stringMatching(/^confirm: Sign out this browser\? Its session ends at once/),
    ]);
  });
});

describe('Calendar at 1280 × 800', () => {
  it('opens on the current week, and a long title does not stretch its day', async () => {
    const key = await app.t.login();
    await page().goto(`${app.origin}/`);
    await page().evaluate((k) => localStorage.setItem('herald.apiKey', k), key);
    const acc = addAccount(app.t, owner, 'fedblog').accountId;
    const insert = app.t.server.sqlite
      .prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts, error, url,
            published_at, created_at, updated_at)
      VALUES (?, ?, ?, ?, 'fedblog', 'published', 1, NULL, NULL, ?, ?, ?)`);
    // Three posts a day on every day from four weeks before this one to a week ago: the weeks above are full.
    const now = Date.now();
    for (let d = 28; d >= 7; d--) {
      for (const h of [9, 12, 15]) {
        const at = new Date(Math.floor((now - d * DAY) / DAY) * DAY + h * 3_600_000).toISOString();
        insert.run(`busy-${d}-${h}`, owner, null, acc, at, at, at);
      }
    }
    const title = `A very long title ${'that keeps going and going '.repeat(20)}`.slice(0, 500);
    const draft = (
      await app.t.call('POST', '/microblog/drafts', {
        key,
        body: { title, tweets: [{ content: 'long' }], selectedAccountIds: [acc] },
      })
    ).body.draft.id;
    const justNow = new Date(now - 60_000).toISOString();
    insert.run('long-title', owner, draft, acc, justNow, justNow, justNow);

    await page().setViewportSize({ width: 1280, height: 800 });
    await page().goto(`${app.origin}/#/calendar`);
    await page().reload();
    const today = page().locator('.calendar.month .day.today');
    await today.locator(`[data-item="${draft}"]`).waitFor();
    await expect
      .poll(
        async () => {
          const box = (await today.boundingBox())!;
          return box.y >= 0 && box.y + box.height <= 800;
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    const height = (await today.boundingBox())!.height;
    expect(height).toBeLessThan(200);
    expect(await today.locator(`[data-item="${draft}"]`).getAttribute('title')).toContain(title.trim());
    await app.shot('88-calendar-1280');
    await page().setViewportSize({ width: 390, height: 844 });
    await page().goto(`${app.origin}/#/accounts`);
    await page().goto(`${app.origin}/#/calendar`);
    await page().locator('.calendar.month .day.today').waitFor();
    await app.shot('88-calendar-390');
    await page().setViewportSize({ width: 1280, height: 800 });
  });
});

describe("a queue slot's post in the calendar", () => {
  it('networks jittered minutes apart across the hour are one card, in the month and week views', async () => {
    const key = await app.t.login();
    const fed = addAccount(app.t, owner, 'fedblog').accountId;
    const sky = addAccount(app.t, owner, 'skyblog').accountId;
    const draft = (
      await app.t.call('POST', '/microblog/drafts', {
        key,
        body: { title: 'Slot post', tweets: [{ content: 'at the slot' }], selectedAccountIds: [fed, sky] },
      })
    ).body.draft.id;
    const day = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    const r = await app.t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId: draft,
        applyJitter: false,
        targetAccounts: [
          { accountId: fed, scheduledFor: `${day}T08:58:00Z` },
          { accountId: sky, scheduledFor: `${day}T09:02:00Z` },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    const zone = (await app.t.call('GET', '/me', { key })).body.timezone;
    for (const view of ['month', 'week']) {
      await page().goto(`${app.origin}/#/calendar?date=${day}&view=${view}`);
      await page().reload();
      const cards = page().locator(`[data-testid="calendar"] [data-item="${draft}"]`);
      await cards.first().waitFor();
      expect({ view, zone, cards: await cards.count() }).toEqual({ view, zone, cards: 1 });
      expect(await cards.first().locator('[data-network]').count()).toBe(2);
    }
  });
});

describe('navigation', () => {
  it("at 390 px: a bar with the page's name and a Menu button that opens the pages", async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().goto(`${app.origin}/#/drafts`);
    const nav = page().locator('nav[aria-label="Main"]');
    await nav.waitFor();
    const menu = nav.getByRole('button', { name: 'Menu' });
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect((await nav.boundingBox())!.height).toBeLessThanOrEqual(64);
    expect(await nav.getByRole('link', { name: 'Calendar', exact: true }).isVisible()).toBe(false);
    // Nothing scrolls sideways inside the bar.
    expect(await nav.evaluate((n) => n.scrollWidth <= n.clientWidth)).toBe(true);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const links = nav.locator('a.nav-item');
    expect(await links.count()).toBe(13);
    for (const box of await links.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.right).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(40);
    }
    await app.shot('89-nav-open-390');
    await nav.getByRole('link', { name: 'Calendar', exact: true }).click();
    await expect.poll(() => page().url(), { timeout: 15_000 }).toMatch(/#\/calendar$/);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await app.shot('89-nav-closed-390');
  });

  it('at 1280 px: the links in the sidebar, no Menu button', async () => {
    await page().setViewportSize({ width: 1280, height: 800 });
    await page().goto(`${app.origin}/#/drafts`);
    const nav = page().locator('nav[aria-label="Main"]');
    await nav.waitFor();
    expect(await nav.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await nav.getByRole('link', { name: 'Calendar', exact: true }).isVisible()).toBe(true);
  });

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
  });
});
