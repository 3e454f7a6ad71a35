/**
 * Credential health end to end with a real Bluesky PDS and an injected clock: every account
 * carries `health`; the daily check renews what can be renewed (the real refreshSession) and
 * warns seven days before an expiry it cannot renew, then reports it expired; a refused account
 * is `revoked`, and reconnecting it reuses its row (no duplicate) and keeps its schedule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startPds, type PdsAccount, type PdsPeer } from '../peers/pds.js';

const DAY = 24 * 60 * 60_000;
let now = Date.now();
const clock = { now: () => now };
const warnings: string[] = [];
let pds: PdsPeer;
let sky: PdsAccount;
let t: TestServer;
let key: string;
let accountId: string;

beforeAll(async () => {
  pds = await startPds();
  sky = await pds.createAccount('health');
  t = await startServer({
    clock,
    scheduler: false,
    log: {
      info: () => undefined,
      warn: (m: string) => {
        warnings.push(m);
      },
      error: () => undefined,
    },
  });
  key = await t.login();
  const r = await t.call('POST', '/skyblog/auth', {
    key,
    body: { identifier: sky.handle, appPassword: sky.appPassword, service: pds.url },
  });
  expect(r.status, r.text).toBe(200);
  accountId = r.body.account.uuid;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await pds?.close();
});

const account = async () => (await t.call('GET', `/accounts/${accountId}`, { key })).body.account;

describe('credential health', () => {
  it('a fresh Bluesky session is ok, its expiry known and renewable', async () => {
    const a = await account();
    expect(a.health.state).toBe('ok');
    expect(a.health.expiresAt).toMatch(/^\d{4}-/);
  });

  it('the daily check renews a renewable token (a real refreshSession) and records the new expiry', async () => {
    const before = t.server.services.credentials.refreshCalls;
    const report = await t.server.services.credentialCheck.run();
    expect(report.refreshed).toEqual([accountId]);
    expect(report.failed).toEqual([]);
    expect(t.server.services.credentials.refreshCalls).toBe(before + 1);
    expect((await account()).health.state).toBe('ok');
  });

  it('warns at 7 days before an expiry it cannot renew, then says expired', async () => {
    // The token facts a LinkedIn token without a refresh token leaves (60 days, no renewal).
    const repo = (t.server.services.credentialCheck as any).accounts;
    repo.setMetaFact(accountId, 'token', { expiresAt: now + 8 * DAY, refresh: 'none' });
    expect((await account()).health.state).toBe('ok');
    now += DAY;
    warnings.length = 0;
    const report = await t.server.services.credentialCheck.run();
    expect(report.attention).toEqual([expect.objectContaining({ accountId, state: 'expiring' })]);
    expect(warnings.join('\n')).toMatch(/expires in 7 days/);
    expect((await account()).health).toMatchObject({ state: 'expiring' });
    now += 7 * DAY;
    expect((await account()).health.state).toBe('expired');
    await t.server.services.credentialCheck.run();
    expect(warnings.join('\n')).toMatch(/sign-in expired: reconnect/);
  });

  it('a refused account is revoked; reconnecting reuses the row and keeps the schedule', async () => {
    now = Date.now();
    const draft = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'kept', tweets: [{ content: 'a post that waits for a reconnect' }] },
    });
    expect(draft.status, draft.text).toBe(200);
    const draftId = draft.body.draft?.id ?? draft.body.id;
    const when = new Date(now + 3 * DAY).toISOString();
    const sched = await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: when, targetAccounts: [{ accountId, platform: 'skyblog' }], applyJitter: false },
    });
    expect(sched.status, sched.text).toBe(200);
    // What Herald does when the network refuses the token (a revoked app password).
    t.server.services.credentials.markNeedsReauth(t.server.services.accounts.row(ownerId(t), accountId));
    expect((await account()).health.state).toBe('revoked');
    const again = await t.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: sky.handle, appPassword: sky.appPassword, service: pds.url },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.account.uuid).toBe(accountId);
    expect(again.body.account.health.state).toBe('ok');
    const list = (await t.call('GET', '/accounts', { key })).body.accounts;
    expect(list.filter((a: any) => a.platform === 'skyblog')).toHaveLength(1);
    const schedules = (await t.call('GET', '/microblog/schedule', { key })).body.schedules;
    expect(schedules).toEqual([expect.objectContaining({ draftId, accountUuid: accountId })]);
  });
});
