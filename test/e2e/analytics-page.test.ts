/**
 * The Analytics page in real Chromium with a seeded history (200 published posts over 60 days on
 * three networks): totals, the top posts with a chart per metric over time, per network and week
 * totals and the best days and hours in the user's zone (America/New_York; the browser in
 * Berlin), the filters, at 1280 and 390 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { seedAnalytics } from '../helpers/analytics-seed.js';
import { shotPath } from '../helpers/browser.js';

let app: UiApp;
let key: string;
const page = () => app.page;

beforeAll(async () => {
  app = await startUiApp({ server: { scheduler: false, settings: { HERALD_TIME_ZONE: 'America/New_York' } } });
  key = await signIn(app, '#/analytics');
  const owner = userIdOf(app.t, OWNER.email);
  const accounts = ['skyblog', 'fedblog', 'threadblog'].map((p) => ({
    id: addAccount(app.t, owner, p).accountId,
    platform: p,
  }));
  seedAnalytics(app.t.server.sqlite, { userId: owner, accounts, count: 200, days: 60 });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('Analytics page', () => {
  it('shows totals, top posts with charts, weekly totals and the heatmap; filters narrow them', async () => {
    // The best post came from a titled draft: it is named by the title; the others by their first words.
    const month = '/analytics/posts?limit=10000&from=' + new Date(Date.now() - 30 * 86_400_000).toISOString();
    const all = (await app.t.call('GET', month, { key })).body.posts as any[];
    const [first, second] = [...all].sort((a, b) => eng(b) - eng(a));
    const d = await app.t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'Morning thread: what worked', tweets: [{ content: 'x' }] },
    });
    app.t.server.sqlite
      .prepare('UPDATE publications SET draft_id = ? WHERE id = ?')
      .run(d.body.draft.id, first.publicationId);
    await page().goto(`${app.origin}/#/analytics`);
    await page().reload();
    const totals = page().locator('[data-totals]');
    await totals.waitFor();
    const api = (
      await app.t.call(
        'GET',
        '/analytics/posts?limit=10000&from=' + new Date(Date.now() - 30 * 86_400_000).toISOString(),
        { key },
      )
    ).body.posts as any[];
    expect(api.length).toBeGreaterThan(50);
    const likes = api.reduce((n, p) => n + (p.metrics.likes ?? 0), 0);
    expect(await totals.locator('[data-total="likes"] strong').textContent()).toBe(String(likes));

    // Top posts: the best first; its charts come from its reads.
    const top = page().locator('[data-top]').first();
    const best = [...api].sort((a, b) => eng(b) - eng(a))[0];
    expect(await top.getAttribute('data-top')).toBe(best.publicationId);
    expect(best.publicationId).toBe(first.publicationId);
    expect(await top.locator('[data-title]').textContent()).toBe('Morning thread: what worked');
    const n = second.publicationId.replace('seed-', '');
    expect(await page().locator(`[data-top="${second.publicationId}"] [data-title]`).textContent()).toBe(
      `Seeded post number ${n} about something worth reading, with a…`,
    );
    await top.getByRole('button', { name: 'Charts' }).click();
    await top.locator('[data-metric="Likes"] canvas').waitFor();
    expect(await top.locator('[data-metric]').count()).toBeGreaterThanOrEqual(3);

    // The heatmap counts every post once, in New York's hours.
    const cells = page().locator('.heat-cell');
    expect(await cells.count()).toBe(7 * 24);
    const counted = await cells.evaluateAll((els) => els.reduce((n, e) => n + Number(e.getAttribute('data-posts')), 0));
    expect(counted).toBe(api.length);
    // Its legend: the shades run from 0 to the busiest hour's average engagement.
    const legend = page().locator('[data-heat-legend]');
    expect(await legend.locator('.heat-swatch').count()).toBe(6);
    expect(Number(await legend.locator('[data-heat-max]').textContent())).toBeGreaterThan(0);
    expect(await page().locator('[data-week]').count()).toBeGreaterThan(3);
    await app.shot('analytics-1280-light');

    await page().locator('[data-filter="network"]').selectOption('fedblog');
    await expect
      .poll(() =>
        page()
          .locator('[data-week]')
          .evaluateAll((r) => [...new Set(r.map((e) => e.getAttribute('data-platform')))]),
      )
      .toEqual(['fedblog']);
    await page().locator('[data-filter="time"]').selectOption('');
    await page().locator('[data-filter="network"]').selectOption('');
    await page().emulateMedia({ colorScheme: 'dark' });
    await app.page.evaluate(() => localStorage.setItem('herald.theme', 'dark'));
    await page().reload();
    await page().locator('[data-totals]').waitFor();
    await page().locator('[data-top]').first().getByRole('button', { name: 'Charts' }).click();
    await page().locator('[data-top] [data-metric="Likes"] canvas').first().waitFor();
    await app.shot('analytics-1280-dark');
    expect(app.problems).toEqual([]);
  });

  it('works at 390 px, light and dark, without sideways scrolling of the page', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    for (const scheme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme: scheme });
      await app.page.evaluate((s) => localStorage.setItem('herald.theme', s), scheme);
      await page().reload();
      await page().locator('[data-totals]').waitFor();
      await page().locator('[data-top]').first().getByRole('button', { name: 'Charts' }).click();
      await page().locator('[data-top] [data-metric="Likes"] canvas').first().waitFor();
      const wide = await page().evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(390);
      await app.shot(`analytics-390-${scheme}`);
      await page().screenshot({ path: shotPath(`analytics-390-${scheme}-screen`) });
    }
    expect(app.problems).toEqual([]);
  });
});

const eng = (p: any) =>
  (p.metrics.likes ?? 0) + (p.metrics.reposts ?? 0) + (p.metrics.replies ?? 0) + (p.metrics.quotes ?? 0);
