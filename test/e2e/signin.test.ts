/**
 * Signing in from the browser UI (`npm run serve`) with the identity provider and with X, in
 * real Chromium: a real OpenID provider (oidc-provider, a native client whose loopback redirect
 * URI matches on any port, RFC 8252) and the X simulator. The UI's redirect URI is its own
 * loopback origin; the provider sends the browser back to /signin/<flow>, the UI finishes the
 * flow through the API and lands signed in, with the code gone from the address bar.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXSimulator, type XSimulator } from '../simulators/index.js';
import { startOidcPeer, type OidcPeer } from '../peers/oidc.peer.js';
import { OWNER } from '../helpers/server.js';
import { startUiApp, type UiApp } from '../helpers/ui-app.js';

let peer: OidcPeer;
let x: XSimulator;
let app: UiApp;

const UI_CLIENT = {
  client_id: 'herald-ui',
  client_secret: 'herald-ui-secret',
  redirect_uris: ['http://127.0.0.1/signin/identity'],
  application_type: 'native' as const,
};

beforeAll(async () => {
  [peer, x] = await Promise.all([
    startOidcPeer([UI_CLIENT]),
    startXSimulator({ clientId: 'ui-x', clientSecret: 'ui-x-secret' }),
  ]);
  // The owner signs in with the provider account that has the owner's e-mail.
  peer.accounts.set('owner', { email: OWNER.email, email_verified: true, name: 'Owner' });
  peer.login = 'owner';
  app = await startUiApp({
    server: {
      settings: {
        HERALD_IDENTITY_ISSUER: peer.issuer,
        HERALD_IDENTITY_CLIENT_ID: UI_CLIENT.client_id,
        HERALD_IDENTITY_CLIENT_SECRET: UI_CLIENT.client_secret,
        HERALD_MICROBLOG_API_URL: x.url,
        HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
        HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
        HERALD_MICROBLOG_CLIENT_ID: 'ui-x',
        HERALD_MICROBLOG_CLIENT_SECRET: 'ui-x-secret',
      },
    },
    // The refused callbacks below are answered 400 on purpose.
    allowConsole: [/status of 400/],
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([peer?.close(), x?.close()]);
});

const page = () => app.page;
const storedKey = () => page().evaluate(() => localStorage.getItem('herald.apiKey'));
const signOut = async () => {
  await page().getByRole('button', { name: 'Sign out' }).click();
  await page().getByRole('heading', { name: 'Sign in to Herald' }).waitFor();
};

describe('sign-in page', () => {
  it('offers the configured providers beside the password form', async () => {
    await page().goto(`${app.origin}/`);
    await page().getByRole('heading', { name: 'Sign in to Herald' }).waitFor();
    await expect(page().getByRole('button', { name: 'Continue with 127.0.0.1' }).isVisible()).resolves.toBe(true);
    await expect(page().getByRole('button', { name: 'Continue with X' }).isVisible()).resolves.toBe(true);
    await app.shot('signin-01-providers');
  });

  it('signs the owner in through the OpenID provider and keeps a working key', async () => {
    const tokenCalls = peer.tokenRequests.length;
    await page().getByRole('button', { name: 'Continue with 127.0.0.1' }).click();
    await page().locator('nav[aria-label="Main"]').waitFor();
    // Back on the app's own origin, with the code and state gone from the address bar.
    expect(page().url()).toBe(`${app.origin}/`);
    expect(peer.tokenRequests.length - tokenCalls).toBe(1);
    const key = await storedKey();
    expect(key).toMatch(/^hk_/);
    const me = await app.t.call('GET', '/me', { key: key! });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(OWNER.email);
    expect(app.problems).toEqual([]);
  });

  it('signs in with X: a new user with the X account connected', async () => {
    await signOut();
    await page().getByRole('button', { name: 'Continue with X' }).click();
    await page().locator('nav[aria-label="Main"]').waitFor();
    expect(page().url()).toBe(`${app.origin}/`);
    const key = (await storedKey())!;
    const me = await app.t.call('GET', '/me', { key });
    expect(me.body.email).toMatch(/@users\.x\.invalid$/);
    const accounts = await app.t.call('GET', '/accounts', { key });
    expect(accounts.body.accounts.map((a: { platform: string; status: string }) => [a.platform, a.status])).toEqual([
      ['microblog', 'active'],
    ]);
    expect(app.problems).toEqual([]);
  });

  it('explains a sign-in the provider refused, and a forged answer reaches no token endpoint', async () => {
    await signOut();
    await page().goto(`${app.origin}/signin/identity?error=access_denied&error_description=The+user+said+no`);
    await expect(page().getByRole('alert').textContent()).resolves.toMatch(
      /not completed at the provider \(The user said no\)/,
    );
    expect(page().url()).toBe(`${app.origin}/`);

    const tokenCalls = peer.tokenRequests.length;
    const xTokenCalls = x.requests.filter((r) => r === 'POST /2/oauth2/token').length;
    for (const flow of ['identity', 'microblog']) {
      await page().goto(`${app.origin}/signin/${flow}?code=stolen-code&state=forged-state`);
      await expect(page().getByRole('alert').textContent()).resolves.toMatch(/state/i);
      expect(await storedKey()).toBeNull();
    }
    expect(peer.tokenRequests.length).toBe(tokenCalls);
    expect(x.requests.filter((r) => r === 'POST /2/oauth2/token').length).toBe(xTokenCalls);
    await app.shot('signin-02-refused');
  });
});
