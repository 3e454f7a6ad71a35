/**
 * The views of #22 item 5 in real Chromium against a real Herald (the browser in Europe/Berlin,
 * the social set in Asia/Kolkata): the calendar's month and week views with each post's networks
 * and title at its Kolkata time, drag to reschedule (a dialog confirms; the API then has the new
 * times, per network), posts that did not go out marked on their day with a link to History
 * filtered to them (where Retry is), the queue's per-network Cancel (asked first; only that network goes),
 * Undo bringing back a deleted template (and a template not undone really deleted after 10 s),
 * and History's filters (network, status, dates, text) with each network's link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocal } from '../../time/index.js';
import type { UiApp } from '../helpers/ui-app.js';
import { userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { startViewsApp, ZONE, type ViewsWorld } from '../helpers/views-data.js';

let app: UiApp;
let w: ViewsWorld;
const page = () => app.page;
const entriesOf = async (draftId: string) =>
  Object.fromEntries(
    ((await w.call('GET', '/microblog/schedule')).schedules as any[])
      .filter((s) => s.draftId === draftId)
      .map((s) => [s.platform, formatLocal(ZONE, Date.parse(s.scheduledFor)).local]),
  );
const dayAfter = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ app, w } = await startViewsApp());
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('calendar', () => {
  it('month view: the post on its day at its Kolkata time, with its networks and title', async () => {
    await page().goto(`${app.origin}/#/calendar?date=${w.date}`);
    const cal = page().getByTestId('calendar');
    const item = cal.locator(`[data-day="${w.date}"] [data-item="${w.scheduled}"]`);
    await item.waitFor();
    const text = (await item.textContent())!;
    expect(text).toContain('10:30');
    expect(text).toContain('Launch day: Supercalifragilistic');
    await expect(
      item.locator('[data-network]').evaluateAll((els) => els.map((e) => e.getAttribute('data-network')).sort()),
    ).resolves.toEqual(['fedblog', 'microblog']);
    await page().locator(`[data-zone="${ZONE}"]`).first().waitFor();
    await app.shot('71-calendar-month-1280');
  });

  it('published posts are on their day, one item with a link per network', async () => {
    const day = formatLocal(ZONE, Date.now() - 3 * 86_400_000).local.slice(0, 10);
    await page().goto(`${app.origin}/#/calendar?date=${day}`);
    const item = page().getByTestId('calendar').locator(`[data-day="${day}"] [data-kind="published"]`);
    await item.waitFor();
    await expect(item.count()).resolves.toBe(1);
    await expect(item.getByRole('link', { name: /^(X|Mastodon) ↗$/ }).count()).resolves.toBe(2);
    await expect(item.getAttribute('draggable')).resolves.toBe('false');
    await page().goto(`${app.origin}/#/calendar?date=${w.date}`);
    await page().getByTestId('calendar').locator(`[data-item="${w.scheduled}"]`).waitFor();
  });

  it('dragging it to the next day, then confirming, moves both networks to that day, same time', async () => {
    const target = dayAfter(w.date, 1);
    const cal = page().getByTestId('calendar');
    await expect.poll(() => cal.getAttribute('aria-busy')).toBe('false'); // no reload re-renders it mid-drag
    await cal.locator(`[data-item="${w.scheduled}"]`).dragTo(cal.locator(`[data-day="${target}"]`));
    const dialog = page().getByRole('dialog', { name: 'Reschedule' });
    await dialog.waitFor();
    await expect(dialog.getByLabel(/^Date for X/).inputValue()).resolves.toBe(target);
    await expect(dialog.getByLabel(/^Time for Mastodon/).inputValue()).resolves.toBe('10:30');
    await app.shot('72-calendar-move-dialog');
    // Nothing moved before the confirmation.
    expect(await entriesOf(w.scheduled)).toEqual({ microblog: `${w.date}T10:30`, fedblog: `${w.date}T10:30` });
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page()
      .getByText(/^Moved “Launch day/)
      .waitFor();
    expect(await entriesOf(w.scheduled)).toEqual({ microblog: `${target}T10:30`, fedblog: `${target}T10:30` });
    await cal.locator(`[data-day="${target}"] [data-item="${w.scheduled}"]`).waitFor();
  });

  it('week view: dropped on another day at 15:00, only the ticked network (Mastodon) moves', async () => {
    const from = dayAfter(w.date, 1);
    await page().getByRole('tab', { name: 'Week' }).click();
    const cal = page().locator('[data-testid="calendar"][data-view="week"]');
    const item = cal.locator(`[data-day="${from}"][data-hour="10"] [data-item="${w.scheduled}"]`);
    await item.waitFor();
    await expect.poll(() => cal.getAttribute('aria-busy')).toBe('false');
    // Another day of the same week (Monday first).
    const weekday = new Date(`${from}T00:00:00Z`).getUTCDay();
    const target = dayAfter(from, weekday === 0 ? -1 : 1);
    await app.shot('73-calendar-week-1280');
    await item.dragTo(cal.locator(`[data-day="${target}"][data-hour="15"]`));
    const dialog = page().getByRole('dialog', { name: 'Reschedule' });
    await expect(dialog.getByLabel(/^Time for X/).inputValue()).resolves.toBe('15:30');
    await dialog.getByRole('checkbox', { name: /^X @/ }).uncheck();
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page()
      .getByText(/^Moved “Launch day.*” on Mastodon\./)
      .waitFor();
    expect(await entriesOf(w.scheduled)).toEqual({ microblog: `${from}T10:30`, fedblog: `${target}T15:30` });
    await cal.locator(`[data-day="${target}"][data-hour="15"] [data-item="${w.scheduled}"]`).waitFor();
    await page().setViewportSize({ width: 390, height: 844 });
    await app.shot('74-calendar-week-390');
    await page().setViewportSize({ width: 1280, height: 800 });
  });

  it('posts that did not go out are on the day it happened, marked, and link to History filtered to them', async () => {
    const owner = userIdOf(app.t, OWNER.email);
    const draft = (
      await w.call('POST', '/microblog/drafts', {
        title: 'Missed the launch window',
        tweets: [{ content: 'late' }],
        selectedAccountIds: [w.x, w.fed],
      })
    ).draft.id as string;
    const at = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const sqlite = app.t.server.sqlite;
    const insert =
      sqlite.prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts, error,
            url, published_at, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 1, ?, NULL, NULL, ?, ?)`);
    insert.run(
      'pub-cal-failed',
      owner,
      draft,
      w.x,
      'microblog',
      'failed',
      'X refused the post: duplicate content',
      at,
      at,
    );
    insert.run(
      'pub-cal-missed',
      owner,
      draft,
      w.fed,
      'fedblog',
      'missed',
      'Herald was not running at the time',
      at,
      at,
    );
    try {
      const day = formatLocal(ZONE, Date.parse(at)).local.slice(0, 10);
      await page().goto(`${app.origin}/#/calendar?date=${day}`);
      const item = page()
        .getByTestId('calendar')
        .locator(`[data-day="${day}"] [data-kind="problem"][data-item="${draft}"]`);
      await item.waitFor();
      const text = (await item.textContent())!;
      expect(text).toContain('Missed the launch window');
      expect(text).toContain('X failed · Mastodon missed');
      await expect(item.getAttribute('draggable')).resolves.toBe('false');
      await expect(item.getAttribute('title')).resolves.toContain('X refused the post: duplicate content');
      await app.shot('75-calendar-problem-1280');
      await page().getByRole('tab', { name: 'Month' }).click();
      await page()
        .locator(`[data-testid="calendar"][data-view="month"] [data-day="${day}"] [data-kind="problem"]`)
        .waitFor();
      await page().emulateMedia({ colorScheme: 'dark' });
      await app.shot('75-calendar-problem-month-dark-1280');
      await page().emulateMedia({ colorScheme: 'light' });
      await page().setViewportSize({ width: 390, height: 844 });
      // On a phone the month grid shows the mark; the list under it says what and links.
      await page()
        .getByRole('list', { name: 'Posts in this view' })
        .locator(`[data-item="${draft}"]`)
        .getByText('X failed · Mastodon missed')
        .waitFor();
      await app.shot('75-calendar-problem-390');
      await page().emulateMedia({ colorScheme: 'dark' });
      await app.shot('75-calendar-problem-390-dark');
      await page().emulateMedia({ colorScheme: 'light' });
      await page().setViewportSize({ width: 1280, height: 800 });

      await page()
        .getByTestId('calendar')
        .locator(`[data-day="${day}"] [data-kind="problem"]`)
        .getByRole('link', { name: 'Retry in History' })
        .click();
      await page().waitForURL(/#\/history\?/);
      await expect(page().getByLabel('From date').inputValue()).resolves.toBe(day);
      await expect(page().getByLabel('To date').inputValue()).resolves.toBe(day);
      await expect(page().getByLabel('Search history').inputValue()).resolves.toBe('Missed the launch window');
      const rows = page().locator('tr[data-publication]');
      await expect
        .poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-publication')).sort()))
        .toEqual(['pub-cal-failed', 'pub-cal-missed']);
      await expect(rows.getByRole('button', { name: /^Retry/ }).count()).resolves.toBe(2);
    } finally {
      sqlite.prepare("DELETE FROM publications WHERE id IN ('pub-cal-failed', 'pub-cal-missed')").run();
      await w.call('DELETE', `/microblog/drafts/${draft}`);
    }
  });
});

describe('queue', () => {
  it("shows each draft's full title and networks; Cancel on one network asks, then cancels only that one", async () => {
    await page().goto(`${app.origin}/#/queue`);
    const row = page().locator(`li[data-draft="${w.scheduled}"]`);
    await row.waitFor();
    await expect(row.locator('.queue-title').textContent()).resolves.toContain(
      'Launch day: Supercalifragilisticexpialidocious-announcement-without-any-spaces-at-all-for-the-layout',
    );
    await expect(row.locator('.queue-head [data-network]').count()).resolves.toBe(2);
    const asked = app.dialogs.length;
    await row.getByRole('button', { name: /^Cancel on Mastodon/ }).click();
    await page()
      .getByText(/^Cancelled “Launch day.*” on Mastodon/)
      .waitFor();
    expect(app.dialogs.slice(asked)).toEqual([
      expect.stringMatching(
        /^confirm: Cancel “Launch day.*” on Mastodon @\S+\? It stays scheduled on 1 other network\.$/,
      ),
    ]);
    expect(Object.keys(await entriesOf(w.scheduled))).toEqual(['microblog']);
    await expect(row.locator('tr[data-platform]').count()).resolves.toBe(1);
    const draft = (await w.call('GET', `/microblog/drafts/${w.scheduled}`)).draft;
    expect(draft.status).toBe('scheduled');
    await app.shot('75-queue-after-cancel');
  });
});

describe('undo', () => {
  it('Undo brings a deleted template back; one not undone is deleted after 10 s', async () => {
    const keep = (await w.call('POST', '/templates', { name: 'Keep me', headContentPlain: 'head' })).template
      .uuid as string;
    const lose = (await w.call('POST', '/templates', { name: 'Lose me', headContentPlain: 'head' })).template
      .uuid as string;
    const exists = async (id: string) => (await app.t.call('GET', `/templates/${id}`, { key: w.key })).status === 200;
    await page().goto(`${app.origin}/#/templates`);
    await page().locator(`tr[data-template="${keep}"]`).getByRole('button', { name: 'Delete' }).click();
    await page().locator(`tr[data-template="${lose}"]`).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page().locator(`tr[data-template="${keep}"], tr[data-template="${lose}"]`).count()).toBe(0);
    await page().locator(`[data-undo="template:${keep}"]`).waitFor();
    await app.shot('76-undo-toast');
    // Held back, not yet gone.
    expect([await exists(keep), await exists(lose)]).toEqual([true, true]);
    await page().locator(`[data-undo="template:${keep}"]`).getByRole('button', { name: 'Undo' }).click();
    await page().locator(`tr[data-template="${keep}"]`).waitFor();
    await expect.poll(() => exists(lose), { timeout: 14_000, interval: 500 }).toBe(false);
    expect(await exists(keep)).toBe(true);
    await expect(page().locator(`tr[data-template="${lose}"]`).count()).resolves.toBe(0);
    await expect(page().locator(`tr[data-template="${keep}"]`).count()).resolves.toBe(1);
  }, 30_000);
});

describe('history', () => {
  it("filters by network, status, date range and text; each network's post has its own link", async () => {
    await page().goto(`${app.origin}/#/history`);
    const rows = page().locator('tr[data-publication]');
    await expect.poll(() => rows.count()).toBe(3);
    await expect(page().locator('a[data-link="fedblog"]').getAttribute('href')).resolves.toMatch(
      /^https:\/\/mastodon\.example\/@herald\//,
    );
    await expect(page().locator('a[data-link="microblog"]').getAttribute('href')).resolves.toMatch(
      /^https:\/\/x\.example\/status\//,
    );

    await page().getByLabel('Filter by network').selectOption('microblog');
    await expect.poll(() => rows.count()).toBe(2);
    await page().getByLabel('Filter by status').selectOption('published');
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().getAttribute('data-publication')).resolves.toBe('pub-x');
    await page().getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows.count()).toBe(3);

    const tenDaysAgo = formatLocal(ZONE, Date.now() - 10 * 86_400_000).local.slice(0, 10);
    await page().getByLabel('From date').fill(tenDaysAgo);
    await expect.poll(() => rows.count()).toBe(2);
    await page().getByLabel('From date').fill('');
    await page().getByLabel('To date').fill(tenDaysAgo);
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().getAttribute('data-publication')).resolves.toBe('pub-old');
    await page().getByRole('button', { name: 'Clear filters' }).click();

    await page().getByLabel('Search history').fill('old failure');
    await expect.poll(() => rows.count()).toBe(1);
    await page().getByLabel('Search history').fill('no such words anywhere');
    await page().getByText('Nothing matches these filters.').waitFor();
    await page().getByLabel('Search history').fill('');
    await expect.poll(() => rows.count()).toBe(3);
    await app.shot('77-history-1280');
  });

  it('a post whose draft was deleted, and a direct post, say so and show the start of what was sent', async () => {
    const owner = userIdOf(app.t, OWNER.email);
    const db = app.t.server.sqlite;
    const at = new Date(Date.now() - 86_400_000).toISOString();
    const pub = db.prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts,
        url, origin, published_at, created_at, updated_at)
        VALUES (?, ?, NULL, ?, 'microblog', 'published', 1, ?, ?, ?, ?, ?)`);
    const part = db.prepare(`INSERT INTO publication_parts (id, publication_id, position, status, text, idempotency_key)
        VALUES (?, ?, 0, 'sent', ?, ?)`);
    const gone = `Untitled rows: the draft of this one was deleted after it went out, ${'and it ran long '.repeat(8)}`;
    pub.run('pub-gone', owner, w.x, 'https://x.example/status/1001', 'now', at, at, at);
    part.run('part-gone', 'pub-gone', gone, 'k-gone');
    pub.run('pub-direct', owner, w.x, 'https://x.example/status/1002', 'api', at, at, at);
    part.run('part-direct', 'pub-direct', 'Untitled rows: sent by a script to one network', 'k-direct');

    await page().setViewportSize({ width: 1280, height: 800 });
    await page().goto(`${app.origin}/#/history`);
    await page().getByLabel('Search history').fill('untitled rows');
    const rows = page().locator('tr[data-publication]');
    await expect.poll(() => rows.count()).toBe(2);
    const cell = (id: string) => page().locator(`tr[data-publication="${id}"] td[data-label="Draft"]`);
    const shown = `Deleted draft: “${gone.slice(0, 140).trimEnd()}…”`;
    await expect(cell('pub-gone').textContent()).resolves.toBe(shown);
    await expect(cell('pub-direct').textContent()).resolves.toBe(
      'Direct post: “Untitled rows: sent by a script to one network”',
    );
    await app.shot('history-untitled-1280');
    await page().setViewportSize({ width: 390, height: 844 });
    await cell('pub-gone').waitFor();
    await app.shot('history-untitled-390');
    await page().setViewportSize({ width: 1280, height: 800 });
  });

  it('at 390 px, the result of Schedule (at the foot of the composer) is scrolled into view', async () => {
    const id = (
      await w.call('POST', '/microblog/drafts', {
        title: 'Scrolled into view',
        tweets: [{ content: 'where did my result go?' }],
        selectedAccountIds: [w.x, w.fed],
      })
    ).draft.id;
    await page().setViewportSize({ width: 390, height: 700 });
    await page().goto(`${app.origin}/#/compose?draft=${id}`);
    const button = page().getByRole('button', { name: 'Schedule', exact: true });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const notice = page().locator('[data-outcome="scheduled"]');
    await notice.getByText(/Scheduled for 2 account/).waitFor();
    const inView = () =>
      notice.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    await expect.poll(inView).toBe(true);
    await app.shot('78-compose-result-in-view-390');
    await page().setViewportSize({ width: 1280, height: 800 });
  });

  it('nothing went wrong in the page along the way', () => {
    expect(app.problems).toEqual([]);
    expect(app.dialogs.filter((d) => !d.startsWith('confirm:'))).toEqual([]);
  });
});
