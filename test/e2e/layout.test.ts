/**
 * No page scrolls sideways, at 390 (a phone), 768 (a tablet) and 1280 px, with data that breaks a
 * layout that cannot wrap (long titles without spaces, long URLs, long names): for every hash
 * route of the app, document.scrollingElement.scrollWidth <= clientWidth once the page has
 * loaded. The check itself is shown to catch an overflow. The sidebar stays in view when the
 * page scrolls. Screenshots at 390 and 1280 px, light and dark, of every page (and 768 px, light).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_IDS } from '../../renderer/src/router.js';
import type { UiApp } from '../helpers/ui-app.js';
import { overflowsSideways, startViewsApp, type ViewsWorld } from '../helpers/views-data.js';

let app: UiApp;
let w: ViewsWorld;
const page = () => app.page;
const WIDTHS = [390, 768, 1280];

/** Opens a route and waits until its data is shown (no loading state left). */
async function open(hash: string, date?: string) {
  await page().goto(`${app.origin}/#/${hash}${hash === 'calendar' && date ? `?date=${date}` : ''}`);
  await page().locator('main h1').waitFor();
  await page().waitForLoadState('networkidle');
  await expect.poll(() => page().locator('[data-loading]').count()).toBe(0);
}

beforeAll(async () => {
  ({ app, w } = await startViewsApp());
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('no horizontal scroll', () => {
  it('the check catches a page wider than the window', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await open('drafts');
    await page().evaluate(() => {
      const d = document.createElement('div');
      d.id = 'too-wide';
      d.style.width = '2000px';
      d.style.height = '1px';
      document.querySelector('main')!.append(d);
    });
    const r = await overflowsSideways(page());
    expect(r.scrollWidth).toBeGreaterThan(r.clientWidth);
    await page().evaluate(() => document.getElementById('too-wide')!.remove());
  });

  for (const width of WIDTHS) {
    it(`every page at ${width} px, with long titles and URLs`, async () => {
      await page().setViewportSize({ width, height: 900 });
      expect(PAGE_IDS.length).toBeGreaterThanOrEqual(12);
      for (const id of PAGE_IDS) {
        await open(id, w.date);
        const r = await overflowsSideways(page());
        expect({ id, width, ...r }).toEqual({
          id,
          width,
          scrollWidth: r.clientWidth,
          clientWidth: r.clientWidth,
          widest: undefined,
        });
      }
    }, 90_000);
  }

  it('the data is there: the long title and link are on the pages', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await open('queue');
    await expect(page().locator('.queue-title').first().textContent()).resolves.toContain('Supercalifragilistic');
    await open('history');
    await expect(page().locator('a[data-link="microblog"]').first().getAttribute('href')).resolves.toMatch(
      /^https:\/\/x\.example\/status\//,
    );
  });

  it('the sidebar stays in view when a long page scrolls', async () => {
    await page().setViewportSize({ width: 1280, height: 500 });
    await open('networks');
    await page().evaluate(() => window.scrollTo(0, 2000));
    await expect.poll(() => page().evaluate(() => window.scrollY)).toBeGreaterThan(200);
    const top = await page()
      .locator('nav[aria-label="Main"]')
      .evaluate((n) => n.getBoundingClientRect().top);
    expect(top).toBe(0);
    await expect(page().getByRole('link', { name: 'Calendar', exact: true }).isVisible()).resolves.toBe(true);
  });
});

describe('screenshots', () => {
  it('every page at 390 and 1280 px, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1280]) {
        await page().setViewportSize({ width, height: width === 390 ? 844 : 900 });
        for (const id of PAGE_IDS) {
          await open(id, w.date);
          await app.shot(`70-${id}-${width}-${scheme}`);
        }
      }
    }
  }, 180_000);

  it('every page at 768 px, light', async () => {
    await page().emulateMedia({ colorScheme: 'light' });
    await page().setViewportSize({ width: 768, height: 1000 });
    for (const id of PAGE_IDS) {
      await open(id, w.date);
      await app.shot(`70-${id}-768-light`);
    }
  }, 90_000);

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
  });
});
