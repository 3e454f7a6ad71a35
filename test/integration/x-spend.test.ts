/**
 * X's pay-per-use spend (docs/decisions.md §15) against the X simulator, with an injected clock: the cost
 * of each post request recorded when sent (each thread part one request, the higher price with a
 * URL), POST /credits' xSpend {monthUsd, scheduledUsd, capUsd}, dry run's xCostUsd from the same
 * price function, the monthly cap set to warn (allowed, with a warning) or to refuse (402
 * SPEND_CAP_REACHED, nothing sent or charged) on the publish, schedule and scheduler paths, and
 * the settings' validation.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/core/config.js';
import { ownerId } from '../helpers/fixtures.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';

vi.setConfig({ testTimeout: 60_000 });

const CLIENT = { clientId: 'herald-spend-client', clientSecret: 'herald-spend-secret' };
const MIN = 60_000;
const clock = new TestClock(Date.parse('2026-11-15T12:00:00Z'));
let x: XSimulator;
let t: TestServer;
let key: string;
let xId: string;

beforeAll(async () => {
  x = await startXSimulator({ ...CLIENT, rejectDuplicates: false });
  t = await startServer({
    clock,
    scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
    settings: {
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
      HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
      HERALD_TIME_ZONE: 'UTC',
    },
  });
  key = await t.login();
  xId = (await connectOAuth(t, key, 'microblog')).body.accountUuid;
});
afterAll(async () => {
  await t?.close();
  await x?.close();
});

async function draft(posts: string[]): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: posts[0].slice(0, 40), tweets: posts.map((content) => ({ content })) },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id as string;
}
const settings = (body: Record<string, unknown>) => t.call('PUT', '/settings', { key, body });
const credits = async () => (await t.call('POST', '/credits', { key })).body;
const publish = (draftId: string) =>
  t.call('POST', '/microblog/publish', { key, body: { draftId, accountIds: [xId] } });
const schedule = (draftId: string, inMs: number) =>
  t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + inMs).toISOString(),
      targetAccounts: [{ accountId: xId, platform: 'microblog' }],
      applyJitter: false,
    },
  });
const sent = (text: string) => x.state.posts.filter((p) => p.text === text).length;

describe('what X posts cost', () => {
  it(
    'records each request when sent (a URL costs more) and reports the month in xSpend; dry run prices the ' +
      'same way',
    async () => {
      expect((await credits()).xSpend).toEqual({ monthUsd: 0, scheduledUsd: 0, capUsd: null });
      const thread = await draft(['A thread with a link https://example.com/spend', 'and a second part without one']);
      const dry = await t.call('POST', '/microblog/publish', {
        key,
        body: { draftId: thread, accountIds: [xId], dryRun: true },
      });
      expect(dry.body.xCostUsd).toBe(0.215);
      expect((await publish(thread)).status).toBe(200);
      expect((await credits()).xSpend.monthUsd).toBe(0.215);
      const rows = t.server.sqlite
        .prepare("SELECT kind, cost_usd AS usd FROM post_usage WHERE platform = 'microblog' ORDER BY id")
        .all();
      expect(rows).toEqual([
        { kind: 'post', usd: 0.2 },
        { kind: 'reply', usd: 0.015 },
      ]);

      // New prices apply to what is priced from now on; what was sent keeps its price.
      expect((await settings({ xPriceUsd: 0.02, xPriceWithUrlUsd: 0.25 })).status).toBe(200);
      const one = await draft(['One plain post, priced anew']);
      expect(
        (await t.call('POST', '/microblog/publish', { key, body: { draftId: one, accountIds: [xId], dryRun: true } }))
          .body.xCostUsd,
      ).toBe(0.02);
      expect(
        (
          await t.call('POST', '/microblog/schedule', {
            key,
            body: {
              draftId: one,
              scheduledFor: new Date(clock.now() + MIN).toISOString(),
              accountUuid: xId,
              dryRun: true,
            },
          })
        ).body.xCostUsd,
      ).toBe(0.02);
      expect((await credits()).xSpend.monthUsd).toBe(0.215);

      // Scheduled later this month counts as scheduled; next month's does not.
      expect((await schedule(one, 2 * 86_400_000)).status).toBe(200);
      const nextMonth = await draft(['Scheduled for next month']);
      expect((await schedule(nextMonth, 20 * 86_400_000)).status).toBe(200);
      expect((await credits()).xSpend).toEqual({ monthUsd: 0.215, scheduledUsd: 0.02, capUsd: null });
      expect((await t.call('GET', '/credits', { key })).body.xSpend).toEqual({
        monthUsd: 0.215,
        scheduledUsd: 0.02,
        capUsd: null,
      });
      await t.call('DELETE', `/microblog/schedule?draftId=${one}`, { key });
      await t.call('DELETE', `/microblog/schedule?draftId=${nextMonth}`, { key });
    },
  );
});

describe('the monthly cap', () => {
  it(
    'refuse: publishing over the cap answers 402 SPEND_CAP_REACHED and sends and charges nothing; within it ' + 'goes',
    async () => {
      expect((await settings({ xMonthlyCapUsd: 0.25, xCapAction: 'refuse' })).status).toBe(200);
      expect((await credits()).xSpend.capUsd).toBe(0.25);
      const within = await draft(['Within the cap']);
      expect((await publish(within)).status).toBe(200);
      expect((await credits()).xSpend.monthUsd).toBe(0.235);
      const over = await draft(['Over the cap']);
      const balance = (await credits()).balance;
      const r = await publish(over);
      expect(r.status, r.text).toBe(402);
      expect(r.body.error).toBe('SPEND_CAP_REACHED');
      expect(r.body.message).toMatch(/\$0\.25/);
      expect(sent('Over the cap')).toBe(0);
      expect((await credits()).balance).toBe(balance);
      // The dry run refuses it the same way.
      expect(
        (await t.call('POST', '/microblog/publish', { key, body: { draftId: over, accountIds: [xId], dryRun: true } }))
          .status,
      ).toBe(402);
      // Scheduling counts the month's spend and what is scheduled.
      const s = await schedule(over, MIN);
      expect(s.status, s.text).toBe(402);
      expect(s.body.error).toBe('SPEND_CAP_REACHED');
    },
  );

  it(
    'refuse on the scheduler path: a post scheduled while allowed fails when it fires over the cap, with its ' +
      'code, uncharged',
    async () => {
      expect((await settings({ xCapAction: 'warn' })).status).toBe(200);
      const later = await draft(['Scheduled, then over the cap']);
      const s = await schedule(later, MIN);
      expect(s.status, s.text).toBe(200);
      expect(s.body.warnings?.[0]).toMatch(/over the \$0\.25 monthly cap/);
      expect((await settings({ xCapAction: 'refuse' })).status).toBe(200);
      const balance = (await credits()).balance;
      const after = t.server.services.events.latestId(ownerId(t));
      clock.advance(MIN);
      await t.server.scheduler!.tick();
      expect(sent('Scheduled, then over the cap')).toBe(0);
      const progress = (await t.call('GET', `/microblog/publish/progress?draftId=${later}`, { key })).body;
      expect(progress.entries[0]).toMatchObject({ status: 'failed', errorCode: 'SPEND_CAP_REACHED' });
      expect(progress.entries[0].statusText).toMatch(/raise the X spend cap/);
      expect((await credits()).balance).toBe(balance);
      const events = t.server.services.events
        .read(ownerId(t), after)
        .map((e) => ({ type: e.type, ...JSON.parse(e.data) }));
      expect(events.find((e) => e.type === 'post.failed')).toMatchObject({
        draftId: later,
        errorCode: 'SPEND_CAP_REACHED',
        nextAttemptAt: null,
      });
    },
  );

  it('warn: publishing and scheduling over the cap go ahead, each answer carrying the warning', async () => {
    expect((await settings({ xCapAction: 'warn' })).status).toBe(200);
    const now = await draft(['Over the cap, warned']);
    const r = await publish(now);
    expect(r.status, r.text).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.warnings).toEqual([expect.stringMatching(/over the \$0\.25 monthly cap \(the cap is set to warn\)/)]);
    expect(sent('Over the cap, warned')).toBe(1);
    const background = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId: await draft(['Over the cap, in the background']), accountIds: [xId], async: true },
    });
    expect(background.status).toBe(202);
    expect(background.body.warnings).toEqual([expect.stringMatching(/monthly cap \(the cap is set to warn\)/)]);
    await expect.poll(() => sent('Over the cap, in the background')).toBe(1);
    const later = await draft(['Scheduled over the cap, warned']);
    const s = await schedule(later, MIN);
    expect(s.status).toBe(200);
    expect(s.body.warnings).toHaveLength(1);
    clock.advance(MIN);
    await t.server.scheduler!.tick();
    expect(sent('Scheduled over the cap, warned')).toBe(1);
    // Removing the cap: no warnings.
    expect((await settings({ xMonthlyCapUsd: null })).body.settings.xMonthlyCapUsd).toBeNull();
    const free = await draft(['No cap any more']);
    expect((await publish(free)).body.warnings).toBeUndefined();
  });
});

describe('settings', () => {
  it('shows the price table, cap and switches; refuses a price or cap below zero naming the field', async () => {
    const s = (await t.call('GET', '/settings', { key })).body.settings;
    expect(s).toMatchObject({
      xPriceUsd: 0.02,
      xPriceWithUrlUsd: 0.25,
      xMonthlyCapUsd: null,
      xCapAction: 'warn',
      xTier: 'pay_per_use',
      notifications: { published: true, failed: true, missed: true, reconnect: true },
    });
    for (const field of ['xPriceUsd', 'xPriceWithUrlUsd', 'xMonthlyCapUsd']) {
      const r = await settings({ [field]: -0.01 });
      expect(r.status, field).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(JSON.stringify(r.body.details)).toContain(field);
    }
    expect((await settings({ xCapAction: 'block' })).status).toBe(400);
    expect((await settings({ notifications: { sometimes: true } })).status).toBe(400);
    // Saved to config.json and read back at the next start.
    expect((await settings({ xMonthlyCapUsd: 12.5, notifications: { failed: false } })).status).toBe(200);
    const again = loadConfig({}, { HERALD_DATA_DIR: t.dataDir });
    expect(again.x).toMatchObject({ priceUsd: 0.02, priceWithUrlUsd: 0.25, monthlyCapUsd: 12.5, capAction: 'warn' });
    expect(again.notifications).toEqual({ published: true, failed: false, missed: true, reconnect: true });
    expect((await settings({ xMonthlyCapUsd: null })).status).toBe(200);
    expect(loadConfig({}, { HERALD_DATA_DIR: t.dataDir }).x.monthlyCapUsd).toBeNull();
  });
});
