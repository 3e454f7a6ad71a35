/**
 * Network-true previews in the composer, in real Chromium (issue #22 items 1, 4, 6): each of the
 * five networks' previews against a screenshot kept in the repository, light and dark (pixel
 * tolerance; HERALD_UPDATE_SCREENSHOTS=1 rewrites them); text drawn as each network draws it
 * (links, mentions, hashtags, X's and Mastodon's 23-character links, LinkedIn's "…see more");
 * overflow marked from the exact character; image grids with ALT badges; thread lines; the rules
 * shown before publishing with one-click splits (image sizes also for a reopened draft's media);
 * Ctrl+Enter's confirmation and the "?" list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { gif } from '../helpers/media-files.js';
import { pngBytes } from '../helpers/png.js';
import { shotPath } from '../helpers/browser.js';
import { matchScreenshot } from '../helpers/screenshot.js';
import { OWNER } from '../helpers/server.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';
import { countText } from '../../text/index.js';

let app: UiApp;
let owner: string;
let smallSet: string;
const NETWORKS = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const;
const NAMES = {
  microblog: 'Ada Lovelace',
  skyblog: 'Ada Lovelace',
  fedblog: 'Ada',
  threadblog: 'Ada Lovelace',
  problog: 'Ada Lovelace',
};
const HANDLES = {
  microblog: 'ada',
  skyblog: 'ada.bsky.social',
  fedblog: 'ada',
  threadblog: 'ada.lovelace',
  problog: 'ada-lovelace',
};

const page = () => app.page;
const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
const preview = (p: string) => page().locator(`[data-preview="${p}"]`);
const sql = (q: string, ...args: unknown[]) => app.t.server.sqlite.prepare(q).run(...args);

async function newDraft() {
  await page().keyboard.press('Control+n');
  await page().getByRole('heading', { name: 'New draft' }).waitFor();
  await expect.poll(() => page().locator('[data-post] textarea').count()).toBe(1);
}

async function addImages(i: number, colours: [number, number, number][], alts: string[] = []) {
  const before = await page()
    .locator(`[data-post="${i - 1}"] [data-media]`)
    .count();
  await page()
    .getByLabel(`Add media to post ${i}`)
    .setInputFiles(
      colours.map((c, k) => ({ name: `img${k}.png`, mimeType: 'image/png', buffer: pngBytes(160, 90, c) })),
    );
  await expect
    .poll(() =>
      page()
        .locator(`[data-post="${i - 1}"] [data-media]`)
        .count(),
    )
    .toBe(before + colours.length);
  for (const [k, alt] of alts.entries())
    if (alt)
      await page()
        .getByLabel(`Alt text for media ${before + k + 1} of post ${i}`)
        .fill(alt);
}

/** Every image on the page has loaded (or failed): screenshots are taken of finished pictures. */
const imagesLoaded = () => page().evaluate(() => [...document.images].every((i) => i.complete));

beforeAll(async () => {
  app = await startUiApp({ context: { reducedMotion: 'reduce' } });
  await app.t.login();
  owner = userIdOf(app.t, OWNER.email);
  for (const p of NETWORKS) {
    const { accountId } = addAccount(app.t, owner, p);
    sql(
      'UPDATE accounts SET username = ?, display_name = ?, server_url = ? WHERE id = ?',
      HANDLES[p],
      NAMES[p],
      p === 'fedblog' ? 'https://mastodon.example' : null,
      accountId,
    );
  }
  // A second set: a Mastodon instance with its own limits, and Threads.
  const small = addAccount(app.t, owner, 'fedblog', {
    mode: 'create_new',
    meta: { max_characters: 1000, characters_reserved_per_url: 30, max_media_attachments: 2 },
  });
  smallSet = small.socialSetId;
  sql('UPDATE accounts SET server_url = ? WHERE id = ?', 'https://small.example', small.accountId);
  addAccount(app.t, owner, 'threadblog', { socialSetId: smallSet });
  await signIn(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const LINK = 'https://example.com/blog/launching-herald-a-local-first-publisher';
const FIRST =
  `Launching Herald today: write once, publish to every network. Read the story at ${LINK} with @alice and ` +
  `#opensource`;
const SECOND =
  'Everything stays on your computer: drafts, media and tokens in the keychain. ' +
  'It schedules, retries and tells you what happened on each network, post by post, in plain words. '.repeat(3);

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

describe('network rules before publishing', () => {
  it("lists each network's rules; one click splits what is too long into a thread", async () => {
    await newDraft();
    await post(1).fill(SECOND + SECOND);
    const rules = (p: string) => page().locator(`[data-rules="${p}"]`);
    await expect(rules('microblog').textContent()).resolves.toContain(
      '280 characters per post, every link counts 23 characters; up to 4 images per post of 5 MB each; threads',
    );
    await expect(rules('problog').textContent()).resolves.toContain(
      'no threads: later posts go as comments on the first, 1,250 characters each',
    );
    await expect(rules('microblog').locator('[data-rule-issue="length"]').textContent()).resolves.toContain(
      '1 post is too long for X',
    );
    await rules('microblog').getByRole('button', { name: 'Split into a thread' }).click();
    await expect.poll(() => page().locator('[data-post] textarea').count()).toBeGreaterThan(2);
    await expect(page().locator('[data-rule-issue="length"]').count()).resolves.toBe(0);
    for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog'])
      await expect(preview(p).locator('h3').textContent()).resolves.toMatch(/\d+ posts$/);
    // The parts put back together are the text.
    const parts = await page()
      .locator('[data-post] textarea')
      .evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
    expect(parts.join(' ').replace(/\s+/g, ' ')).toBe((SECOND + SECOND).trim().replace(/\s+/g, ' '));
  });

  it('a network with its own text gets its own split', async () => {
    await newDraft();
    await post(1).fill('Short for everyone.');
    await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
    await page()
      .getByLabel('Mastodon text')
      .fill('m'.repeat(200) + ' ' + 'Toots are long. '.repeat(30));
    const rules = page().locator('[data-rules="fedblog"]');
    await rules.getByRole('button', { name: 'Split into a thread' }).click();
    await expect.poll(() => preview('fedblog').locator('[data-bubble]').count()).toBe(2);
    await expect(page().getByLabel('Mastodon text').inputValue()).resolves.toContain('\n---\n');
    await expect(preview('microblog').locator('[data-bubble]').count()).resolves.toBe(1);
    await expect(page().locator('[data-post] textarea').count()).resolves.toBe(1);
    await page().getByRole('button', { name: 'Close' }).click();
  });

  it(
    "a Mastodon instance's own limits; a split offer when a post has more images than it takes; Threads needs " +
      'public media',
    async () => {
      await newDraft();
      await page().getByLabel('Social set').selectOption(smallSet);
      await post(1).fill('Three pictures from the launch.');
      const rules = (p: string) => page().locator(`[data-rules="${p}"]`);
      await expect(rules('fedblog').textContent()).resolves.toContain(
        '1,000 characters per post, every link counts 30 characters; up to 2 images per post',
      );
      await expect(rules('fedblog').textContent()).resolves.toContain('(the limits of small.example)');
      await expect(page().locator('[data-counter="fedblog"]').textContent()).resolves.toBe('Mastodon 31/1000');
      await addImages(
        1,
        [
          [200, 0, 0],
          [0, 200, 0],
          [0, 0, 200],
        ],
        ['Red', 'Green', 'Blue'],
      );
      await expect(rules('fedblog').locator('[data-rule-issue="images"]').textContent()).resolves.toContain(
        'Post 1 has 3 media; Mastodon takes 2 per post.',
      );
      // Threads cannot take images kept in Herald without a media relay: said before publishing, not after.
      await expect(rules('threadblog').locator('[data-rule-issue="public-media"]').textContent()).resolves.toContain(
        'set up a media relay in Settings',
      );
      await expect(preview('threadblog').locator('[data-preview-warning]').textContent()).resolves.toContain(
        'set up a media relay in Settings',
      );
      await expect(preview('fedblog').locator('[data-preview-warning]').count()).resolves.toBe(0);
      await rules('fedblog').getByRole('button', { name: 'Split the images into a thread' }).click();
      await expect
        .poll(() =>
          page()
            .locator('[data-post]')
            .evaluateAll((els) => els.map((e) => e.querySelectorAll('[data-media]').length)),
        )
        .toEqual([2, 1]);
      await expect(page().locator('[data-rule-issue="images"]').count()).resolves.toBe(0);
      // The confirmation says Threads would fail and offers the others.
      await post(1).press('Control+Enter');
      const dialog = page().getByRole('dialog', { name: 'Publish now?' });
      await dialog.waitFor();
      await expect(dialog.locator('[data-confirm-target="threadblog"]').textContent()).resolves.toContain('would fail');
      await expect(dialog.getByRole('button', { name: 'Publish to the others' }).isVisible()).resolves.toBe(true);
      await page().keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      // So does the button: a post that would fail somewhere is never sent without asking.
      await page().getByRole('button', { name: 'Publish now' }).click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    },
  );

  it(
    "a reopened draft's media are sized too: a GIF over Bluesky's cap is named; a large photo is not (Herald " +
      'makes it smaller)',
    async () => {
      // Media rows and files as an upload leaves them (the sizes come from the server: a draft's
      // media refs carry none).
      const dir = path.join(app.t.server.deps.config.dataDir, 'media');
      const stored = (id: string, type: 'image' | 'gif', bytes: Buffer) => {
        fs.writeFileSync(path.join(dir, `${id}.bin`), bytes);
        sql(
          'INSERT INTO media (id, user_id, file_name, type, mime, size, width, height, alt_text, created_at) ' +
            'VALUES (?, ?, ?, ?, ?, ?, 64, 64, ?, ?)',
          id,
          owner,
          `${id}.bin`,
          type,
          type === 'gif' ? 'image/gif' : 'image/png',
          bytes.length,
          'a picture',
          new Date().toISOString(),
        );
      };
      stored(
        'mediabiggif0000000000000001',
        'gif',
        Buffer.concat([gif(64, 64), Buffer.alloc(2_621_440 - gif(64, 64).length)]),
      );
      stored(
        'mediabigphoto00000000000001',
        'image',
        Buffer.concat([pngBytes(64, 64, [200, 100, 0]), Buffer.alloc(3 * 1024 * 1024)]),
      );
      const key = await app.t.login();
      const made = await app.t.call('POST', '/microblog/drafts', {
        key,
        body: {
          title: 'Sized media',
          tweets: [
            {
              content: 'Look',
              media: [{ mediaId: 'mediabigphoto00000000000001' }, { mediaId: 'mediabiggif0000000000000001' }],
            },
          ],
        },
      });
      expect(made.status, made.text).toBe(200);
      await page().goto(`${app.origin}/#/compose?draft=${made.body.draft.id}`);
      const issue = page().locator('[data-rules="skyblog"] [data-rule-issue="size"]');
      await issue.waitFor();
      await expect(issue.allTextContents()).resolves.toEqual([
        "Media 2 of post 1, a GIF of 2.5 MB, is over Bluesky's 954 KB per image; Herald makes photos smaller, " +
          'not animated GIFs.',
      ]);
      // X takes the 3 MB photo and the 2.5 MB GIF as they are.
      await expect(page().locator('[data-rules="microblog"] [data-rule-issue="size"]').count()).resolves.toBe(0);
      await page().locator('[data-rules="skyblog"]').scrollIntoViewIfNeeded();
      await app.shot('36-composer-rules-sized-media-1280');
    },
  );
});

describe('keyboard', () => {
  it('Ctrl+Enter opens the publish confirmation and never publishes at once; Esc closes it', async () => {
    await newDraft();
    await post(1).fill('Sent only when confirmed.');
    // Autosave may keep the draft; nothing is published without confirming.
    const drafts = () =>
      app.t.server.sqlite.prepare("SELECT count(*) AS n FROM drafts WHERE status != 'draft'").get() as {
        n: number;
      };
    const before = drafts().n;
    await post(1).press('Control+Enter');
    const dialog = page().getByRole('dialog', { name: 'Publish now?' });
    await dialog.waitFor();
    await expect(dialog.locator('[data-confirm-target]').count()).resolves.toBe(5);
    await expect(dialog.locator('[data-confirm-target="microblog"]').textContent()).resolves.toBe('X @ada: 1 post');
    // Focus is in the dialog, on Publish.
    await expect(page().evaluate(() => document.activeElement?.getAttribute('data-action'))).resolves.toBe(
      'confirm-publish',
    );
    await app.shot('preview-confirm-publish');
    expect(drafts().n).toBe(before); // nothing sent
    await page().keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    // Focus returns to where it was.
    await expect(page().evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Post 1');
    expect(drafts().n).toBe(before);
    // Cancel closes it too.
    await page().keyboard.press('Control+Enter');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('"?" lists the shortcuts (not while typing); Esc closes the list', async () => {
    await post(1).press('End');
    await post(1).press('?');
    await expect(post(1).inputValue()).resolves.toBe('Sent only when confirmed.?');
    await expect(page().getByRole('dialog').count()).resolves.toBe(0);
    await page().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page().keyboard.press('?');
    const help = page().getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const rows = await help.locator('tr').allTextContents();
    expect(rows).toEqual([
      expect.stringContaining('Ctrl+Enter'),
      expect.stringContaining('Ctrl+S'),
      expect.stringContaining('Ctrl+N'),
      expect.stringContaining('?'),
      expect.stringContaining('Esc'),
    ]);
    await app.shot('preview-shortcuts');
    await page().keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
    // The composer's link opens it too.
    await page().getByRole('button', { name: '? all shortcuts' }).click();
    await help.waitFor();
    await page().keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
  });

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
    expect(app.dialogs).toEqual([]);
  });
});
