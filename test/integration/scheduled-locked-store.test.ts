/**
 * A scheduled post that falls due while the encrypted secret store is locked (Herald restarted,
 * the passphrase not given yet) does not fail: its entry stays pending, uncharged, with
 * `waitingFor: "reconnect"`, a `nextAttemptAt` and a message saying to unlock Herald; nothing
 * reaches the network and the account is not marked for reconnection. Unlocking
 * (POST /setup/secrets/unlock) makes it due at once, and it goes out.
 *
 * Real Herald (restarted on the same data folder), real SQLite, the Mastodon simulator; the
 * clock and the scheduler's wake-up are injected so the test moves time instead of waiting.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

const PASSPHRASE = 'a passphrase for the test store';
const MIN = 60_000;
const dir = tempDir('herald-locked-sched-');
const clock = new TestClock(Date.now());
const waker = new ManualWaker();
let masto: MastodonSimulator;
let t: TestServer;
let key = '';
let accountId = '';
let draftId = '';

const start = () =>
  startServer({
    dataDir: dir,
    clock,
    scheduler: { waker, sweepMs: 3_600_000 },
    credentialCheck: false,
    settings: { HERALD_SECRET_STORE: 'encrypted' },
  });
const balance = async () => (await t.call('POST', '/credits', { key })).body.balance as number;
const progress = async () => (await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key })).body;

beforeAll(async () => {
  masto = await startMastodonSimulator();
  t = await start();
  key = await t.login();
  const chosen = await t.call('POST', '/setup/secrets', { key, body: { store: 'encrypted', passphrase: PASSPHRASE } });
  expect(chosen.status, chosen.text).toBe(200);
  const c = await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  accountId = c.body.accountUuid;
  const d = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: 'while locked', tweets: [{ content: 'Sent once Herald is unlocked' }] },
  });
  draftId = d.body.draft.id;
  const s = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + 5 * MIN).toISOString(),
      targetAccounts: [{ accountId, platform: 'fedblog' }],
      applyJitter: false,
    },
  });
  expect(s.status, s.text).toBe(200);
  // Herald restarts: the encrypted store is locked until someone gives the passphrase.
  await t.server.close();
  t = await start();
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await masto?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('publishing now while the secret store is locked', () => {
  it(
    'answers 423 SECRET_STORE_LOCKED before anything is charged or sent, on the draft and the single-network ' +
      'paths',
    async () => {
      const before = await balance();
      const now = await t.call('POST', '/microblog/publish', {
        key,
        body: {
          draftId: (
            await t.call('POST', '/microblog/drafts', {
              key,
              body: { title: 'now, locked', tweets: [{ content: 'Not sent while locked' }] },
            })
          ).body.draft.id,
          accountIds: [accountId],
        },
      });
      expect(now.status, now.text).toBe(423);
      expect(now.body).toMatchObject({ success: false, error: 'SECRET_STORE_LOCKED' });
      expect(now.body.message).toContain('unlock');
      const direct = await t.call('POST', '/fedblog/publish', {
        key,
        body: { accountUuid: accountId, type: 'single', text: 'Not sent while locked either' },
      });
      expect(direct.status, direct.text).toBe(423);
      expect(await balance()).toBe(before);
      expect(masto.state.statuses).toHaveLength(0);
    },
  );
});

describe('a scheduled post due while the secret store is locked', () => {
  it('waits, pending and uncharged, saying to unlock Herald; nothing reaches the network', async () => {
    expect((await t.call('GET', '/setup/secrets', { key })).body.current).toMatchObject({
      kind: 'encrypted',
      locked: true,
    });
    // What the UI's banner reads on every page, without a keychain round trip.
    expect((await t.call('GET', '/settings', { key })).body.settings).toMatchObject({
      secretStore: 'encrypted',
      secretStoreLocked: true,
    });
    const before = await balance();
    clock.advance(6 * MIN);
    await t.server.scheduler!.tick();
    const p = await progress();
    expect(p.entries).toHaveLength(1);
    const e = p.entries[0];
    expect(e).toMatchObject({ status: 'pending', waitingFor: 'reconnect', attempts: 0 });
    expect(e.error).toMatch(/secret store locked: unlock Herald to send/);
    expect(Date.parse(e.nextAttemptAt)).toBeGreaterThan(clock.now());
    expect(e.statusText).toMatch(/unlock Herald/);
    expect(p.summary).toMatchObject({ pending: 1, failed: 0 });
    expect(masto.state.statuses).toHaveLength(0);
    expect(await balance()).toBe(before);
    const account = (await t.call('GET', `/accounts/${accountId}`, { key })).body.account;
    expect(account.status).toBe('active');
    const draft = (await t.call('GET', `/microblog/drafts/${draftId}`, { key })).body.draft;
    expect(draft.status).toBe('scheduled');
    // Looked at again while still locked: still waiting, still no attempt counted.
    clock.advance(6 * MIN);
    await t.server.scheduler!.tick();
    expect((await progress()).entries[0]).toMatchObject({ status: 'pending', waitingFor: 'reconnect', attempts: 0 });
    expect(masto.state.statuses).toHaveLength(0);
  });

  it('goes out as soon as Herald is unlocked', async () => {
    const r = await t.call('POST', '/setup/secrets/unlock', { key, body: { passphrase: PASSPHRASE } });
    expect(r.status, r.text).toBe(200);
    expect((await t.call('GET', '/settings', { key })).body.settings.secretStoreLocked).toBe(false);
    // Unlocking made it due now: the scheduler's wake-up is armed for the present.
    expect(waker.at).toBeLessThanOrEqual(clock.now());
    await t.server.scheduler!.tick();
    const p = await progress();
    expect(p.entries[0]).toMatchObject({ status: 'published', waitingFor: null });
    expect(masto.state.statuses.map((s) => s.text)).toEqual(['Sent once Herald is unlocked']);
  });
});
