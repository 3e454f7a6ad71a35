/**
 * The upkeep watches feeding the alerts, under an injected clock: credits running low, X spend
 * near its cap (a real post to the X simulator), an account whose sign-in expires within seven
 * days, and the LinkedIn API version within 60 days of its end (then the setting that moves to a
 * newer one). Each notice is on the event stream and reaches an alert once; a second look tells
 * nothing new.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { startWebhookSimulator, type WebhookSimulator } from '../simulators/alerts.hooks.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/linkedin.simulator.js';

vi.setConfig({ testTimeout: 60_000 });

const CLIENT = { clientId: 'herald-upkeep-client', clientSecret: 'herald-upkeep-secret' };
const DAY = 86_400_000;
// The default LinkedIn version, 202610, ends on 2027-10-01: 61 days before it.
const clock = new TestClock(Date.parse('2027-08-01T12:00:00Z'));
let x: XSimulator;
let li: LinkedInSimulator;
let hook: WebhookSimulator;
let t: TestServer;
let key: string;
let owner: string;
let xId: string;

beforeAll(async () => {
  // This LinkedIn no longer takes Herald's default version (202610).
  [x, hook, li] = await Promise.all([
    startXSimulator({ ...CLIENT, rejectDuplicates: false }),
    startWebhookSimulator(),
    startLinkedInSimulator({ oldestVersion: '202612' }),
  ]);
  t = await startServer({
    clock,
    scheduler: false,
    alerts: { pollMs: 3_600_000 },
    settings: {
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
      HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
      HERALD_PROBLOG_API_URL: li.url,
      HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
      HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
      HERALD_PROBLOG_CLIENT_ID: li.clientId,
      HERALD_PROBLOG_CLIENT_SECRET: li.clientSecret,
      HERALD_TIME_ZONE: 'UTC',
    },
  });
  key = await t.login();
  owner = ownerId(t);
  xId = (await connectOAuth(t, key, 'microblog')).body.accountUuid;
  const r = await t.call('POST', '/alerts', {
    key,
    body: {
      url: `generic+${hook.url}/hook`,
      events: ['credits.low', 'xspend.near_cap', 'account.expiring', 'network.version_expiring'],
    },
  });
  expect(r.status, r.text).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await Promise.all([x?.close(), hook?.close(), li?.close()]);
});

const run = () => t.server.services.upkeep.run().map((s) => s.split(' ')[0]);
const sent = () => hook.received.map((r) => r.body.event as string);
async function deliver(): Promise<void> {
  await t.server.alerts!.pump();
  await t.server.alerts!.pump();
}

describe('upkeep watches', () => {
  it('nothing to tell on a healthy install', async () => {
    expect(run()).toEqual([]);
  });

  it('credits low: told once a month', async () => {
    const { balance } = (await t.call('POST', '/credits', { key })).body;
    const r = await t.call('POST', '/credits/adjust', { key, body: { amount: -(balance - 50), note: 'spent' } });
    expect(r.status, r.text).toBe(200);
    expect(run()).toEqual(['credits.low']);
    expect(run()).toEqual([]);
    await deliver();
    expect(sent()).toEqual(['credits.low']);
    expect(hook.received[0].text).toContain('50 credits left');
    await t.call('POST', '/credits/adjust', { key, body: { amount: 10_000, note: 'topped up' } });
  });

  it('X spend near its cap, after a real post', async () => {
    await t.call('PUT', '/settings', { key, body: { xMonthlyCapUsd: 0.015 } });
    expect(run()).toEqual([]);
    const d = await t.call('POST', '/microblog/drafts', { key, body: { title: 'x', tweets: [{ content: 'Spend' }] } });
    const p = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId: d.body.draft.id, accountIds: [xId] },
    });
    expect(p.body.results[0].success, p.text).toBe(true);
    expect(run()).toEqual(['xspend.near_cap']);
    expect(run()).toEqual([]);
  });

  it('an account whose sign-in ends within seven days', async () => {
    const id = insertAccount(t, owner, 'threadblog');
    const meta = JSON.stringify({ token: { expiresAt: clock.now() + 3 * DAY, refresh: 'none' } });
    t.server.db.update(accounts).set({ meta }).where(eq(accounts.id, id)).run();
    expect(run()).toEqual(['account.expiring']);
    expect(run()).toEqual([]);
  });

  it('the LinkedIn API version within 60 days of its end, and the setting that moves on', async () => {
    const liId = (await connectOAuth(t, key, 'problog')).body.accountUuid;
    const post = async (text: string) => {
      const d = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
      const r = await t.call('POST', '/microblog/publish', {
        key,
        body: { draftId: d.body.draft.id, accountIds: [liId] },
      });
      return r.body.results[0];
    };
    expect((await post('On the old version')).success).toBe(false);
    expect(run()).toEqual([]);
    clock.advance(2 * DAY);
    expect(run()).toEqual(['network.version_expiring']);
    expect(run()).toEqual([]);
    // Versions not out yet, or ended, are refused; a newer one is taken at once.
    expect((await t.call('PUT', '/settings', { key, body: { linkedinVersion: '202801' } })).status).toBe(400);
    expect((await t.call('PUT', '/settings', { key, body: { linkedinVersion: '202606' } })).status).toBe(400);
    const r = await t.call('PUT', '/settings', { key, body: { linkedinVersion: '202708' } });
    expect(r.status, r.text).toBe(200);
    expect((await t.call('GET', '/settings', { key })).body.settings.linkedinVersion).toBe('202708');
    expect((await post('On the new version')).success).toBe(true);
    clock.advance(30 * DAY);
    expect(run()).toEqual([]);
    await deliver();
    expect(sent().sort()).toEqual(['account.expiring', 'credits.low', 'network.version_expiring', 'xspend.near_cap']);
    const v = hook.received.find((h) => h.body.event === 'network.version_expiring')!;
    expect(v.body.data).toMatchObject({ version: '202610', endsAt: '2027-10-01T00:00:00.000Z' });
  });
});
