/**
 * The composer with a 100,000-character post (issue #19 item 1: it froze 74 s per keystroke on
 * dotted text), in real Chromium, with an account on each of the five networks so every
 * keystroke counts the post for all of them: the time from a keystroke to the previews showing
 * the new count. The composer bar of docs/decisions.md §20.3 (p95 ≤ 16 ms) is for 10k-character posts; for 100k
 * this asserts it stays well under a second and reports the figure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { longText } from '../helpers/hard-text.js';
import { OWNER } from '../helpers/server.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { reportFigure } from '../reliability/quality.js';

let app: UiApp;

beforeAll(async () => {
  app = await startUiApp();
  await app.t.login();
  const owner = userIdOf(app.t, OWNER.email);
  for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog']) addAccount(app.t, owner, p);
  await signIn(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** ms from a keydown of `key` to the X preview showing `want` as its count. */
async function keystroke(key: string, want: string): Promise<number> {
  const page = app.page;
  await page.evaluate((w) => {
    const win = window as unknown as { __t0?: number; __dt?: number };
    win.__t0 = undefined;
    win.__dt = undefined;
    document.addEventListener(
      'keydown',
      () => {
        win.__t0 = performance.now();
      },
      { capture: true, once: true },
    );
    const target = document.querySelector('[data-preview="microblog"]')!;
    const obs = new MutationObserver(() => {
      if (win.__t0 !== undefined && (target.querySelector('[data-bubble] .small')?.textContent ?? '').startsWith(w)) {
        win.__dt = performance.now() - win.__t0;
        obs.disconnect();
      }
    });
    obs.observe(target, { subtree: true, childList: true, characterData: true });
  }, want);
  await page.keyboard.press(key);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __dt?: number }).__dt), { timeout: 60_000 })
    .toBeGreaterThan(0);
  return page.evaluate(() => (window as unknown as { __dt: number }).__dt);
}

describe('a 100,000-character post in the composer', () => {
  it('dotted text: each keystroke updates the previews for five networks well within a second', async () => {
    const page = app.page;
    await pressNew(page);
    await page.getByRole('heading', { name: 'New draft' }).waitFor();
    for (const p of ['X', 'Bluesky', 'Mastodon', 'Threads', 'LinkedIn'])
      await expect
        .poll(() =>
          page
            .locator('[data-preview]')
            .allTextContents()
            .then((a) => a.some((s) => s.startsWith(p))),
        )
        .toBe(true);
    const box = page.getByRole('textbox', { name: 'Post 1', exact: true });
    const text = longText('dotted', 100_000);
    await box.fill(text);
    await expect
      .poll(() => page.locator('[data-preview="microblog"] [data-bubble] .small').first().textContent(), {
        timeout: 60_000,
      })
      .toMatch(/^100000\//);
    await box.focus();
    await page.keyboard.press('End');
    const times: number[] = [];
    // Type "x" then delete it, ten times: the count goes 100001, 100000, …
    for (let i = 0; i < 10; i++) {
      times.push(await keystroke('x', '100001/'));
      times.push(await keystroke('Backspace', '100000/'));
    }
    expect(await box.inputValue()).toBe(text);
    const sorted = [...times].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)];
    const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1];
    reportFigure(
      'Composer',
      `100k dotted post, 5 networks: keystroke → preview p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, ` +
        `max ${sorted[sorted.length - 1].toFixed(0)} ms (${times.length} keystrokes)`,
    );
    expect(p95).toBeLessThan(1000);
    expect(app.problems).toEqual([]);
  }, 180_000);
});
