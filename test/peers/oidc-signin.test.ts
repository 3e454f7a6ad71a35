/**
 * Sign-in with OpenID Connect against a real provider (oidc-provider, in-process): discovery,
 * authorization code with PKCE, state and nonce through Herald's API, a new user with a working
 * key, the same user at the second sign-in, and ID tokens Herald must refuse: another nonce
 * (an injected code), another audience (a genuine token minted for another client), a token
 * signed by another key, an unverified e-mail, an expired token (judged by Herald's injected
 * clock).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { browse, pkce, startOidcPeer, type OidcPeer } from './oidc.peer.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';
const OTHER_REDIRECT = 'http://127.0.0.1:53683/other';
/** HERALD_IDENTITY_REDIRECT_URI: the one non-loopback redirect URI sign-in may use. */
const CONFIGURED = 'https://herald.example/signin/callback';
const HERALD = {
  client_id: 'herald-desktop',
  client_secret: 'herald-desktop-secret',
  redirect_uris: [REDIRECT, CONFIGURED],
};
const OTHER = { client_id: 'other-app', client_secret: 'other-app-secret', redirect_uris: [OTHER_REDIRECT] };

let peer: OidcPeer;
let t: TestServer;
const clock = new TestClock(Date.now());

beforeAll(async () => {
  peer = await startOidcPeer([HERALD, OTHER]);
  peer.accounts.set('bob', { email: 'Bob@Example.test', email_verified: true, name: 'Bob' });
  peer.accounts.set('mallory', { email: 'mallory@example.test', email_verified: false });
  t = await startServer({
    clock,
    owner: false,
    settings: {
      HERALD_IDENTITY_ISSUER: peer.issuer,
      HERALD_IDENTITY_CLIENT_ID: HERALD.client_id,
      HERALD_IDENTITY_CLIENT_SECRET: HERALD.client_secret,
      HERALD_IDENTITY_REDIRECT_URI: CONFIGURED,
    },
  });
});

afterAll(async () => {
  await t?.close();
  await peer?.close();
});

/** url → the provider (auto-login) → the redirect URI's code, state and iss. */
async function authorize(tamper?: (authUrl: URL) => void) {
  clock.set(new Date().toISOString());
  const start = await t.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: REDIRECT } });
  expect(start.status, start.text).toBe(200);
  const authUrl = new URL(start.body.authUrl);
  tamper?.(authUrl);
  const back = await browse(authUrl.href, REDIRECT);
  return {
    start: start.body,
    authUrl,
    code: back.searchParams.get('code')!,
    state: back.searchParams.get('state')!,
    iss: back.searchParams.get('iss') ?? undefined,
  };
}

const callback = (body: Record<string, unknown>) => t.call('POST', '/auth/oauth/identity/callback', { body });
const userCount = () => t.server.services.users.count();

describe('sign-in with OpenID Connect', () => {
  it('asks the discovered provider for a code with PKCE S256, state and nonce', async () => {
    const start = await t.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: REDIRECT } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ success: true, state: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/) });
    const url = new URL(start.body.authUrl);
    expect(url.origin + url.pathname).toBe(`${peer.issuer}/auth`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(HERALD.client_id);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe(REDIRECT);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toBe(start.body.state);
    expect(q.get('nonce')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
  });

  it('creates the user at the first sign-in and gives a key that works', async () => {
    peer.login = 'alice';
    const calls = peer.tokenRequests.length;
    const { code, state, iss } = await authorize();
    const r = await callback({ code, state, iss });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      user: { uuid: expect.any(String), email: 'alice@example.test', provider: 'identity', isNewUser: true },
      apiKey: {
        key: expect.stringMatching(/^hk_[0-9A-Za-z]{32,}$/),
        name: 'Default API Key',
        createdAt: expect.any(String),
        lastUsed: null,
      },
      message: expect.any(String),
    });
    // Exactly the spec's fields (docs/decisions.md §2: the same shape for an existing user).
    expect(Object.keys(r.body).sort()).toEqual(['apiKey', 'message', 'success', 'user']);
    expect(Object.keys(r.body.apiKey).sort()).toEqual(['createdAt', 'key', 'lastUsed', 'name']);
    expect(Object.keys(r.body.user).sort()).toEqual(['email', 'isNewUser', 'provider', 'uuid']);
    expect(peer.tokenRequests.slice(calls)).toEqual([HERALD.client_id]);
    const me = await t.call('GET', '/me', { key: r.body.apiKey.key });
    expect(me.status, me.text).toBe(200);
    expect(JSON.stringify(me.body)).toContain('alice@example.test');
    expect(t.server.services.users.byEmail('alice@example.test')).toMatchObject({
      id: r.body.user.uuid,
      provider: 'identity',
      passwordHash: null,
    });
  });

  it('signs the same user in again (isNewUser false, a new key), without iss in the body', async () => {
    peer.login = 'alice';
    const before = userCount();
    const first = t.server.services.users.byEmail('alice@example.test')!;
    const { code, state } = await authorize();
    const r = await callback({ code, state });
    expect(r.status, r.text).toBe(200);
    expect(r.body.user).toEqual({
      uuid: first.id,
      email: 'alice@example.test',
      provider: 'identity',
      isNewUser: false,
    });
    expect(Object.keys(r.body).sort()).toEqual(['apiKey', 'message', 'success', 'user']);
    expect(Object.keys(r.body.apiKey).sort()).toEqual(['createdAt', 'key', 'lastUsed', 'name']);
    expect(userCount()).toBe(before);
    const keys = await t.call('GET', '/auth/api-keys', { key: r.body.apiKey.key });
    expect(keys.body.apiKeys).toHaveLength(2);
  });

  it('matches an existing user by the verified e-mail whatever its case', async () => {
    const existing = await t.server.services.users.create({ email: 'bob@example.test', password: 'bobs password' });
    peer.login = 'bob';
    const { code, state } = await authorize();
    const r = await callback({ code, state });
    expect(r.status, r.text).toBe(200);
    expect(r.body.user).toMatchObject({ uuid: existing.id, email: 'bob@example.test', isNewUser: false });
  });

  it("refuses an ID token whose nonce is not the flow's (a code from another authorization)", async () => {
    peer.login = 'alice';
    const { code, state } = await authorize((u) =>
      u.searchParams.set('nonce', 'attacker-chosen-nonce-value-0123456789'),
    );
    const before = userCount();
    const r = await callback({ code, state });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
    expect(r.body.message).toMatch(/"nonce"/);
    expect(r.body.apiKey).toBeUndefined();
    expect(userCount()).toBe(before);
  });

  it('refuses a genuine ID token minted for another client (audience)', async () => {
    peer.login = 'carol';
    peer.accounts.set('carol', { email: 'carol@example.test', email_verified: true });
    const flow = await authorize();
    // The other client, at the same provider, obtains a signed token carrying Herald's nonce.
    const { verifier, challenge } = pkce();
    const other = new URL(`${peer.issuer}/auth`);
    for (const [k, v] of Object.entries({
      client_id: OTHER.client_id,
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: OTHER_REDIRECT,
      state: 'other-state-123',
      nonce: flow.authUrl.searchParams.get('nonce')!,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      other.searchParams.set(k, v);
    const otherBack = await browse(other.href, OTHER_REDIRECT);
    const otherTokens = await fetch(`${peer.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${OTHER.client_id}:${OTHER.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: otherBack.searchParams.get('code')!,
        redirect_uri: OTHER_REDIRECT,
        code_verifier: verifier,
      }),
    }).then((res) => res.json() as Promise<{ id_token: string }>);
    expect(JSON.parse(Buffer.from(otherTokens.id_token.split('.')[1]!, 'base64url').toString())).toMatchObject({
      aud: OTHER.client_id,
      email: 'carol@example.test',
    });
    peer.rewriteToken = (body, clientId) =>
      clientId === HERALD.client_id ? { ...body, id_token: otherTokens.id_token } : body;
    try {
      const r = await callback({ code: flow.code, state: flow.state });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(r.body.message).toMatch(/"aud"/);
      expect(t.server.services.users.byEmail('carol@example.test')).toBeUndefined();
    } finally {
      peer.rewriteToken = undefined;
    }
  });

  it("refuses an ID token with the right claims but not signed by the provider's key", async () => {
    peer.login = 'erin';
    peer.accounts.set('erin', { email: 'erin@example.test', email_verified: true });
    const { code, state } = await authorize();
    const forger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    let genuine: Record<string, unknown> = {};
    peer.rewriteToken = (body, clientId) => {
      if (clientId !== HERALD.client_id) return body;
      const [head, payload] = String(body.id_token).split('.');
      genuine = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const signature = crypto.sign('RSA-SHA256', Buffer.from(`${head}.${payload}`), forger).toString('base64url');
      return { ...body, id_token: `${head}.${payload}.${signature}` };
    };
    try {
      const r = await callback({ code, state });
      expect(genuine).toMatchObject({ aud: HERALD.client_id, email: 'erin@example.test' });
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
      expect(t.server.services.users.byEmail('erin@example.test')).toBeUndefined();
    } finally {
      peer.rewriteToken = undefined;
    }
  });

  it('refuses an e-mail the provider has not verified (400) and creates no user', async () => {
    peer.login = 'mallory';
    const { code, state } = await authorize();
    const r = await callback({ code, state });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
    expect(r.body.message).toMatch(/not verified/);
    expect(t.server.services.users.byEmail('mallory@example.test')).toBeUndefined();
  });

  it("refuses an expired ID token (Herald's clock five minutes on, the token lived one)", async () => {
    peer.login = 'alice';
    peer.idTokenTtl = 60;
    try {
      const { code, state } = await authorize();
      clock.advance(5 * 60_000);
      const r = await callback({ code, state });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(r.body.message).toMatch(/"exp"/);
    } finally {
      peer.idTokenTtl = 3600;
    }
  });

  it('accepts the same flow at the same clock offset when the token lives long enough', async () => {
    peer.login = 'alice';
    const { code, state } = await authorize();
    clock.advance(5 * 60_000);
    const r = await callback({ code, state });
    expect(r.status, r.text).toBe(200);
  });

  it('answers 501 OAUTH_NOT_CONFIGURED without a client id or a client secret, before any provider call', async () => {
    const id = { HERALD_IDENTITY_CLIENT_ID: HERALD.client_id };
    const secret = { HERALD_IDENTITY_CLIENT_SECRET: HERALD.client_secret };
    for (const partial of [id, secret, {}]) {
      const bare = await startServer({
        owner: false,
        scheduler: false,
        settings: { HERALD_IDENTITY_ISSUER: peer.issuer, ...partial },
      });
      try {
        const calls = peer.requests.length;
        const a = await bare.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: REDIRECT } });
        expect(a.status, JSON.stringify(partial)).toBe(501);
        expect(a.body).toMatchObject({ success: false, error: 'OAUTH_NOT_CONFIGURED' });
        const b = await bare.call('POST', '/auth/oauth/identity/callback', { body: { code: 'x', state: 'y' } });
        expect(b.status).toBe(501);
        expect(b.body.error).toBe('OAUTH_NOT_CONFIGURED');
        // Not even discovery: the provider saw nothing.
        expect(peer.requests.length).toBe(calls);
      } finally {
        await bare.close();
      }
    }
  });

  it(
    'takes the configured redirect URI and loopback ones, nothing ' + 'else, and tells the provider the one it took',
    async () => {
      for (const ok of [CONFIGURED, 'http://[::1]:8123/cb', 'http://localhost:9/cb', 'http://127.0.0.1/cb']) {
        const r = await t.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: ok } });
        expect(r.status, `${ok}: ${r.text}`).toBe(200);
        expect(new URL(r.body.authUrl).searchParams.get('redirect_uri')).toBe(new URL(ok).href);
      }
      const calls = peer.requests.length;
      const users = userCount();
      for (const uri of [
        'https://evil.example/cb',
        'http://127.0.0.1.evil.example/cb',
        'http://127.0.0.1@evil.example/cb',
        'http://evil.example/?http://127.0.0.1:1/',
        'https://127.0.0.1:8080/cb',
        'http://127.0.0.2/cb',
        `${CONFIGURED}/extra`,
        'http://herald.example/signin/callback',
        `${REDIRECT}?next=https://evil.example`,
        `${REDIRECT}#frag`,
        'javascript:alert(1)',
        'not a url',
        '',
      ]) {
        const r = await t.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: uri } });
        expect(r.status, uri).toBe(400);
        expect(r.body.error).toBe('INVALID_INPUT');
        expect(
          r.body.details.map((d: { path: string }) => d.path),
          uri,
        ).toEqual(['body.redirectUri']);
      }
      expect(peer.requests.length).toBe(calls);
      expect(userCount()).toBe(users);
      // The configured URI carries a whole sign-in: the provider sends the code there.
      peer.login = 'alice';
      const start = await t.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: CONFIGURED } });
      const back = await browse(start.body.authUrl, CONFIGURED);
      const r = await callback({
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
        redirectUri: CONFIGURED,
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body.user).toMatchObject({ email: 'alice@example.test', isNewUser: false });
    },
  );
});

describe('a provider that keeps the e-mail out of the ID token (conformIdTokenClaims)', () => {
  it("reads the e-mail and its verification from userinfo, for the token's subject", async () => {
    const strict = await startOidcPeer([HERALD], { conformIdTokenClaims: true });
    strict.accounts.set('dora', { email: 'dora@example.test', email_verified: true });
    strict.login = 'dora';
    const s = await startServer({
      owner: false,
      settings: {
        HERALD_IDENTITY_ISSUER: strict.issuer,
        HERALD_IDENTITY_CLIENT_ID: HERALD.client_id,
        HERALD_IDENTITY_CLIENT_SECRET: HERALD.client_secret,
      },
    });
    try {
      let idTokenClaims: Record<string, unknown> = {};
      strict.rewriteToken = (body) => {
        idTokenClaims = JSON.parse(Buffer.from(String(body.id_token).split('.')[1]!, 'base64url').toString());
        return body;
      };
      const start = await s.call('POST', '/auth/oauth/identity/url', { body: { redirectUri: REDIRECT } });
      const back = await browse(start.body.authUrl, REDIRECT);
      const r = await s.call('POST', '/auth/oauth/identity/callback', {
        body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      });
      expect(idTokenClaims).toMatchObject({ sub: 'dora' });
      expect(idTokenClaims.email).toBeUndefined();
      expect(r.status, r.text).toBe(200);
      expect(r.body.user).toMatchObject({ email: 'dora@example.test', isNewUser: true });
    } finally {
      await s.close();
      await strict.close();
    }
  });
});
