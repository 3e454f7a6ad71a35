/**
 * 50 XSS payloads in everything the UI shows that a user, a network or an error can put there:
 * post text (typed and saved), draft titles, alt text, template names and text, account names
 * and usernames coming from the X and Mastodon simulators, social set and API key names, and
 * error messages that echo input. Every page that shows them is opened in real Chromium: no
 * payload runs (the flag each would set stays unset, no dialog opens, no CSP violation is even
 * attempted, since nothing is parsed as HTML) and the payloads are on the page as text. That the
 * CSP itself blocks what would run is shown in xss-csp.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { app, clean, open, page, PAYLOADS, scheduledFor, shownAsText, useXssWorld } from '../helpers/xss-world.js';

useXssWorld();

describe('50 payloads render as text and never run', () => {
  it('typed into the composer (50 posts by one paste) and shown in every preview', async () => {
    const draftCount = () => (app.t.server.sqlite.prepare('SELECT count(*) AS n FROM drafts').get() as { n: number }).n;
    const before = draftCount();
    await open('#/compose?new=1', 'textarea');
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await page().evaluate((t) => navigator.clipboard.writeText(t), PAYLOADS.join('\n---\n'));
    await page().getByRole('textbox', { name: 'Post 1', exact: true }).focus();
    await page().keyboard.press('Control+v');
    await expect.poll(() => page().locator('[data-post] textarea').count()).toBe(50);
    // The 50 posts are saved as a draft (within a second) before the title is typed: the title of
    // all 50 payloads is over the 500-character limit, so its saves are refused and the draft keeps
    // no title. Waiting here makes the drafts list below hold this draft on every machine.
    await expect.poll(draftCount, { timeout: 10_000 }).toBe(before + 1);
    await page().getByLabel('Title').fill(PAYLOADS.join(' '));
    // Per-network text with payloads too.
    await page().getByRole('button', { name: 'Customise for Mastodon' }).click();
    await page().getByLabel('Mastodon text').fill(PAYLOADS.slice(0, 10).join('\n---\n'));
    expect(await page().locator('[data-preview="microblog"] [data-bubble]').count()).toBe(50);
    const bubbles = await page()
      .locator('[data-preview="microblog"] [data-bubble]')
      .evaluateAll((els) => els.map((e) => e.childNodes[0]?.textContent));
    expect(bubbles).toEqual(PAYLOADS.map((p) => p.trim()));
    await clean('composer');
    await app.shot('40-xss-composer');
    await page().getByRole('button', { name: 'New', exact: true }).click();
  });

  it('in saved drafts, titles, alt text and account names (composer, drafts list)', async () => {
    await open('#/drafts', 'tr[data-draft]');
    await expect.poll(() => page().locator('tr[data-draft]').count()).toBe(23);
    expect(await shownAsText()).toBeGreaterThanOrEqual(20);
    await clean('drafts');
    await app.shot('41-xss-drafts');

    await page().getByRole('link', { name: PAYLOADS[28] }).click();
    await page().getByRole('heading', { name: 'Edit draft' }).waitFor();
    await expect.poll(() => page().locator('[data-media] input').count()).toBe(8);
    const alts = await page()
      .locator('[data-media] input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(alts).toEqual(PAYLOADS.slice(20, 28));
    const imgAlts = await page()
      .locator('[data-media] img')
      .evaluateAll((els) => els.map((e) => e.getAttribute('alt')));
    expect(imgAlts).toEqual(PAYLOADS.slice(20, 28));
    // The account chips carry the hostile names as text.
    await expect(page().locator('[data-account]').allTextContents()).resolves.toContainEqual(
      expect.stringContaining(PAYLOADS[0]),
    );
    await clean('draft with media');
  });

  it('on the accounts, social sets, templates and API keys pages', async () => {
    await open('#/accounts', 'tr[data-account]');
    await expect.poll(() => page().locator('tr[data-account]').count()).toBe(7);
    const accountsText = await page().locator('table').innerText();
    for (const p of PAYLOADS.slice(0, 6)) expect(accountsText).toContain(p);
    await clean('accounts');
    await app.shot('42-xss-accounts');

    await open('#/sets', '[data-set]');
    expect(await shownAsText()).toBeGreaterThanOrEqual(6);
    await clean('social sets');

    await open('#/templates', 'tbody tr');
    for (const p of PAYLOADS.slice(6, 12)) expect(await page().locator('table').innerText()).toContain(p);
    await page().locator('tbody tr').first().getByRole('button', { name: 'Edit' }).click();
    await clean('templates');
    await app.shot('43-xss-templates');

    await open('#/keys', 'tbody tr');
    for (const p of PAYLOADS.slice(16, 20)) expect(await page().locator('table').innerText()).toContain(p);
    await clean('api keys');
  });

  it('in the queue list, the week and month calendars, history and credits', async () => {
    await open('#/queue', 'tr[data-entry]');
    await expect.poll(() => page().locator('tr[data-entry]').count()).toBe(6);
    await clean('queue');
    await open('#/calendar', '[data-testid="calendar"]');
    for (const view of ['Week', 'Month']) {
      await page().getByRole('tab', { name: view }).click();
      // Whether the posts' day is in the next week or month is read in the zone the calendar shows
      // (the browser's own clock is Berlin's, an hour past the calendar's midnight at 23:00 UTC).
      const zone = await page().locator('main [data-zone]').first().getAttribute('data-zone');
      const dueNextWeek = await page().evaluate(
        ([v, z, due]) => {
          // The zone's calendar day as days since 1970-01-05, a Monday (weeks start on Monday).
          const day = (ms: number) =>
            (Date.parse(`${new Intl.DateTimeFormat('en-CA', { timeZone: z! }).format(ms)}T00:00:00Z`) -
              Date.UTC(1970, 0, 5)) /
            86_400_000;
          const month = (ms: number) => new Intl.DateTimeFormat('en-US', { timeZone: z!, month: 'numeric' }).format(ms);
          return v === 'Week'
            ? Math.floor(day(due) / 7) !== Math.floor(day(Date.now()) / 7)
            : month(due) !== month(Date.now());
        },
        [view, zone, scheduledFor] as const,
      );
      if (dueNextWeek)
        await page()
          .getByRole('button', { name: `Next ${view.toLowerCase()}` })
          .click();
      await expect.poll(() => page().getByTestId('calendar').locator('[data-kind="scheduled"]').count()).toBe(6);
      await clean(`calendar ${view}`);
    }
    await app.shot('44-xss-calendar');

    await open('#/history', 'tr[data-publication]');
    const historyText = await page().locator('table').innerText();
    expect(historyText).toContain(PAYLOADS[49]);
    expect(historyText).toContain(PAYLOADS[0]);
    const hrefs = await page()
      .locator('tr[data-publication] a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs.every((h) => h.startsWith('https://'))).toBe(true);
    await clean('history');

    await open('#/credits', 'tbody tr');
    await clean('credits');
  });

  it('in error messages that echo what was typed', async () => {
    await open('#/accounts', 'tr[data-account]');
    for (const p of [PAYLOADS[1], PAYLOADS[7]]) {
      await page().getByLabel('Mastodon instance').fill(`https://example.invalid/${p}`);
      await page().getByRole('button', { name: 'Connect Mastodon' }).click();
      await page().getByRole('alert').waitFor();
    }
    await page().getByLabel('Bluesky handle').fill(PAYLOADS[2]);
    await page().getByLabel('Bluesky app password').fill(PAYLOADS[3]);
    await page().getByLabel('Bluesky server').fill(PAYLOADS[4]);
    await page().getByRole('button', { name: 'Connect Bluesky' }).click();
    await page().getByRole('alert').waitFor();
    await app.shot('45-xss-errors');
    // The requests failed (4xx/502 from Herald, logged by Chromium); nothing ran.
    app.problems.splice(0, app.problems.length, ...app.problems.filter((p) => !/status of [45]\d\d/.test(p)));
    await clean('errors');
  });
});
