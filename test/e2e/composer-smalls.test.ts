/**
 * The composer's smaller traps, in real Chromium against a real Herald and the Mastodon
 * simulator: errors in words (no API field paths) that clear once an edit fixes the text; Publish
 * now asks first by mouse as by Ctrl+Enter; after Schedule the result is in view with the next
 * steps, and a new draft starts at a fresh time; credits refresh after publishing; "Customise"
 * starts from the current text; on a phone the text box is near the top.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { pressNew, signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let masto: MastodonSimulator;
let app: UiApp;
/** The server's clock runs `ahead` ms ahead of the browser's (a time the page thinks future is past there). */
let ahead = 0;
const page = () => app.page;
const post = (i: number) => page().getByRole('textbox', { name: `Post ${i}`, exact: true });
const values = () =>
  page()
    .locator('[data-post] textarea')
    .evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
const errorText = () =>
  page()
    .locator('p.error[role="alert"]')
    .allTextContents()
    .then((t) => t.join(' '));

async function newDraft() {
  await pressNew(page());
  await page().getByRole('heading', { name: 'New draft' }).waitFor();
  await expect.poll(values).toEqual(['']);
}

beforeAll(async () => {
  masto = await startMastodonSimulator({ maxCharacters: 5000 });
  // The refused schedule and save above are 400s the browser logs; nothing else may be.
  app = await startUiApp({
    server: { clock: { now: () => Date.now() + ahead } },
    allowConsole: [/status of 400 \(Bad Request\)/],
  });
  const key = await app.t.login();
  const cm = await connectOAuth(app.t, key, 'fedblog', { instanceUrl: masto.url });
  expect(cm.status).toBe(200);
  await signIn(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await masto?.close();
});

describe('errors in words', () => {
  it('a time the server finds past names the account, not targetAccounts.0.scheduledFor', async () => {
    await newDraft();
    await post(1).fill('Scheduled against a clock that runs ahead.');
    ahead = 3 * 3600_000;
    try {
      await page().getByRole('button', { name: 'Schedule', exact: true }).click();
      await expect.poll(errorText).toContain('The time is in the past: pick a time in the future.');
      await page().locator('[data-per-network-toggle]').check();
      await page().getByRole('button', { name: 'Schedule', exact: true }).click();
      await expect
        .poll(errorText)
        .toContain('The time for Mastodon @herald is in the past: pick a time in the future.');
      expect(await errorText()).not.toMatch(/targetAccounts|scheduledFor/);
      await page().locator('[data-per-network-toggle]').uncheck();
    } finally {
      ahead = 0;
    }
  });

  it('a post over 100,000 characters says which post; the message goes once Split fixes it', async () => {
    await newDraft();
    const words = 'All of this was pasted as one post by mistake. ';
    await post(1).fill(words.repeat(Math.ceil(100_500 / words.length)));
    // Not sent on every pause: the page says so itself.
    await expect.poll(errorText, { timeout: 5000 }).toContain('Not saved: post 1 is over 100,000 characters.');
    // Saved on purpose, the server's answer comes in the same words.
    await page().keyboard.press('Control+s');
    await expect.poll(errorText, { timeout: 5000 }).toContain('Post 1: at most 100,000 characters per post text.');
    expect(await errorText()).not.toMatch(/body\.|tweets\./);
    await page().getByRole('button', { name: 'Split post 1 into a thread' }).click();
    await expect.poll(() => values().then((v) => v.length)).toBeGreaterThan(20);
    await expect.poll(errorText).toBe('');
    await page().locator('[data-saved]').filter({ hasText: 'Saved in Drafts' }).waitFor({ timeout: 10_000 });
    expect(await errorText()).toBe('');
  });

  it('a title over 500 characters is not sent while typing, nor lost by New; the page says why', async () => {
    await newDraft();
    const sent: string[] = [];
    page().on('request', (r) => {
      if (/\/microblog\/drafts/.test(r.url()) && r.method() !== 'GET') sent.push(r.method());
    });
    await post(1).fill('A post whose title was pasted by mistake.');
    await page().getByLabel('Title').fill('x'.repeat(501));
    await expect
      .poll(errorText, { timeout: 5000 })
      .toContain('Not saved: the title is over 500 characters. Shorten it.');
    await page().getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(errorText).toContain('Shorten it before starting a new draft.');
    expect(await values()).toEqual(['A post whose title was pasted by mistake.']);
    expect(sent).toEqual([]);
    await page().getByLabel('Title').fill('x'.repeat(500));
    await page().locator('[data-saved]').filter({ hasText: 'Saved in Drafts' }).waitFor({ timeout: 10_000 });
    expect(sent).toEqual(['POST']);
    expect(await errorText()).toBe('');
  });
});

describe('sending', () => {
  it('Publish now by mouse asks first, as Ctrl+Enter does; credits refresh after it went', async () => {
    await newDraft();
    await post(1).fill('Asked before it goes.');
    const balance = page().locator('[data-credits-balance]');
    await balance.waitFor();
    const before = await balance.textContent();
    const sent = masto.statusesBy('herald').length;
    await page().getByRole('button', { name: 'Publish now' }).click();
    const dialog = page().getByRole('dialog', { name: 'Publish now?' });
    await dialog.waitFor();
    await page().waitForTimeout(300);
    expect(masto.statusesBy('herald').length).toBe(sent); // nothing sent without confirming
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await page().locator('[data-outcome="published"]').waitFor({ timeout: 30_000 });
    expect(masto.statusesBy('herald').length).toBe(sent + 1);
    // The month's credits on the page follow without a reload.
    await expect.poll(() => balance.textContent(), { timeout: 10_000 }).not.toBe(before);
  });

  it('after Schedule the result is in view with what to do next; a new draft starts at a fresh time', async () => {
    await newDraft();
    await post(1).fill('Goes out later.');
    const time = page().getByLabel('Schedule time');
    const later = await page().evaluate(() => {
      const d = new Date(Date.now() + 5 * 3600_000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await time.fill(later);
    // Scrolled to the top, as after a long thread: the result must still be seen.
    await page().evaluate(() => window.scrollTo(0, 0));
    await page().getByRole('button', { name: 'Schedule', exact: true }).click();
    const outcome = page().locator('[data-outcome="scheduled"]');
    await outcome.waitFor();
    await expect
      .poll(() =>
        outcome.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await expect(outcome.textContent()).resolves.toMatch(/Scheduled/);
    await expect(page().getByRole('button', { name: 'Publish now' }).isDisabled()).resolves.toBe(true);
    await expect(outcome.getByRole('button', { name: 'View in Queue' }).isVisible()).resolves.toBe(true);
    await app.shot('compose-scheduled-1280');
    await outcome.getByRole('button', { name: 'New draft' }).click();
    await expect.poll(values).toEqual(['']);
    const fresh = await time.inputValue();
    expect(fresh).not.toBe(later);
    const inAnHour = Date.now() + 3600_000;
    expect(Math.abs(Date.parse(fresh) - inAnHour)).toBeLessThan(5 * 60_000); // the page's zone is the set's here
    // Nothing written yet.
    await expect(page().getByRole('button', { name: 'Publish now' }).isDisabled()).resolves.toBe(true);
  });
});

describe('smaller', () => {
  it('"Customise for Mastodon" opens with the current text', async () => {
    await newDraft();
    await post(1).fill('First words.');
    await page().getByRole('button', { name: 'Add post to thread' }).click();
    await post(2).fill('Second words.');
    await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
    await expect(page().getByLabel('Mastodon text').inputValue()).resolves.toBe('First words.\n---\nSecond words.');
    // Closed unchanged, it is not kept as the network's own text.
    await page().locator('[data-preview="fedblog"]').getByRole('button', { name: 'Close' }).click();
    await expect(page().locator('[data-preview="fedblog"] h3').textContent()).resolves.not.toContain('custom text');
  });

  it('on a phone the text box is near the top, the other fields after it, folded; at 1280 above it', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      await page().reload();
      await expect.poll(() => post(1).inputValue()).toBe('First words.');
      await newDraft();
      await post(1).fill('Written on a phone.');
      const top = await post(1).evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      expect(top).toBeLessThan(300);
      const details = page().locator('[data-compose-details]');
      await expect(details.evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(false);
      const detailsTop = await details.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      expect(detailsTop).toBeGreaterThan(top);
      await details.locator('summary').click();
      await page().getByLabel('Title').waitFor();
      await app.shot('compose-390');
    } finally {
      await page().setViewportSize({ width: 1280, height: 800 });
    }
    await page().reload();
    await post(1).waitFor();
    const title = await page()
      .getByLabel('Title')
      .evaluate((el) => el.getBoundingClientRect().top);
    const text = await post(1).evaluate((el) => el.getBoundingClientRect().top);
    expect(title).toBeLessThan(text);
    await app.shot('compose-1280');
    expect(app.problems).toEqual([]);
  });
});
