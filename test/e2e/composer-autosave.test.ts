/**
 * Work is never lost in the composer (real Chromium, real Herald): every change is in Drafts
 * within a second, in one request (posts, per-network text and template together); New and
 * Ctrl+N start a fresh draft while the last one stays in Drafts, and Undo reopens it; removing a
 * post or a media item offers Undo; a reload loses nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { pngBytes } from '../helpers/png.js';
import { OWNER } from '../helpers/server.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
const page = () => app.page;
const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
const values = () =>
  page()
    .locator('[data-post] textarea')
    .evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
const sql = <T>(q: string, ...args: unknown[]) => app.t.server.sqlite.prepare(q).all(...args) as T[];
const drafts = () =>
  sql<{ id: string; title: string; n: number }>(
    'SELECT d.id, d.title, (SELECT count(*) FROM tweets t WHERE t.draft_id = d.id) AS n ' +
      'FROM drafts d ORDER BY d.created_at',
  );
/** The requests the page makes to the drafts API while `fn` runs. */
async function draftRequests(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const on = (r: Request) => {
    if (/\/api\/v1\/microblog\/drafts/.test(r.url()) && r.method() !== 'GET')
      seen.push(`${r.method()} ${new URL(r.url()).pathname}`);
  };
  page().on('request', on);
  try {
    await fn();
  } finally {
    page().off('request', on);
  }
  return seen;
}
const saved = () => page().locator('[data-saved]').filter({ hasText: 'Saved in Drafts' });

beforeAll(async () => {
  app = await startUiApp();
  await app.t.login();
  const owner = userIdOf(app.t, OWNER.email);
  for (const p of ['microblog', 'fedblog']) addAccount(app.t, owner, p);
  await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await signIn(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('autosave', () => {
  it('a change is in Drafts within a second, saved in one request', async () => {
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    const before = drafts().length;
    const requests = await draftRequests(async () => {
      await post(1).fill('Kept without pressing Save.');
      const t0 = Date.now();
      await expect.poll(() => drafts().length, { timeout: 3000, interval: 50 }).toBe(before + 1);
      expect(Date.now() - t0).toBeLessThan(1500);
      await saved().waitFor();
    });
    expect(requests).toEqual(['POST /api/v1/microblog/drafts']);
    await expect(page().evaluate(() => location.hash)).resolves.toMatch(/^#\/compose\?draft=/);
  });

  it('per-network text, template and posts go in one request (Ctrl+S too), all kept', async () => {
    const tpl = await app.t.call('POST', '/templates', {
      key: await app.t.login(),
      body: { name: 'Sig', tailContentPlain: '— sent with Herald' },
    });
    await page().reload();
    await post(1).waitFor();
    const requests = await draftRequests(async () => {
      await page().getByLabel('Template').selectOption(tpl.body.template.uuid);
      await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
      await page().getByLabel('Mastodon text').fill('Only for Mastodon.');
      await page().keyboard.press('Control+s');
      await page().locator('[data-notice]').filter({ hasText: 'Saved.' }).waitFor();
      await saved().waitFor();
    });
    // Each save is one PUT of the draft: no separate template or per-network request.
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests)).toEqual(new Set([expect.stringMatching(/^PUT \/api\/v1\/microblog\/drafts\/[\w-]+$/)]));
    const id = (await page().evaluate(() => location.hash)).split('draft=')[1];
    const row = sql<{ template_id: string }>('SELECT template_id FROM drafts WHERE id = ?', id)[0];
    expect(row.template_id).toBe(tpl.body.template.uuid);
    expect(sql<{ plain_text: string }>('SELECT plain_text FROM tweets WHERE draft_id = ?', id)[0].plain_text).toBe(
      'Kept without pressing Save.\n\n— sent with Herald',
    ); // the tail once: not framed again
    expect(
      sql<{ content: string }>(
        "SELECT content FROM platform_contents WHERE draft_id = ? AND platform = 'fedblog'",
        id,
      )[0].content,
    ).toBe('Only for Mastodon.');
  });
});

describe('leaving the page', () => {
  it('work typed just before going to another page is in Drafts once, and not restored as a copy', async () => {
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    const before = drafts().length;
    await post(1).fill('Typed, then straight to the Drafts page.');
    await page().getByRole('link', { name: 'Drafts', exact: true }).click();
    await expect.poll(() => drafts().length).toBe(before + 1);
    await expect(page().evaluate(() => location.hash)).resolves.toBe('#/drafts');
    await page().reload();
    await page().getByText('Typed, then straight to the Drafts page.').first().waitFor();
    await page().getByRole('link', { name: 'Compose', exact: true }).click();
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await expect.poll(values).toEqual(['']);
    await page().waitForTimeout(1000);
    expect(drafts().length).toBe(before + 1);
  });
});

describe('New keeps the last draft', () => {
  it('a long thread stays in Drafts when New is pressed; Undo returns to it; a reload loses nothing', async () => {
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    const parts = Array.from({ length: 40 }, (_, i) => `Part ${i + 1} of a long thread that took a while to write.`);
    await page().evaluate((t) => navigator.clipboard.writeText(t), parts.join('\n---\n'));
    await post(1).focus();
    await page().keyboard.press('Control+v');
    await expect.poll(() => values().then((v) => v.length)).toBe(40);
    // New at once, before the autosave had its second: the thread is saved on the way out.
    await page().getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(values).toEqual(['']);
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await expect.poll(() => drafts().some((d) => d.n === 40)).toBe(true);
    const kept = drafts().find((d) => d.n === 40)!;
    expect(kept.title).toBe('Part 1 of a long thread that took a while to write.');
    // The Drafts page lists it.
    const undo = page().locator('[data-undo^="compose.new"]');
    await undo.waitFor();
    // One offer: a newer one replaces those of earlier New presses.
    await expect(undo.count()).resolves.toBe(1);
    await expect(undo.textContent()).resolves.toContain('the last one is in Drafts');
    await undo.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => values().then((v) => v.length)).toBe(40);
    await expect(page().evaluate(() => location.hash)).resolves.toBe(`#/compose?draft=${kept.id}`);
    expect(drafts().filter((d) => d.n === 40).length).toBe(1); // reopened, not copied

    // Typing and reloading at once: nothing lost.
    await post(40).click();
    await page().keyboard.press('End');
    await page().keyboard.type(' And one more line.');
    await page().reload();
    await expect
      .poll(() => values().then((v) => v[39]))
      .toBe('Part 40 of a long thread that took a while to write. And one more line.');
    // ...and it reaches Drafts too.
    await expect
      .poll(
        () =>
          sql<{ plain_text: string }>('SELECT plain_text FROM tweets WHERE draft_id = ? AND position = 39', kept.id)[0]
            .plain_text,
      )
      .toBe('Part 40 of a long thread that took a while to write. And one more line.');
  });

  it('Ctrl+N from another page with nothing written starts clean and offers no Undo', async () => {
    await page().getByRole('link', { name: 'Drafts', exact: true }).click();
    await page().getByRole('heading', { name: 'Drafts' }).waitFor();
    const offers = await page().locator('[data-undo^="compose.new"]').count();
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await expect.poll(values).toEqual(['']);
    expect(await page().locator('[data-undo^="compose.new"]').count()).toBeLessThanOrEqual(offers);
  });
});

describe('Undo where something is removed', () => {
  it('removing a post of the thread, and a media item, can be undone', async () => {
    await pressNew(page());
    await page().getByRole('heading', { name: 'New draft' }).waitFor();
    await post(1).fill('First.');
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(2).fill('Second, about to be removed.');
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(3).fill('Third.');
    await page().getByRole('button', { name: 'Remove post 2' }).click();
    await expect.poll(values).toEqual(['First.', 'Third.']);
    const undo = page().locator('[data-undo^="compose.remove"]').filter({ hasText: 'Removed post 2.' });
    await undo.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(values).toEqual(['First.', 'Second, about to be removed.', 'Third.']);

    await page()
      .getByLabel('Add media to post 1')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: pngBytes(20, 20, [200, 20, 20]) });
    const thumb = page().locator('[data-post="0"] [data-media]');
    await thumb.waitFor();
    await page().getByLabel('Alt text for media 1 of post 1').fill('A red square');
    await page().getByRole('button', { name: 'Remove media 1 from post 1' }).click();
    await expect.poll(() => thumb.count()).toBe(0);
    await page()
      .locator('[data-undo^="compose.remove"]')
      .filter({ hasText: 'Removed media 1 of post 1.' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await expect.poll(() => thumb.count()).toBe(1);
    await expect(page().getByLabel('Alt text for media 1 of post 1').inputValue()).resolves.toBe('A red square');
    // And the restored thread is what Drafts holds.
    const count = async () => {
      const id = await page().evaluate(() => location.hash.split('draft=')[1]);
      return id ? sql<{ n: number }>('SELECT count(*) AS n FROM tweets WHERE draft_id = ?', id)[0]?.n : -1;
    };
    await expect.poll(count, { timeout: 5000 }).toBe(3);
    expect(app.problems).toEqual([]);
  });
});
