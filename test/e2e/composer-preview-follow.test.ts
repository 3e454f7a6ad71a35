/**
 * The previews follow the post being edited (#34's composer, a long thread): on a wide window each
 * network's preview of a 25-post thread is a box of its own, and when a post's text box takes the
 * focus every box scrolls to that post as its network draws it, without moving the page; on a
 * narrow window the previews stay in the page under the editor. In real Chromium with an account
 * on each of the five networks; screenshots at 1280 and 390 px go to test-results/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath } from '../helpers/browser.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

const NETWORKS = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'];
const PARTS = 25;
let app: UiApp;
const page = () => app.page;
const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });

beforeAll(async () => {
  app = await startUiApp({ context: { reducedMotion: 'reduce' } });
  await app.t.login();
  const owner = userIdOf(app.t, OWNER.email);
  for (const p of NETWORKS) addAccount(app.t, owner, p);
  await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await signIn(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** Per network: whether its preview scrolls in a box, its offset, and whether post `part` is in the box's view. */
const screens = (part: number) =>
  page().evaluate((i) => {
    return [...document.querySelectorAll<HTMLElement>('[data-screen]')].map((s) => {
      const box = s.getBoundingClientRect();
      const shown = s.querySelectorAll<HTMLElement>('.pv-post')[i]?.getBoundingClientRect();
      return {
        network: s.dataset.screen,
        scrolls: s.scrollHeight > s.clientHeight + 1,
        scrollTop: Math.round(s.scrollTop),
        inView: Boolean(shown && shown.top >= box.top - 1 && shown.top < box.bottom - 40),
      };
    });
  }, part - 1);

/**
 * The page's scroll offset once it has stopped moving: the editors kept unrendered off screen
 * (content-visibility) take their real heights as they come into view, and Chromium keeps what is
 * on screen in place by scrolling, for a moment after a jump.
 */
async function settledScroll(): Promise<number> {
  let last = -1;
  for (;;) {
    const now = await page().evaluate(() => window.scrollY);
    if (now === last) return now;
    last = now;
    await page().waitForTimeout(300);
  }
}

describe('previews of a long thread', () => {
  it('follow the focused post in boxes of their own on a wide window, without moving the page', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await pressNew(page());
    const parts = Array.from(
      { length: PARTS },
      (_, i) => `Part ${i + 1}: a thread long enough that no preview shows all of it on one screen at once.`,
    );
    await page().evaluate((t) => navigator.clipboard.writeText(t), parts.join('\n---\n'));
    await post(1).focus();
    await page().keyboard.press('Control+v');
    await expect.poll(() => page().locator('[data-post] textarea').count()).toBe(PARTS);
    await expect
      .poll(() => page().locator('[data-screen] .pv-post').count(), { timeout: 15_000 })
      .toBe(PARTS * NETWORKS.length);

    const atStart = await screens(13);
    expect(atStart.map((s) => s.network).sort()).toEqual([...NETWORKS].sort());
    expect(atStart.filter((s) => !s.scrolls)).toEqual([]);
    expect(atStart.filter((s) => s.inView)).toEqual([]);

    // The 13th box on screen first, so focusing it needs no scroll of the page: only the previews move.
    await post(13).scrollIntoViewIfNeeded();
    const pageAt = await settledScroll();
    await post(13).focus();
    await expect.poll(async () => (await screens(13)).filter((s) => !s.inView).map((s) => s.network)).toEqual([]);
    expect(await page().evaluate(() => window.scrollY)).toBe(pageAt);
    await page().screenshot({ path: shotPath('composer-follow-1280') });

    // Back to the first post: every box is at its top again.
    await post(1).focus();
    await expect.poll(async () => (await screens(1)).map((s) => s.scrollTop)).toEqual(NETWORKS.map(() => 0));
  });

  it('stay in the page under the editor on a narrow window', async () => {
    await page().setViewportSize({ width: 390, height: 900 });
    await expect.poll(async () => (await screens(13)).filter((s) => s.scrolls).map((s) => s.network)).toEqual([]);
    const pageAt = await settledScroll();
    await post(13).focus();
    expect((await screens(13)).map((s) => s.scrollTop)).toEqual(NETWORKS.map(() => 0));
    await page().locator('[data-screen="microblog"]').scrollIntoViewIfNeeded();
    expect(await page().evaluate(() => window.scrollY)).not.toBe(pageAt);
    await settledScroll();
    await page().screenshot({ path: shotPath('composer-follow-390') });
  });
});
