/**
 * A post handed off to its Mastodon instance (docs/decisions.md §14) shows so in the Queue, in real
 * Chromium: "Handed to <instance>, goes out at …"; a post the instance refused shows why Herald
 * sends it itself. The hand-off itself is tested against the simulator in
 * test/integration/hand-off.test.ts; here the entries are put in that state directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER } from '../helpers/server.js';
import { signIn, startUiApp, type UiApp } from '../helpers/ui-app.js';

let app: UiApp;
let key: string;
let fed: string;
const api = async (method: string, p: string, body?: unknown) => (await app.t.call(method, p, { key, body })).body;

beforeAll(async () => {
  app = await startUiApp({ server: { scheduler: false } });
  key = await signIn(app, '#/queue');
  fed = addAccount(app.t, userIdOf(app.t, OWNER.email), 'fedblog').accountId;
  app.t.server.sqlite.prepare('UPDATE accounts SET server_url = ? WHERE id = ?').run('https://mastodon.example', fed);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function scheduled(title: string, inMs: number): Promise<string> {
  const id = (await api('POST', '/microblog/drafts', { title, tweets: [{ content: title }] })).draft.id as string;
  const r = await api('POST', '/microblog/schedule', {
    draftId: id,
    scheduledFor: new Date(Date.now() + inMs).toISOString(),
    targetAccounts: [{ accountId: fed }],
    applyJitter: false,
  });
  expect(r.success).toBe(true);
  return id;
}

describe('Queue: hand-off', () => {
  it('shows a handed-off post with its instance and time, and why a refused one is sent by Herald', async () => {
    const handed = await scheduled('Handed to the instance', 3 * 3_600_000);
    const refused = await scheduled('Refused by the instance', 4 * 3_600_000);
    const db = app.t.server.sqlite;
    db.prepare(
      "UPDATE schedule_entries SET network_scheduled_id = '113000000000065537', handed_off_for = fire_at " +
        'WHERE draft_id = ?',
    ).run(handed);
    db.prepare('UPDATE schedule_entries SET hand_off_note = ? WHERE draft_id = ?').run(
      'Mastodon refused the hand-off (Validation failed); Herald sends it itself at its time',
      refused,
    );

    const page = app.page;
    await page.reload();
    await page.getByRole('tab', { name: 'List' }).click();
    const row = page.locator('li.queue-draft', { hasText: 'Handed to the instance' });
    await row.locator('[data-handed-off]').waitFor();
    expect(await row.locator('[data-handed-off]').textContent()).toMatch(/^Handed to mastodon\.example, goes out at /);
    const other = page.locator('li.queue-draft', { hasText: 'Refused by the instance' });
    expect(await other.locator('[data-hand-off-note]').textContent()).toContain('refused the hand-off');
    await app.shot('62-queue-hand-off-1280');

    const progress = (await app.t.call('GET', `/microblog/publish/progress?draftId=${handed}`, { key })).body
      .entries[0];
    expect(progress).toMatchObject({
      status: 'handed_off',
      networkScheduledId: '113000000000065537',
      handedOffTo: 'mastodon.example',
    });
  });

  it('Settings turns the hand-off off and on', async () => {
    const page = app.page;
    await page.goto(`${app.origin}/#/settings`);
    const box = page.locator('[data-hand-off-setting]');
    await box.waitFor();
    await expect.poll(() => box.isEnabled()).toBe(true); // the saved settings are in
    expect(await box.isChecked()).toBe(false); // the test server's default (the product's is on)
    await box.check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').waitFor();
    expect((await api('GET', '/settings')).settings.fedblogHandOff).toBe(true);
  });
});
