/**
 * In real Chromium against a real Herald: the X spend meter beside the credits in the queue and
 * the composer (month spent + scheduled against the cap, over the cap shown as such), the price
 * table and cap edited in Settings, and browser notifications from the event stream: shown for
 * post.published and a final post.failed once the page has the permission (granted through
 * playwright), and not shown for a kind whose switch is off in Settings. The Notification
 * constructor is wrapped to record what the page shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
let key: string;
let owner: string;
let xId: string;
const page = () => app.page;
const api = async (method: string, p: string, body?: unknown) => (await app.t.call(method, p, { key, body })).body;
const shown = () =>
  page().evaluate(() => (window as unknown as { __shown: { title: string; body: string }[] }).__shown);

beforeAll(async () => {
  app = await startUiApp({ server: { scheduler: false } });
  await app.context.grantPermissions(['notifications'], { origin: app.origin });
  await app.context.addInitScript(() => {
    const w = window as unknown as { __shown: { title: string; body: string }[]; Notification: typeof Notification };
    w.__shown = [];
    const Original = w.Notification;
    class Recorded extends Original {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        w.__shown.push({ title, body: options?.body ?? '' });
      }
    }
    w.Notification = Recorded;
  });
  key = await signIn(app, '#/queue');
  owner = userIdOf(app.t, OWNER.email);
  xId = addAccount(app.t, owner, 'microblog').accountId;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('spend meter', () => {
  it(
    'shows the month spent and scheduled against the cap in the ' + 'queue and the composer; over the cap it says so',
    async () => {
      // What two X requests cost when they were sent this month (a link: $0.200; plain: $0.015).
      const usage = app.t.server.sqlite.prepare(
        'INSERT INTO post_usage (user_id, account_id, platform, kind, cost_usd, at) VALUES (?, ?, ' +
          "'microblog', ?, ?, ?)",
      );
      usage.run(owner, xId, 'post', 0.2, Date.now() - 60_000);
      usage.run(owner, xId, 'reply', 0.015, Date.now() - 60_000);
      expect((await app.t.call('PUT', '/settings', { key, body: { xMonthlyCapUsd: 0.25 } })).status).toBe(200);
      const draftId = (
        await api('POST', '/microblog/drafts', {
          title: 'Scheduled on X',
          tweets: [{ content: 'Scheduled on X, no link' }],
        })
      ).draft.id;
      const s = await app.t.call('POST', '/microblog/schedule', {
        key,
        body: { draftId, scheduledFor: new Date(Date.now() + 3_600_000).toISOString(), accountUuid: xId },
      });
      expect(s.status, s.text).toBe(200);

      await page().goto(`${app.origin}/#/queue`);
      await page().reload();
      const meter = page().locator('[data-spend-meter]');
      await expect.poll(() => meter.textContent()).toContain('$0.215 spent + $0.015 scheduled of $0.25 cap');
      expect(await meter.getAttribute('data-over')).toBe('false');
      expect(await meter.locator('meter').getAttribute('value')).toBe('0.23');

      await page().goto(`${app.origin}/#/compose?new=1`);
      await expect
        .poll(() => page().locator('[data-spend-meter]').textContent())
        .toContain('$0.215 spent + $0.015 scheduled of $0.25 cap');
      await app.shot('70-spend-meter-compose');

      // The cap lowered in Settings: the meter shows it over.
      await page().goto(`${app.origin}/#/settings`);
      const form = page().locator('[data-x-spend-settings]');
      await form.getByLabel('Monthly spend cap (USD)').fill('0.2');
      await form.getByLabel('Price per post (USD)').fill('0.02');
      await form.getByRole('button', { name: 'Save X settings' }).click();
      await form.getByText('Saved; applies at once.').waitFor();
      expect((await api('GET', '/settings')).settings).toMatchObject({ xMonthlyCapUsd: 0.2, xPriceUsd: 0.02 });
      await page().goto(`${app.origin}/#/queue`);
      await expect.poll(() => page().locator('[data-spend-meter]').getAttribute('data-over')).toBe('true');
      // The scheduled post is priced at today's price.
      expect(await page().locator('[data-spend-meter]').textContent()).toMatch(
        /\$0\.215 spent \+ \$0\.02 scheduled of \$0\.20 cap\s+— over the cap/,
      );
      await app.shot('71-spend-meter-queue-over');
      expect(app.problems).toEqual([]);
    },
  );
});

describe('browser notifications', () => {
  const post = (type: 'post.published' | 'post.failed', extra: Record<string, unknown>) =>
    app.t.server.services.events.post(
      owner,
      type,
      { draftId: 'd-notify', accountId: xId, platform: 'microblog' },
      extra,
    );

  it('shows published and failed posts once permitted; a kind switched off in Settings shows nothing', async () => {
    await page().goto(`${app.origin}/#/settings`);
    await page().locator('[data-notification-permission="granted"]').waitFor();
    // The stream is open once the page has signed in; an event after that is notified.
    await page().waitForTimeout(500);
    post('post.published', { url: 'https://x.com/i/web/status/1' });
    await expect.poll(shown).toEqual([{ title: 'Published to X', body: 'https://x.com/i/web/status/1' }]);
    post('post.failed', { error: 'A retry is queued', nextAttemptAt: new Date(Date.now() + 60_000).toISOString() });
    post('post.failed', { error: 'X refused the post', nextAttemptAt: null });
    await expect.poll(async () => (await shown()).length).toBe(2);
    expect((await shown())[1]).toEqual({ title: 'Publishing to X failed', body: 'X refused the post' });

    // Published switched off: saved on the server, and a published post shows nothing.
    await page().locator('[data-notify="published"]').uncheck();
    await expect.poll(async () => (await api('GET', '/settings')).settings.notifications.published).toBe(false);
    post('post.published', { url: 'https://x.com/i/web/status/2' });
    post('post.failed', { error: 'Marker after the silent one', nextAttemptAt: null });
    await expect.poll(async () => (await shown()).length).toBe(3);
    expect((await shown()).map((n) => n.title)).toEqual([
      'Published to X',
      'Publishing to X failed',
      'Publishing to X failed',
    ]);
    expect(await page().locator('[data-notify="published"]').isChecked()).toBe(false);
    await app.shot('72-notification-settings');
    expect(app.problems).toEqual([]);
  });

  it('without the permission no stream is open; it is asked on a click, and notifications follow', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await context.addInitScript(() => {
        const w = window as unknown as { __shown: string[]; Notification: typeof Notification };
        w.__shown = [];
        const Original = w.Notification;
        w.Notification = class extends Original {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            w.__shown.push(title);
          }
        };
      });
      const p = await context.newPage();
      const streams: string[] = [];
      p.on('request', (r) => {
        if (r.url().endsWith('/api/v1/events')) streams.push(r.url());
      });
      await p.goto(`${app.origin}/#/settings`);
      await p.evaluate((k) => localStorage.setItem('herald.apiKey', k), key);
      await p.reload();
      const ask = p.getByRole('button', { name: 'Allow browser notifications' });
      await ask.waitFor();
      await p.waitForTimeout(300);
      expect(streams).toEqual([]);
      // The person says yes in the browser's prompt (granted here), after clicking.
      await context.grantPermissions(['notifications'], { origin: app.origin });
      await ask.click();
      await p.locator('[data-notification-permission="granted"]').waitFor();
      await expect.poll(() => streams.length).toBe(1);
      await p.waitForTimeout(300);
      post('post.failed', { error: 'Told after the click', nextAttemptAt: null });
      await expect
        .poll(() => p.evaluate(() => (window as unknown as { __shown: string[] }).__shown))
        .toEqual(['Publishing to X failed']);
    } finally {
      await context.close();
    }
  });
});
