/**
 * Network-true previews in the composer, in real Chromium (issue #22 items 1, 4, 6), part two
 * (composer-previews.test.ts has the previews themselves and overflow): the rules shown before
 * publishing with one-click splits (a network's own text, a Mastodon instance's own limits, too
 * many images; image sizes also for a reopened draft's media); Ctrl+Enter's confirmation and the
 * "?" list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gif } from '../helpers/media-files.js';
import { pngBytes } from '../helpers/png.js';
import {
  addImages,
  app,
  newDraft,
  owner,
  page,
  post,
  preview,
  SECOND,
  smallSet,
  sql,
  usePreviewsWorld,
} from '../helpers/previews-world.js';

usePreviewsWorld();

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
