/**
 * Sign-in with X against the X simulator (real OAuth 2.0 + PKCE wire protocol on loopback):
 * a first sign-in creates a user (placeholder e-mail) and a connected account with its tokens
 * in the secret store; the next finds the same user; an X account the owner connected signs the
 * owner in. Redirect URIs: loopback or the configured one, parsed, never prefix-matched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';

const CLIENT = { clientId: 'herald-x-signin', clientSecret: 'herald-x-signin-secret' };
const REDIRECT = 'http://127.0.0.1:53690/x/callback';
const CONFIGURED = 'https://herald.example/x/callback';

let sim: XSimulator;
let t: TestServer;

beforeAll(async () => {
  sim = await startXSimulator(CLIENT);
  t = await startServer({
    settings: {
      HERALD_MICROBLOG_API_URL: sim.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: sim.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: sim.tokenUrl,
      HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
      HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
      HERALD_MICROBLOG_REDIRECT_URI: CONFIGURED,
    },
  });
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const tokenCalls = () => sim.requests.filter((r) => r === 'POST /2/oauth2/token').length;

/** url → X's authorize page (logs in the simulator's current user) → the redirect's code and state. */
async function authorize(redirectUri = REDIRECT) {
  const start = await t.call('POST', '/auth/oauth/microblog/url', { body: { redirectUri } });
  expect(start.status, start.text).toBe(200);
  const res = await fetch(start.body.authUrl, { redirect: 'manual' });
  await res.arrayBuffer();
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(new URL(redirectUri).href);
  return { start: start.body, code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

const signIn = async (redirectUri = REDIRECT) => {
  const { code, state } = await authorize(redirectUri);
  return t.call('POST', '/auth/oauth/microblog/callback', { body: { code, state } });
};

describe('sign-in with X', () => {
  it('sends the browser to X with PKCE S256 and a base64url state', async () => {
    const start = await t.call('POST', '/auth/oauth/microblog/url', { body: { redirectUri: REDIRECT } });
    expect(start.status).toBe(200);
    expect(start.body.state).toMatch(/^[A-Za-z0-9_-]+$/);
    const q = new URL(start.body.authUrl).searchParams;
    expect(q.get('client_id')).toBe(CLIENT.clientId);
    expect(q.get('redirect_uri')).toBe(REDIRECT);
    expect(q.get('state')).toBe(start.body.state);
    expect(q.get('code_challenge_method')).toBe('S256');
  });

  let first: { uuid: string; email: string };

  it('creates a user and connects the X account at the first sign-in', async () => {
    sim.setCurrentUser('herald_tester');
    const calls = tokenCalls();
    const r = await signIn();
    expect(r.status, r.text).toBe(200);
    const xUser = sim.state.users.find((u) => u.username === 'herald_tester')!;
    expect(r.body).toMatchObject({
      success: true,
      user: { uuid: expect.any(String), email: `${xUser.id}@users.x.invalid`, provider: 'microblog', isNewUser: true },
      apiKey: { key: expect.stringMatching(/^hk_/), name: 'Default API Key', lastUsed: null },
      account: {
        uuid: expect.any(String),
        platform: 'microblog',
        platform_user_id: xUser.id,
        username: 'herald_tester',
        status: 'active',
        followers_count: 42,
      },
      message: expect.any(String),
    });
    expect(Object.keys(r.body).sort()).toEqual(['account', 'apiKey', 'message', 'success', 'user']);
    expect(Object.keys(r.body.apiKey).sort()).toEqual(['createdAt', 'key', 'lastUsed', 'name']);
    expect(Object.keys(r.body.user).sort()).toEqual(['email', 'isNewUser', 'provider', 'uuid']);
    expect(tokenCalls()).toBe(calls + 1);
    first = r.body.user;
    const key = r.body.apiKey.key;
    expect((await t.call('GET', '/me', { key })).status).toBe(200);
    const listed = await t.call('GET', '/accounts', { key });
    expect(listed.body.accounts.map((a: { uuid: string }) => a.uuid)).toEqual([r.body.account.uuid]);
    const sets = await t.call('GET', '/social-sets', { key });
    expect(JSON.stringify(sets.body)).toContain(r.body.account.uuid);
    // The tokens live in the secret store, not in the database.
    const tokens = sim.state.issuedTokens;
    const db = fs.readFileSync(path.join(t.dataDir, 'herald.db')).toString('latin1');
    for (const tok of tokens) expect(db.includes(tok)).toBe(false);
    const stored = await t.server.services.credentials.load(r.body.account.uuid);
    expect(stored?.accessToken).toBe(
      sim.state.issuedTokens.find(
        (tok) => sim.state.accessTokens.has(tok) && sim.state.accessTokens.get(tok)!.userId === xUser.id,
      ),
    );
  });

  it('finds the same user at the second sign-in and keeps one account', async () => {
    const r = await signIn();
    expect(r.status, r.text).toBe(200);
    expect(r.body.user).toEqual({ ...first, provider: 'microblog', isNewUser: false });
    expect(Object.keys(r.body).sort()).toEqual(['account', 'apiKey', 'message', 'success', 'user']);
    // A new key each time, and it works.
    expect((await t.call('GET', '/me', { key: r.body.apiKey.key })).body.uuid).toBe(first.uuid);
    const listed = await t.call('GET', '/accounts', { key: r.body.apiKey.key });
    expect(listed.body.accounts).toHaveLength(1);
  });

  it('signs in the owner of an X account connected through the connect flow', async () => {
    sim.addUser({ username: 'owner_on_x' });
    sim.setCurrentUser('owner_on_x');
    const ownerKey = await t.login();
    const connected = await connectOAuth(t, ownerKey, 'microblog');
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    const users = t.server.services.users.count();
    const r = await signIn();
    expect(r.status, r.text).toBe(200);
    expect(r.body.user).toMatchObject({ email: OWNER.email, isNewUser: false });
    expect(r.body.account.uuid).toBe(connected.body.accountUuid);
    expect(t.server.services.users.count()).toBe(users);
    sim.setCurrentUser('herald_tester');
  });

  it('accepts the configured redirect URI and loopback ones, nothing else', async () => {
    for (const ok of [CONFIGURED, 'http://[::1]:8123/cb', 'http://localhost:9/cb', 'http://127.0.0.1/cb']) {
      const r = await t.call('POST', '/auth/oauth/microblog/url', { body: { redirectUri: ok } });
      expect(r.status, `${ok}: ${r.text}`).toBe(200);
    }
    const bad = [
      'https://evil.example/cb',
      'http://127.0.0.1.evil.example/cb',
      'http://127.0.0.1@evil.example/cb',
      'http://evil.example/?http://127.0.0.1:1/',
      'https://127.0.0.1:8080/cb',
      'http://127.0.0.2/cb',
      'https://herald.example/x/callback/extra',
      'http://127.0.0.1:53690/x/callback?next=https://evil.example',
      'javascript:alert(1)',
      'not a url',
    ];
    for (const uri of bad) {
      const r = await t.call('POST', '/auth/oauth/microblog/url', { body: { redirectUri: uri } });
      expect(r.status, uri).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
    }
  });

  it('answers 501 OAUTH_NOT_CONFIGURED without a client id or secret', async () => {
    const id = { HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId };
    const secret = { HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret };
    for (const partial of [id, secret, {}]) {
      const bare = await startServer({
        scheduler: false,
        settings: {
          ...partial,
          HERALD_MICROBLOG_API_URL: sim.url,
          HERALD_MICROBLOG_AUTHORIZE_URL: sim.authorizeUrl,
          HERALD_MICROBLOG_TOKEN_URL: sim.tokenUrl,
        },
      });
      try {
        const calls = sim.requests.length;
        const a = await bare.call('POST', '/auth/oauth/microblog/url', { body: { redirectUri: REDIRECT } });
        expect(a.status, JSON.stringify(partial)).toBe(501);
        expect(a.body).toMatchObject({ success: false, error: 'OAUTH_NOT_CONFIGURED' });
        const b = await bare.call('POST', '/auth/oauth/microblog/callback', { body: { code: 'c', state: 's' } });
        expect(b.status).toBe(501);
        expect(b.body.error).toBe('OAUTH_NOT_CONFIGURED');
        expect(sim.requests.length).toBe(calls);
      } finally {
        await bare.close();
      }
    }
  });
});
