/**
 * The composer's "Post options" panel in real Chromium (issue #36): a poll, a content warning and
 * who may reply, written once; each network's preview draws the poll and the warning where the
 * network takes them, lists what it drops with the reason, and says where the post cannot go
 * (a poll on Bluesky without the text fallback); the draft keeps the options. Screenshots at
 * 1280 and 390 px wide go to test-results/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shotPath } from '../helpers/browser.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
const page = () => app.page;
const preview = (p: string) => page().locator(`[data-preview="${p}"]`);

beforeAll(async () => {
  app = await startUiApp({ context: { reducedMotion: 'reduce' } });
  await app.t.login();
  const owner = userIdOf(app.t, OWNER.email);
  for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog']) addAccount(app.t, owner, p);
  await signIn(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** A new draft with `text` in its first post, and its options panel open. */
async function newDraftWithOptions(text: string) {
  await page().setViewportSize({ width: 1280, height: 1400 });
  await pressNew(page());
  await page().getByRole('heading', { name: 'New draft' }).waitFor();
  await page().getByRole('textbox', { name: 'Post 1', exact: true }).fill(text);
  const panel = page().locator('[data-options-panel]');
  await panel.locator('summary').click();
  return panel;
}

describe('Post options in the composer', () => {
  it('writes a poll, a content warning and a reply control once; previews show what each network takes', async () => {
    const panel = await newDraftWithOptions('Which should we build next?');
    await panel.getByLabel('Poll', { exact: true }).check();
    await panel.getByLabel('Choice 1').fill('Polls');
    await panel.getByLabel('Choice 2').fill('Quotes');
    await panel.getByRole('button', { name: 'Add choice' }).click();
    await panel.getByLabel('Choice 3').fill('Threads to LinkedIn');
    await panel.getByLabel('Content warning').fill('product talk');
    await panel.getByLabel('Who may reply').selectOption('followers');

    await expect.poll(() => preview('fedblog').locator('[data-preview-poll] li').count()).toBe(4);
    expect(await preview('fedblog').locator('[data-preview-cw]').textContent()).toBe('CW: product talk');
    const xDropped = await preview('microblog').locator('[data-options-dropped]').textContent();
    expect(xDropped).toMatch(/contentWarning \(X has no content warning for a post\)/);
    expect(xDropped).toMatch(/replyControl \(X has no "followers may reply" setting\)/);
    // The previews follow the text a frame or two later on a loaded machine; the text itself must stay.
    expect(await page().getByRole('textbox', { name: 'Post 1', exact: true }).inputValue()).toBe(
      'Which should we build next?',
    );
    await expect.poll(() => preview('skyblog').locator('h3').textContent()).toMatch(/cannot go|does not fit/);
    expect(await preview('skyblog').locator('[data-options-problem="poll"]').textContent()).toMatch(
      /Bluesky has no polls/,
    );
    expect(await preview('threadblog').locator('[data-preview-cw]').count()).toBe(1);
    await page().screenshot({ path: shotPath('composer-options-1280'), fullPage: true });

    await page().setViewportSize({ width: 390, height: 900 });
    await panel.scrollIntoViewIfNeeded();
    await page().screenshot({ path: shotPath('composer-options-390'), fullPage: true });
    await preview('fedblog').scrollIntoViewIfNeeded();
    await page().screenshot({ path: shotPath('composer-options-390-previews') });

    // Threads takes at most 5 distinct links a post, counted as the server counts them.
    const post1 = page().getByRole('textbox', { name: 'Post 1', exact: true });
    await post1.fill(`Which? ${[1, 2, 3, 4, 5, 6].map((i) => `https://example.com/${i}`).join(' ')}`);
    await expect
      .poll(() => preview('threadblog').locator('[data-options-problem="links"]').textContent())
      .toBe('the post has 6 links; Threads takes at most 5');
    await post1.fill('Which should we build next?');
    await expect.poll(() => preview('threadblog').locator('[data-options-problem]').count()).toBe(0);

    // The fallback makes Bluesky's post valid; the draft keeps the options.
    await panel.getByLabel(/On Bluesky \(no polls\)/).check();
    await expect.poll(() => preview('skyblog').locator('[data-options-problem]').count()).toBe(0);
    await expect
      .poll(
        async () => {
          const r = await app.t.call('GET', '/microblog/drafts', { key: await app.t.login() });
          return r.body.drafts[0]?.options ?? null;
        },
        { timeout: 15_000 },
      )
      .toMatchObject({
        poll: { choices: ['Polls', 'Quotes', 'Threads to LinkedIn'], durationMinutes: 1440 },
        pollFallback: 'text',
        contentWarning: 'product talk',
        replyControl: 'followers',
      });
  });

  it("says before publishing that Threads cannot quote another account's post, and not for its own", async () => {
    const panel = await newDraftWithOptions('Worth a read');
    const { username: handle } = app.t.server.sqlite
      .prepare("SELECT username FROM accounts WHERE platform = 'threadblog'")
      .get() as { username: string };
    await panel.getByLabel('Quote URL').fill('https://www.threads.net/@someone.else/post/DAbCdEf1234');
    const problem = preview('threadblog').locator('[data-options-problem="quoteUrl"]');
    await expect
      .poll(() => problem.textContent())
      .toBe(
        "Threads quotes only this account's own posts, and this is @someone.else's: quote it in the Threads app, " +
          'or remove the quote',
      );
    // The header says what is wrong: the post fits, its options do not.
    await expect(preview('threadblog').locator('h3').textContent()).resolves.toBe('Threadscannot go as set');
    // Publishing waits for it, as the server would refuse it; the page says where to look.
    const publish = page().getByRole('button', { name: 'Publish now' });
    await expect.poll(() => publish.isDisabled()).toBe(true);
    await expect
      .poll(() => page().locator('[data-options-block]').textContent())
      .toBe('Threads cannot take this post as it is; its preview says why.');
    await preview('threadblog').scrollIntoViewIfNeeded();
    await page().screenshot({ path: shotPath('composer-threads-quote-1280') });
    await page().setViewportSize({ width: 390, height: 900 });
    await problem.scrollIntoViewIfNeeded();
    await page().waitForTimeout(500);
    await page().screenshot({ path: shotPath('composer-threads-quote-390') });
    await page().setViewportSize({ width: 1280, height: 1400 });
    await panel.getByLabel('Quote URL').fill(`https://www.threads.net/@${handle}/post/DAbCdEf1234`);
    await expect.poll(() => problem.count()).toBe(0);
    await expect.poll(() => publish.isEnabled()).toBe(true);
    expect(await page().locator('[data-options-block]').count()).toBe(0);
  });
});
