/**
 * The composer in real Chromium against a real Herald, the X simulator and the Mastodon
 * simulator, part two (composer.test.ts has writing, per-network text and media): templates
 * (head and tail counted, never doubled); save and reload lose nothing (text that looks like
 * HTML stays text); unsaved work survives a reload and a closed window; keyboard use (Ctrl+N,
 * Ctrl+S, Ctrl+Enter, tab order, every control labelled); dark theme.
 */
import { describe, expect, it } from 'vitest';
import {
  app,
  holdSaves,
  key,
  masto,
  mastoId,
  newDraft,
  page,
  post,
  useComposerWorld,
  values,
  waitForPublished,
  x,
  xId,
} from '../helpers/composer-world.js';
import { pngBytes } from '../helpers/png.js';
import { pressNew, signIn, unnamedControls } from '../helpers/ui-app.js';

useComposerWorld();

describe('templates', () => {
  it(
    'a template made on its page frames the thread, is counted, can be swapped out, and is never doubled by ' +
      'saving',
    async () => {
      await page().getByRole('link', { name: 'Templates' }).click();
      const form = page().getByRole('form', { name: 'Template' });
      await form.getByLabel('Name').fill('Launch');
      await form.getByLabel('Head (before the first post)').fill('📣 Launch day');
      await form.getByLabel('Tail (after the last post)').fill('#herald');
      await form.getByRole('button', { name: 'Create' }).click();
      await page().locator('tr', { hasText: 'Launch' }).waitFor();
      await app.shot('22-templates');

      await newDraft();
      await post(1).fill('Version 1 is out.');
      await page().getByRole('button', { name: 'Add post to thread' }).click();
      await post(2).fill('Download it today.');
      await page().getByLabel('Template').selectOption({ label: 'Launch' });
      await expect.poll(values).toEqual(['📣 Launch day\n\nVersion 1 is out.', 'Download it today.\n\n#herald']);
      // 📣 weighs 2 on X: 2 + 11 + 2 (the blank line) + 17 = 32.
      await expect(page().locator('[data-post="0"] [data-counter="microblog"]').textContent()).resolves.toBe(
        'X 32/280',
      );
      await page().getByLabel('Template').selectOption({ label: 'No template' });
      await expect.poll(values).toEqual(['Version 1 is out.', 'Download it today.']);
      await page().getByLabel('Template').selectOption({ label: 'Launch' });

      await page().keyboard.press('Control+s');
      await page().getByText('Saved.', { exact: true }).waitFor();
      const draftId = new URL(page().url()).hash.split('draft=')[1];
      await page().keyboard.press('Control+s');
      await page().reload();
      await expect.poll(values).toEqual(['📣 Launch day\n\nVersion 1 is out.', 'Download it today.\n\n#herald']);
      await expect(page().getByLabel('Template').locator('option:checked').textContent()).resolves.toBe('Launch');
      const r = await app.t.call('GET', `/microblog/drafts/${draftId}`, { key });
      expect(r.body.draft.templateId).toBeTruthy();
      expect(r.body.draft.tweets.map((t: any) => t.plainText)).toEqual([
        '📣 Launch day\n\nVersion 1 is out.',
        'Download it today.\n\n#herald',
      ]);
    },
  );
});

describe('nothing is lost', () => {
  // Markup-like characters stay as typed. (Whole tags such as <b> are removed from plain text by
  // the server, by design: docs/decisions.md §4; that is tested with the XSS payloads.)
  const hard = [
    'Line one\n\nLine three: 2 < 3 && 5 > 4, I <3 it, "quotes", \'single\' & more',
    '  indented, emoji 👩‍👩‍👧‍👦 and RTL שלום',
    'a=1&b=2 <- not an entity; #tag @someone https://example.com/?q=1<2',
  ];

  async function snapshot() {
    return {
      title: await page().getByLabel('Title').inputValue(),
      posts: await values(),
      alt: await page()
        .locator('[data-media] input')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
      accounts: await page()
        .locator('[data-account] input')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked)),
      mastoText: await (async () => {
        await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
        const v = await page().getByLabel('Mastodon text').inputValue();
        await page().getByRole('button', { name: 'Close' }).click();
        return v;
      })(),
    };
  }

  it(
    'a saved draft reloads exactly: title, posts (markup stays text), media with alt text, accounts, ' +
      'per-network text',
    async () => {
      await newDraft();
      await page().getByLabel('Title').fill('Everything kept');
      await post(1).fill(hard[0]);
      for (const [i, text] of hard.slice(1).entries()) {
        await page().getByRole('button', { name: 'Add post to thread' }).click();
        await post(i + 2).fill(text);
      }
      await page()
        .getByLabel('Add media to post 2')
        .setInputFiles({ name: 'g.png', mimeType: 'image/png', buffer: pngBytes(20, 20, [0, 200, 0]) });
      await page().getByLabel('Alt text for media 1 of post 2').fill('green');
      await page().locator(`[data-account="${xId}"] input`).uncheck();
      await expect(page().locator('[data-preview="microblog"]').count()).resolves.toBe(0);
      await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
      await page().getByLabel('Mastodon text').fill('Short Mastodon version\n---\nwith a second post');
      await page().getByRole('button', { name: 'Close' }).click();
      const before = await snapshot();
      expect(before.accounts).toEqual([false, true]);
      await page().getByRole('button', { name: 'Save draft' }).click();
      await page().getByText('Saved.', { exact: true }).waitFor();
      const draftId = new URL(page().url()).hash.split('draft=')[1];

      await page().reload();
      await page().getByRole('heading', { name: 'Edit draft' }).waitFor();
      await expect.poll(values).toEqual(hard);
      expect(await snapshot()).toEqual(before);
      const r = await app.t.call('GET', `/microblog/drafts/${draftId}`, { key });
      expect(r.body.draft.tweets.map((t: any) => t.plainText)).toEqual(hard.map((h) => h.replace(/\n+$/, '')));
      expect(r.body.draft.selectedAccountIds).toEqual([mastoId]);
      const platforms = await app.t.call('GET', `/microblog/drafts/${draftId}/platforms`, { key });
      expect(platforms.body.platforms.map((p: any) => [p.platform, p.content])).toEqual([
        ['fedblog', 'Short Mastodon version\n---\nwith a second post'],
      ]);
      await app.shot('23-compose-reloaded');
    },
  );

  it('unsaved work survives a reload and a closed window, and New starts clean', async () => {
    await newDraft();
    const release = await holdSaves();
    await post(1).fill('Not saved yet, but not lost.');
    await page().getByLabel('Title').fill('Scratch');
    await page().getByText('Unsaved').waitFor();
    await page().reload();
    await page().getByText('Restored unsaved work.').waitFor();
    await expect.poll(values).toEqual(['Not saved yet, but not lost.']);

    // A closed window (or a crash): a fresh page on the same profile.
    const url = page().url();
    await page().close({ runBeforeUnload: false });
    app.page = await app.context.newPage();
    await signIn(app, new URL(url).hash || '#/compose');
    await page().getByText('Restored unsaved work.').waitFor();
    await expect(page().getByLabel('Title').inputValue()).resolves.toBe('Scratch');
    await expect.poll(values).toEqual(['Not saved yet, but not lost.']);
    await release();

    await page().getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(values).toEqual(['']);
    await expect(page().evaluate(() => localStorage.getItem('herald.compose.unsaved'))).resolves.toBeNull();
  });

  it('unsaved edits of a saved draft are restored for that draft only', async () => {
    await newDraft();
    await post(1).fill('Saved text.');
    await page().keyboard.press('Control+s');
    await page().getByText('Saved.', { exact: true }).waitFor();
    const release = await holdSaves();
    await post(1).fill('Saved text, then edited.');
    await page().reload();
    await page().getByText('Restored changes that were not saved.').waitFor();
    await expect.poll(values).toEqual(['Saved text, then edited.']);
    await release();
    const draftUrl = page().url();
    await newDraft();
    await expect(page().locator('[data-notice]').count()).resolves.toBe(0);
    // Starting a new draft did not throw the other draft's edits away: they went to Drafts.
    await page().goto(draftUrl);
    await expect.poll(values).toEqual(['Saved text, then edited.']);
    await post(1).fill('Saved text, edited again.');
    await page().keyboard.press('Control+s');
    await page().getByText('Saved.', { exact: true }).waitFor();
    await expect(
      page().evaluate(
        (u) => localStorage.getItem(`herald.compose.unsaved.${u}`),
        new URL(draftUrl).hash.split('draft=')[1],
      ),
    ).resolves.toBeNull();
  });
});

describe('keyboard', () => {
  it('Ctrl+N opens a new draft from any page; Ctrl+Enter asks, then publishes; Ctrl+S saves', async () => {
    await page().getByRole('link', { name: 'Drafts' }).click();
    await page().getByRole('heading', { name: 'Drafts' }).waitFor();
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await post(1).fill('Sent with the keyboard.');
    // As a person would: once the page offers to publish (the accounts it goes to are loaded; on a
    // busy machine they came after the key, which then only said that nothing can be published yet).
    await expect.poll(() => page().getByRole('button', { name: 'Publish now' }).isEnabled()).toBe(true);
    await post(1).press('Control+Enter');
    // Never at once: the confirmation comes first, and Enter (on its Publish) confirms.
    const dialog = page().getByRole('dialog', { name: 'Publish now?' });
    await dialog.waitFor();
    expect(x.countPosts('herald_tester', 'Sent with the keyboard.')).toBe(0);
    await page().keyboard.press('Enter');
    await waitForPublished(2);
    expect(x.countPosts('herald_tester', 'Sent with the keyboard.')).toBe(1);
    expect(masto.countPosts('herald', 'Sent with the keyboard.')).toBe(1);
  });

  it('Tab walks the composer in reading order, and every control has a name', async () => {
    await newDraft();
    await post(1).fill('Something to publish.');
    await page().getByLabel('Title').focus();
    const order: string[] = [];
    for (let i = 0; i < 12; i++) {
      order.push(
        await page().evaluate(() => {
          const el = document.activeElement as HTMLElement;
          return (
            el.getAttribute('aria-label') ??
            (el as HTMLInputElement).labels?.[0]?.textContent?.trim() ??
            el.textContent?.trim() ??
            el.tagName
          );
        }),
      );
      await page().keyboard.press('Tab');
    }
    expect(order).toEqual(
      [
        'Title',
        'Social set',
        'Template',
        'X @herald_tester',
        'Mastodon @herald',
        'Post language',
        'Detect',
        'Post options',
        'Post 1',
        'Add media to post 1',
        'Add post to thread',
        'Publish now',
      ].map((s) => expect.stringContaining(s)),
    );
    expect(await unnamedControls(page())).toEqual([]);
    const positive = await page().locator('[tabindex]:not([tabindex="0"]):not([tabindex="-1"])').count();
    expect(positive).toBe(0);
    // Focus is visible.
    await page().getByRole('button', { name: 'Add post to thread' }).focus();
    const outline = await page()
      .getByRole('button', { name: 'Add post to thread' })
      .evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
  });
});

describe('themes', () => {
  it('dark theme from Settings, and following the system', async () => {
    await page().getByRole('link', { name: 'Settings' }).click();
    await page().getByLabel('Theme').selectOption('dark');
    const bg = () => page().evaluate(() => getComputedStyle(document.body).backgroundColor);
    await expect.poll(bg).toBe('rgb(15, 17, 21)');
    await app.shot('24-settings-dark');
    await page().getByRole('link', { name: 'Compose' }).click();
    await post(1).fill('Dark mode, still readable. '.repeat(12));
    await app.shot('25-compose-dark');
    await page().getByRole('button', { name: 'New', exact: true }).click();

    await page().getByRole('link', { name: 'Settings' }).click();
    await page().getByLabel('Theme').selectOption('system');
    await page().emulateMedia({ colorScheme: 'dark' });
    await page().reload();
    await expect.poll(bg).toBe('rgb(15, 17, 21)');
    await page().emulateMedia({ colorScheme: 'light' });
    await page().reload();
    await expect.poll(bg).toBe('rgb(246, 247, 249)');
  });

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
    expect(app.dialogs).toEqual([]);
  });
});
