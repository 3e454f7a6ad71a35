/**
 * Network apps set up in the app (issue #21 item 3, §10 "Networks set up in the app"): the owner
 * saves X's client id and secret through the API, with no environment variable, and an account
 * connects through the X simulator at once; the Test button tells a wrong secret from a right
 * one; environment variables win and `source` says so; the secret never reaches SQLite, a
 * backup or an answer; other users' keys cannot change or test the apps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, startServer, type TestServer } from '../helpers/server.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { canaryToken } from '../simulators/util.js';

const X_ID = 'herald-netapps-client';
const X_SECRET = canaryToken('x', 'secret');
let x: XSimulator;
let t: TestServer;
let owner: string;
let other: string;

const urls = (sim: XSimulator) => ({
  HERALD_MICROBLOG_API_URL: sim.url,
  HERALD_MICROBLOG_AUTHORIZE_URL: sim.authorizeUrl,
  HERALD_MICROBLOG_TOKEN_URL: sim.tokenUrl,
});

/** Every file of the data folder but the secret store's own. */
function dataFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...dataFiles(p));
    else if (!/secrets/.test(entry.name)) out.push(p);
  }
  return out;
}

beforeAll(async () => {
  x = await startXSimulator({ clientId: X_ID, clientSecret: X_SECRET });
  t = await startServer({ settings: urls(x) });
  owner = await t.login();
  other = await addUser(t, 'second@example.test');
});

afterAll(async () => {
  await t?.close();
  await x?.close();
});

describe('Settings → Networks through the API', () => {
  it('lists the four apps, none configured, with the redirect URI to register', async () => {
    const r = await t.call('GET', '/networks', { key: other });
    expect(r.status).toBe(200);
    expect(r.body.networks.map((n: any) => n.platform)).toEqual(['microblog', 'threadblog', 'problog', 'identity']);
    const xApp = r.body.networks[0];
    expect(xApp).toMatchObject({
      configured: false,
      source: null,
      redirectUri: `${t.base}/microblog/callback`,
      clientId: null,
    });
    expect(r.body.networks.map((n: any) => n.label)).toEqual([
      'X',
      'Threads',
      'LinkedIn',
      'Sign-in provider (Google or OpenID Connect)',
    ]);
    expect(r.body.networks.find((n: any) => n.platform === 'identity').scopes).toEqual(['openid', 'email', 'profile']);
  });

  it('refuses to connect X before an app is set up, naming where to set it up', async () => {
    const r = await t.call('POST', '/microblog/auth', { key: owner, body: {} });
    expect(r.status).toBe(501);
    expect(r.body.error).toBe('OAUTH_NOT_CONFIGURED');
    expect(r.body.message).toMatch(/Networks page/);
  });

  it('keys of other users cannot change, remove or test the apps (403)', async () => {
    const put = await t.call('PUT', '/networks/microblog', {
      key: other,
      body: { clientId: X_ID, clientSecret: X_SECRET },
    });
    expect(put.status).toBe(403);
    expect(put.body.error).toBe('UNAUTHORIZED');
    expect((await t.call('DELETE', '/networks/microblog', { key: other })).status).toBe(403);
    expect((await t.call('POST', '/networks/microblog/test', { key: other })).status).toBe(403);
    expect((await t.call('GET', '/networks', { key: owner })).body.networks[0].configured).toBe(false);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const empty = await t.call('PUT', '/networks/microblog', {
      key: owner,
      body: { clientId: ' ', clientSecret: X_SECRET },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.details[0].path).toBe('body.clientId');
    const unknown = await t.call('PUT', '/networks/skyblog', {
      key: owner,
      body: { clientId: 'a', clientSecret: 'b' },
    });
    expect(unknown.status).toBe(400);
    const badUri = await t.call('PUT', '/networks/microblog', {
      key: owner,
      body: { clientId: X_ID, clientSecret: X_SECRET, redirectUri: 'not a url' },
    });
    expect(badUri.status).toBe(400);
    expect(badUri.body.details[0].path).toBe('body.redirectUri');
  });

  it('Test tells a wrong secret from a right one, precisely', async () => {
    const none = await t.call('POST', '/networks/microblog/test', { key: owner });
    expect(none.body).toMatchObject({ success: true, ok: false });
    expect(none.body.message).toMatch(/no app set up/);
    const wrong = await t.call('PUT', '/networks/microblog', {
      key: owner,
      body: { clientId: X_ID, clientSecret: canaryToken('x', 'secret') },
    });
    expect(wrong.status).toBe(200);
    const bad = await t.call('POST', '/networks/microblog/test', { key: owner });
    expect(bad.status).toBe(200);
    expect(bad.body.ok).toBe(false);
    expect(bad.body.message).toMatch(/X did not accept the client id and secret/);
    expect(bad.body.message).toMatch(/Keys and tokens/);
    const wrongId = await t.call('PUT', '/networks/microblog', {
      key: owner,
      body: { clientId: 'someone-else', clientSecret: X_SECRET },
    });
    expect(wrongId.status).toBe(200);
    expect((await t.call('POST', '/networks/microblog/test', { key: owner })).body.ok).toBe(false);
    const right = await t.call('PUT', '/networks/microblog', {
      key: owner,
      body: { clientId: X_ID, clientSecret: X_SECRET },
    });
    expect(right.body.network).toMatchObject({
      platform: 'microblog',
      configured: true,
      source: 'app',
      clientId: X_ID,
    });
    expect(right.text).not.toContain(X_SECRET);
    const good = await t.call('POST', '/networks/microblog/test', { key: owner });
    expect(good.body).toEqual({ success: true, ok: true, message: 'X accepted the client id and secret' });
  });

  it('connects an X account through the simulator with the saved app, no restart and no env vars', async () => {
    const done = await connectOAuth(t, owner, 'microblog');
    expect(done.status).toBe(200);
    expect(done.body.accountUuid).toBeTruthy();
    // Settings → Networks shows the scopes from this list (the UI keeps no copy): the ones the flow asks for.
    const listed = (await t.call('GET', '/networks', { key: owner })).body.networks[0];
    expect(listed.label).toBe('X');
    expect(new URL(done.authUrl).searchParams.get('scope')!.split(' ')).toEqual(listed.scopes);
    const accounts = await t.call('GET', '/accounts', { key: owner });
    expect(accounts.text).toContain('herald_tester');
  });

  it('keeps the secret out of SQLite, backups and every answer', async () => {
    const backup = await t.call('POST', '/backup', { key: owner });
    expect(backup.status).toBe(200);
    const list = await t.call('GET', '/networks', { key: owner });
    expect(list.text).not.toContain(X_SECRET);
    const settings = await t.call('GET', '/settings', { key: owner });
    expect(settings.text).not.toContain(X_SECRET);
    const files = dataFiles(t.dataDir);
    expect(files.some((f) => f.endsWith('herald.db'))).toBe(true);
    expect(files.some((f) => f.includes('backups'))).toBe(true);
    for (const f of files) {
      const bytes = fs.readFileSync(f);
      expect(bytes.includes(Buffer.from(X_SECRET)), f).toBe(false);
      expect(bytes.includes(Buffer.from(X_SECRET, 'utf16le')), f).toBe(false);
    }
  });

  it('DELETE removes the app; connecting then names the cause again', async () => {
    const r = await t.call('DELETE', '/networks/microblog', { key: owner });
    expect(r.body.network).toMatchObject({ configured: false, source: null });
    expect((await t.call('POST', '/microblog/auth', { key: owner, body: {} })).status).toBe(501);
  });
});

describe('environment variables win', () => {
  let e: TestServer;
  let ekey: string;
  beforeAll(async () => {
    e = await startServer({
      settings: { ...urls(x), HERALD_MICROBLOG_CLIENT_ID: X_ID, HERALD_MICROBLOG_CLIENT_SECRET: X_SECRET },
    });
    ekey = await e.login();
  });
  afterAll(async () => {
    await e?.close();
  });

  it('source says "env", and a saved app does not replace it', async () => {
    expect((await e.call('GET', '/networks', { key: ekey })).body.networks[0]).toMatchObject({
      configured: true,
      source: 'env',
      clientId: X_ID,
    });
    const put = await e.call('PUT', '/networks/microblog', {
      key: ekey,
      body: { clientId: 'ignored-client', clientSecret: canaryToken('x', 'secret') },
    });
    expect(put.body.network).toMatchObject({ source: 'env', clientId: X_ID });
    const test = await e.call('POST', '/networks/microblog/test', { key: ekey });
    expect(test.body.ok).toBe(true);
    expect(test.body.message).toMatch(/from the environment/);
    const done = await connectOAuth(e, ekey, 'microblog');
    expect(done.status).toBe(200);
  });
});
