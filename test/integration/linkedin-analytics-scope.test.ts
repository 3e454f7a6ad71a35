/**
 * LinkedIn's analytics scope, over HTTP against the LinkedIn simulator: Herald asks for
 * r_member_postAnalytics unless the app is set up with `analyticsScope: false`; an app without
 * the Community Management API product makes LinkedIn refuse the whole sign-in
 * (`unauthorized_scope_error`), which Herald names and offers to connect without analytics; each
 * account says whether its analytics can be read, and why not (the scope not granted, X metrics
 * off).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworks, type Networks } from '../helpers/networks.js';
import { authorizeAtNetwork, connectOAuth, finishCallback } from '../helpers/oauth-connect.js';
import { startServer, type TestServer } from '../helpers/server.js';

let nets: Networks;
let t: TestServer;
let key: string;

beforeAll(async () => {
  nets = await startNetworks();
  t = await startServer({ settings: nets.settings });
  key = await t.login();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await nets?.close();
});

const scopesOf = (authUrl: string) => (new URL(authUrl).searchParams.get('scope') ?? '').split(' ');
const account = async (uuid: string) => {
  const r = await t.call('GET', `/accounts/${uuid}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body.account;
};

describe('LinkedIn analytics scope', () => {
  it('Herald asks LinkedIn for r_member_postAnalytics, and the account that granted it can be read', async () => {
    const nw = await t.call('GET', '/networks', { key });
    const li = (nw.body.networks as any[]).find((n) => n.platform === 'problog');
    expect(li.analyticsScope).toBe(true);
    expect(li.scopes).toContain('r_member_postAnalytics');

    const r = await connectOAuth(t, key, 'problog');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(scopesOf(r.authUrl)).toEqual(
      expect.arrayContaining(['openid', 'w_member_social', 'r_member_postAnalytics']),
    );
    expect((await account(r.body.accountUuid)).analytics).toEqual({ available: true });
    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.find((a: any) => a.uuid === r.body.accountUuid).analytics.available).toBe(true);
  });

  it('an app LinkedIn refuses the scope to: the sign-in fails naming it and offers connecting without', async () => {
    nets.li.state.noAnalyticsProduct = true;
    const start = await t.call('POST', '/problog/auth', { key, body: {} });
    expect(start.status, start.text).toBe(200);
    const done = await finishCallback(await authorizeAtNetwork(start.body.authUrl));
    expect(done.status).toBe(400);
    expect(done.body.error).toBe('INVALID_INPUT');
    expect(done.body.message).toMatch(/r_member_postAnalytics/);
    expect(done.body.message).toMatch(/without analytics/);
    expect(done.body.details).toEqual([expect.objectContaining({ path: 'analyticsScope' })]);
    // The app polling the flow learns the same, with the sign to offer it.
    const status = await t.call('GET', `/connections/${start.body.sessionId}`, { key });
    expect(status.body.status).toBe('failed');
    expect(status.body.error.details[0].path).toBe('analyticsScope');
  });

  it('set up without analytics, LinkedIn connects, and the account says its analytics are not available', async () => {
    const put = await t.call('PUT', '/networks/problog', { key, body: { analyticsScope: false } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.network.analyticsScope).toBe(false);
    expect(put.body.network.scopes).not.toContain('r_member_postAnalytics');
    // The client id from the environment stays in force: only the scope changed.
    expect(put.body.network.clientId).toBe(nets.li.clientId);
    const saved = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'config.json'), 'utf8'));
    expect(saved.HERALD_PROBLOG_ANALYTICS_SCOPE).toBe(false);

    const member = nets.li.state.members[0]!;
    const r = await connectOAuth(t, key, 'problog');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(scopesOf(r.authUrl)).not.toContain('r_member_postAnalytics');
    const a = await account(r.body.accountUuid);
    expect(a.platform_user_id).toBe(member.sub);
    expect(a.analytics.available).toBe(false);
    expect(a.analytics.reason).toMatch(/did not grant r_member_postAnalytics/);

    // Turned back on (the app got the product): the next sign-in asks again and the account can be read.
    nets.li.state.noAnalyticsProduct = false;
    const on = await t.call('PUT', '/networks/problog', { key, body: { analyticsScope: true } });
    expect(on.body.network.scopes).toContain('r_member_postAnalytics');
    const again = await connectOAuth(t, key, 'problog');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await account(again.body.accountUuid)).analytics).toEqual({ available: true });
  });

  it('analyticsScope is LinkedIn only', async () => {
    const r = await t.call('PUT', '/networks/microblog', { key, body: { analyticsScope: false } });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('body.analyticsScope');
  });

  it('an X account says its analytics wait for the X metrics setting, with the price', async () => {
    const r = await connectOAuth(t, key, 'microblog');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const a = await account(r.body.accountUuid);
    expect(a.analytics.available).toBe(false);
    expect(a.analytics.reason).toMatch(/X metrics are off.*\$0\.001/);
    const set = await t.call('PUT', '/settings', { key, body: { xMetrics: true } });
    expect(set.status, set.text).toBe(200);
    expect((await account(r.body.accountUuid)).analytics).toEqual({ available: true });
  });
});
