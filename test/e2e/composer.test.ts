/**
 * The composer in real Chromium against a real Herald, the X simulator and the Mastodon
 * simulator: paste splitting on ---, split a long post, reorder and remove; per-network text;
 * media by file input and by drag and drop, with alt text that reaches the networks. Templates,
 * saving and reloading, unsaved work, the keyboard and the dark theme are in
 * composer-save-keyboard.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  app,
  masto,
  newDraft,
  page,
  paste,
  post,
  sql,
  useComposerWorld,
  values,
  waitForPublished,
  x,
} from '../helpers/composer-world.js';
import { pngBytes } from '../helpers/png.js';

useComposerWorld();

describe('writing a thread', () => {
  it('pasting text with --- lines makes one post per part, around the caret', async () => {
    await newDraft();
    await post(1).fill('Intro: ');
    await paste(1, 'first part\n---\nsecond part\n---\nthird part');
    await expect.poll(values).toEqual(['Intro: first part', 'second part', 'third part']);
    // A paste without --- is an ordinary paste.
    await post(2).evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length, el.value.length));
    await paste(2, ' and more');
    await expect.poll(values).toEqual(['Intro: first part', 'second part and more', 'third part']);
    await expect(page().locator('[data-preview="fedblog"] [data-bubble]').count()).resolves.toBe(3);
  });

  it('reorders and removes posts', async () => {
    await page().getByRole('button', { name: 'Move post 3 up' }).click();
    await expect.poll(values).toEqual(['Intro: first part', 'third part', 'second part and more']);
    await page().getByRole('button', { name: 'Move post 1 down' }).click();
    await expect.poll(values).toEqual(['third part', 'Intro: first part', 'second part and more']);
    await page().getByRole('button', { name: 'Remove post 2' }).click();
    await expect.poll(values).toEqual(['third part', 'second part and more']);
    await expect(page().getByRole('button', { name: 'Remove post 1' }).isEnabled()).resolves.toBe(true);
  });

  it('splits a long post into posts that fit the strictest network', async () => {
    await newDraft();
    const sentence = 'Herald keeps every draft on this computer and publishes it where you choose. ';
    await post(1).fill(sentence.repeat(8).trim());
    await expect(page().locator('[data-post="0"] [data-counter="microblog"]').getAttribute('data-valid')).resolves.toBe(
      'false',
    );
    await expect(page().getByRole('alert').textContent()).resolves.toContain('do not fit');
    await page().getByRole('button', { name: 'Split post 1 into a thread' }).click();
    const parts = await values();
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.join(' ')).toBe(sentence.repeat(8).trim());
    const counters = page().locator('[data-counter]');
    await expect
      .poll(() => counters.evaluateAll((els) => els.every((e) => e.getAttribute('data-valid') === 'true')))
      .toBe(true);
    await expect(page().getByRole('button', { name: 'Publish now' }).isEnabled()).resolves.toBe(true);
  });
});

describe('per-network text', () => {
  it('a network can have its own text and thread; the others keep the thread', async () => {
    await newDraft();
    await post(1).fill('The same words for everyone.');
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(2).fill('Second post of the thread.');
    await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
    await page()
      .getByLabel('Mastodon text')
      .fill('Toots get their own words.\n---\nAnd their own second post, with #hashtags.');
    const mastoPreview = page().locator('[data-preview="fedblog"]');
    await expect(mastoPreview.locator('h3').textContent()).resolves.toContain('(custom text)');
    await expect(mastoPreview.locator('[data-bubble]').allTextContents()).resolves.toEqual([
      expect.stringContaining('Toots get their own words.'),
      expect.stringContaining('And their own second post'),
    ]);
    // Mastodon has its own text, so the editor counts only for X.
    await expect(
      page()
        .locator('[data-post="0"] [data-counter]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-counter'))),
    ).resolves.toEqual(['microblog']);
    await expect(page().locator('[data-preview="microblog"] [data-bubble]').count()).resolves.toBe(2);
    await app.shot('20-compose-custom-text');

    await page().getByRole('button', { name: 'Publish now' }).click();
    // Publish now asks first, by mouse as by Ctrl+Enter.
    await page()
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();
    await waitForPublished(2);
    expect(
      x
        .postsBy('herald_tester')
        .slice(-2)
        .map((p) => p.text),
    ).toEqual(['The same words for everyone.', 'Second post of the thread.']);
    const toots = masto.statusesBy('herald').slice(-2);
    expect(toots.map((s) => s.text)).toEqual([
      'Toots get their own words.',
      'And their own second post, with #hashtags.',
    ]);
    expect(toots[1].inReplyToId).toBe(toots[0].id);
  });
});

describe('media', () => {
  it('attaches by file input and by drag and drop, with alt text that reaches both networks', async () => {
    await newDraft();
    await post(1).fill('A red square.');
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(2).fill('A blue square.');

    await page()
      .getByLabel('Add media to post 1')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: pngBytes(40, 40, [220, 30, 30]) });
    const thumb1 = page().locator('[data-post="0"] [data-media]');
    await thumb1.waitFor();
    // The thumbnail loads from the server under the page's CSP.
    await expect
      .poll(() => thumb1.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(40);
    await page().getByLabel('Alt text for media 1 of post 1').fill('A red square on white');
    await post(1).focus(); // leaving the field saves the alt text

    const blue = pngBytes(30, 30, [30, 30, 220]).toString('base64');
    await page()
      .locator('[data-dropzone="1"]')
      .evaluate((zone, b64) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'blue.png', { type: 'image/png' }));
        zone.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, blue);
    const thumb2 = page().locator('[data-post="1"] [data-media]');
    await thumb2.waitFor();
    await page().getByLabel('Alt text for media 1 of post 2').fill('A blue square');
    await post(2).focus();
    const mediaIds = [await thumb1.getAttribute('data-media'), await thumb2.getAttribute('data-media')];
    await expect
      .poll(() =>
        sql<{ alt_text: string }>('SELECT alt_text FROM media WHERE id IN (?, ?) ORDER BY width DESC', ...mediaIds).map(
          (r) => r.alt_text,
        ),
      )
      .toEqual(['A red square on white', 'A blue square']);
    await expect(page().locator('[data-preview="microblog"] [data-bubble]').first().textContent()).resolves.toContain(
      '1 media',
    );
    await app.shot('21-compose-media');

    await page().getByRole('button', { name: 'Publish now' }).click();
    // Publish now asks first, by mouse as by Ctrl+Enter.
    await page()
      .getByRole('dialog', { name: 'Publish now?' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();
    await waitForPublished(2);
    const [xRed, xBlue] = x.postsBy('herald_tester').slice(-2);
    expect([xRed.text, xBlue.text]).toEqual(['A red square.', 'A blue square.']);
    expect([x.state.media.get(xRed.mediaIds[0])?.altText, x.state.media.get(xBlue.mediaIds[0])?.altText]).toEqual([
      'A red square on white',
      'A blue square',
    ]);
    const [mRed, mBlue] = masto.statusesBy('herald').slice(-2);
    expect([
      masto.state.media.get(mRed.mediaIds[0])?.description,
      masto.state.media.get(mBlue.mediaIds[0])?.description,
    ]).toEqual(['A red square on white', 'A blue square']);
  });
});
