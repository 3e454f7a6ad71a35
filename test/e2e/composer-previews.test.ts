/**
 * Network-true previews in the composer, in real Chromium (issue #22 items 1, 4, 6): each of the
 * five networks' previews against a screenshot kept in the repository, light and dark (pixel
 * tolerance; HERALD_UPDATE_SCREENSHOTS=1 rewrites them); text drawn as each network draws it
 * (links, mentions, hashtags, X's and Mastodon's 23-character links, LinkedIn's "…see more");
 * overflow marked from the exact character; image grids with ALT badges; thread lines. The rules
 * shown before publishing and Ctrl+Enter's confirmation are in composer-previews-rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { shotPath } from '../helpers/browser.js';
import {
  addImages,
  app,
  FIRST,
  LINK,
  NETWORKS,
  newDraft,
  page,
  post,
  preview,
  SECOND,
  usePreviewsWorld,
} from '../helpers/previews-world.js';
import { matchScreenshot } from '../helpers/screenshot.js';
import { countText } from '../../text/index.js';

usePreviewsWorld();

/** Every image on the page has loaded (or failed): screenshots are taken of finished pictures. */
const imagesLoaded = () => page().evaluate(() => [...document.images].every((i) => i.complete));

describe('previews that look like the networks', () => {
  it('each network, light and dark, matches its screenshot', async () => {
    await newDraft();
    await post(1).fill(FIRST);
    await addImages(
      1,
      [
        [79, 70, 229],
        [234, 88, 12],
      ],
      ['A purple square', ''],
    );
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(2).fill(SECOND);
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(3).fill('Try it. #herald');
    await addImages(
      3,
      [
        [22, 163, 74],
        [14, 165, 233],
        [250, 204, 21],
      ],
      ['Green', 'Blue', 'Yellow'],
    );
    await page().getByLabel('Title').focus();
    await expect.poll(imagesLoaded).toBe(true);
    const failures: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page().evaluate((t) => {
        document.documentElement.dataset.theme = t;
      }, theme);
      for (const p of NETWORKS) {
        const screen = page().locator(`[data-screen="${p}"]`);
        // A fixed width, so the baseline does not depend on the page's layout around it.
        await screen.evaluate((el) => {
          (el as HTMLElement).style.width = '440px';
        });
        const r = await matchScreenshot(screen, `preview-${p}-${theme}`);
        if (r.ratio > 0)
          failures.push(
            `${p} ${theme}: ${(r.ratio * 100).toFixed(2)}% of pixels differ (${r.size} vs ${r.baselineSize})`,
          );
        await screen.evaluate((el) => {
          (el as HTMLElement).style.width = '';
        });
      }
      for (const width of [1280, 390]) {
        await page().setViewportSize({ width, height: 900 });
        await app.shot(`preview-compose-${width}-${theme}`);
        const overflow = await page().evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `horizontal overflow at ${width} px (${theme})`).toBeLessThanOrEqual(0);
      }
      await page().setViewportSize({ width: 1280, height: 800 });
    }
    await page().evaluate(() => {
      document.documentElement.dataset.theme = 'light';
    });
    expect(failures).toEqual([]);
  }, 120_000);

  it("the account's name, handle and initials; links, mentions and hashtags as each network shows them", async () => {
    const head = (p: string) => preview(p).locator('.pv-head').first().textContent();
    await expect(head('microblog')).resolves.toBe('Ada Lovelace @ada · now');
    await expect(head('fedblog')).resolves.toContain('@ada@mastodon.example');
    await expect(head('threadblog')).resolves.toContain('ada.lovelace');
    await expect(preview('microblog').locator('.pv-initials').first().textContent()).resolves.toBe('AL');
    // X shows the link shortened (and counts it 23); Mastodon counts 23 too; LinkedIn shows it whole.
    const url = (p: string) => preview(p).locator('[data-bubble="0"] [data-entity="url"]').first();
    await expect(url('microblog').textContent()).resolves.toBe('example.com/blog/launc…');
    await expect(url('microblog').getAttribute('title')).resolves.toBe(LINK);
    await expect(url('fedblog').textContent()).resolves.toBe('example.com/blog/launching-her…');
    await expect(url('problog').textContent()).resolves.toBe(LINK);
    const count = (p: string) => preview(p).locator('[data-bubble="0"] .pv-count').textContent();
    await expect(count('microblog')).resolves.toMatch(new RegExp(`^${countText('microblog', FIRST).count}/280`));
    expect(countText('microblog', FIRST).count).toBe(FIRST.length - LINK.length + 23);
    await expect(count('fedblog')).resolves.toMatch(new RegExp(`^${FIRST.length - LINK.length + 23}/500`));
    await expect(count('skyblog')).resolves.toMatch(new RegExp(`^${FIRST.length}/300`));
    const kinds = (p: string) =>
      preview(p)
        .locator('[data-bubble="0"] [data-entity]')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-entity')}:${e.textContent}`));
    await expect(kinds('microblog')).resolves.toEqual([
      'url:example.com/blog/launc…',
      'mention:@alice',
      'hashtag:#opensource',
    ]);
    // LinkedIn: a typed @name stays text.
    await expect(kinds('problog')).resolves.toEqual([`url:${LINK}`, 'hashtag:#opensource']);
    // Thread lines join the parts on networks with threads; LinkedIn gets a post and its comments.
    await expect(preview('microblog').locator('[data-thread-line]').count()).resolves.toBe(2);
    await expect(preview('threadblog').locator('[data-thread-line]').count()).resolves.toBe(2);
    await expect(preview('problog').locator('[data-bubble]').count()).resolves.toBe(3);
    await expect(preview('problog').locator('[data-comment]').count()).resolves.toBe(2);
    await expect(preview('problog').locator('[data-thread-line]').count()).resolves.toBe(0);
    await expect(preview('problog').locator('h3').textContent()).resolves.toContain('1 post, 2 comments');
    // A comment counts against LinkedIn's 1,250 characters, the post against 3,000.
    const liCount = (i: number) => preview('problog').locator(`[data-bubble="${i}"] .pv-count`).textContent();
    await expect(liCount(0)).resolves.toMatch(/^\d+\/3000/);
    await expect(liCount(1)).resolves.toMatch(new RegExp(`^${SECOND.length}/1250`));
  });

  it('LinkedIn folds long text behind "…see more", which unfolds it', async () => {
    const li = preview('problog');
    // The post is the first part only (the others are its comments): a long first part folds.
    await expect(li.locator('[data-see-more]').count()).resolves.toBe(0);
    await post(1).fill(`${FIRST}\n\n${SECOND}`);
    await expect(li.locator('[data-see-more]').textContent()).resolves.toBe('…see more');
    const folded = await li.locator('.pv-text').first().textContent();
    expect(folded!.length).toBeLessThanOrEqual(210);
    expect(`${FIRST}\n\n${SECOND}`.startsWith(folded!)).toBe(true);
    await li.locator('[data-see-more]').click();
    await expect.poll(() => li.locator('[data-see-more]').count()).toBe(0);
    await expect(li.locator('.pv-text').first().textContent()).resolves.toContain('post by post, in plain words.');
    // The third part is the second comment, not part of the post.
    await expect(li.locator('[data-comment="2"] .pv-text').textContent()).resolves.toContain('Try it.');
    await post(1).fill(FIRST);
  });

  it('a thread on LinkedIn is drawn as its post and the comments under it, at 390 and 1280 px', async () => {
    const li = preview('problog');
    for (const width of [390, 1280]) {
      // Tall enough to show the post and both comments.
      await page().setViewportSize({ width, height: 1400 });
      await li.locator('[data-comment="1"]').scrollIntoViewIfNeeded();
      await li.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      const box = (await li.locator('[data-comment="2"]').boundingBox())!;
      expect(box.x + box.width, `the last comment fits ${width} px`).toBeLessThanOrEqual(width);
      await page().screenshot({ path: shotPath(`compose-linkedin-thread-${width}`) });
    }
    await page().setViewportSize({ width: 1280, height: 800 });
    await page().evaluate(() => window.scrollTo(0, 0));
  });

  it('image grids of 1, 2, 3 and 4 (Threads side by side), with ALT badges where alt text exists', async () => {
    const grid = (p: string, i: number) => preview(p).locator(`[data-bubble="${i}"] .pv-media`);
    await expect(grid('microblog', 0).getAttribute('data-grid')).resolves.toBe('2');
    await expect(grid('microblog', 2).getAttribute('data-grid')).resolves.toBe('3');
    await expect(grid('threadblog', 2).getAttribute('data-grid')).resolves.toBe('carousel');
    await expect(grid('problog', 0).getAttribute('data-grid')).resolves.toBe('5');
    await expect(preview('microblog').locator('[data-bubble="0"] [data-alt-badge]').count()).resolves.toBe(1);
    await expect(preview('microblog').locator('[data-bubble="2"] [data-alt-badge]').count()).resolves.toBe(3);
    await expect(preview('microblog').locator('[data-bubble="0"] .pv-count').textContent()).resolves.toContain(
      '2 media (add alt text)',
    );
    await addImages(2, [[0, 0, 0]]);
    await expect(grid('microblog', 1).getAttribute('data-grid')).resolves.toBe('1');
    await addImages(2, [
      [40, 40, 40],
      [80, 80, 80],
      [120, 120, 120],
    ]);
    await expect(grid('microblog', 1).getAttribute('data-grid')).resolves.toBe('4');
    // Tiles really form the grid: four equal quarters.
    const boxes = await grid('microblog', 1)
      .locator('.pv-tile')
      .evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return [Math.round(r.width), Math.round(r.height)];
        }),
      );
    expect(new Set(boxes.map((b) => b.join('x'))).size).toBe(1);
  });
});

describe('overflow marked from the exact character', () => {
  it('X at 280, Bluesky at 300 (graphemes), Threads counting emoji bytes', async () => {
    await newDraft();
    const text = 'a'.repeat(278) + 'bc' + 'OVER' + 'd'.repeat(20);
    await post(1).fill(text);
    const over = (p: string) =>
      preview(p)
        .locator('[data-overflow]')
        .allTextContents()
        .then((a) => a.join(''));
    await expect.poll(() => over('microblog')).toBe('OVER' + 'd'.repeat(20));
    await expect(preview('microblog').locator('.pv-text').getAttribute('data-overflow-at')).resolves.toBe('280');
    await expect(over('skyblog')).resolves.toBe('d'.repeat(4));
    await expect(preview('fedblog').locator('[data-overflow]').count()).resolves.toBe(0);
    await post(1).fill('é'.repeat(299) + '😀😀x');
    // Bluesky: from the 301st grapheme cluster.
    await expect.poll(() => over('skyblog')).toBe('😀x');
    await post(1).fill('a'.repeat(498) + '😀 tail');
    await expect.poll(() => over('threadblog')).toBe('😀 tail');
    await expect(preview('threadblog').locator('.pv-count').textContent()).resolves.toMatch(/^507\/500/);
    // A link crossing X's limit is marked whole.
    await post(1).fill('b'.repeat(270) + ' ' + LINK);
    await expect.poll(() => preview('microblog').locator('[data-overflow] [data-entity="url"]').count()).toBe(1);
  });
});
