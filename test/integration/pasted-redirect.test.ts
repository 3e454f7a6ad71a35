/**
 * The pasted redirect (issue #21 item 4, docs/decisions.md §3): Threads accepts only HTTPS redirect URIs and the
 * LinkedIn app here lists only an HTTPS one, so Herald on loopback cannot receive the redirect.
 * The owner saves the app with that HTTPS redirect URI; the person opens the consent page, and
 * pastes the address the network sent the browser to into POST /:platform/callback. State is
 * still single-use and signed, X's PKCE verifier still goes with the code, and a forged,
 * replayed, foreign or cancelled flow is refused with 400 and a message naming the cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, startServer, type TestServer } from '../helpers/server.js';
import { authorizeAtNetwork } from '../helpers/oauth-connect.js';
import { startThreadsSimulator, type ThreadsSimulator } from '../simulators/threads.simulator.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/linkedin.simulator.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { canaryToken } from '../simulators/util.js';

const THREADS_REDIRECT = 'https://herald-redirect.example.test/threads';
const LI_REDIRECT = 'https://herald-redirect.example.test/linkedin';
const X_REDIRECT = 'https://herald-redirect.example.test/x';
let threads: ThreadsSimulator;
let li: LinkedInSimulator;
let x: XSimulator;
let t: TestServer;
let owner: string;
let other: string;

/** Opens the consent page and returns the address the network sent the browser to (not followed). */
async function consent(platform: string, key = owner): Promise<string> {
  const start = await t.call('POST', `/${platform}/auth`, { key, body: {} });
  expect(start.status, start.text).toBe(200);
  const res = await fetch(start.body.authUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  expect(res.status, await res.text()).toBe(302);
  return location!;
}

const paste = (platform: string, redirectUrl: string, key = owner) =>
  t.call('POST', `/${platform}/callback`, { key, body: { redirectUrl } });

beforeAll(async () => {
  threads = await startThreadsSimulator({
    clientSecret: canaryToken('threads', 'secret'),
    httpsRedirectsOnly: true,
    redirectUris: [THREADS_REDIRECT],
  });
  li = await startLinkedInSimulator({ clientSecret: canaryToken('linkedin', 'secret'), redirectUris: [LI_REDIRECT] });
  x = await startXSimulator({
    clientId: 'herald-pasted-client',
    clientSecret: canaryToken('x', 'secret'),
    redirectUris: [X_REDIRECT],
  });
  li.addMember({ name: 'Pat Paste' });
  t = await startServer({
    settings: {
      HERALD_THREADBLOG_API_URL: threads.url,
      HERALD_THREADBLOG_AUTHORIZE_URL: threads.authorizeUrl,
      HERALD_THREADBLOG_TOKEN_URL: threads.tokenUrl,
      HERALD_PROBLOG_API_URL: li.url,
      HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
      HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
    },
  });
  owner = await t.login();
  other = await addUser(t, 'paster@example.test');
});

afterAll(async () => {
  await t?.close();
  await Promise.all([threads?.close(), li?.close(), x?.close()]);
});

describe('Threads: HTTPS redirect URI only', () => {
  it('the Test button says a loopback redirect URI will be refused, and an http one cannot be saved', async () => {
    expect(
      (
        await t.call('PUT', '/networks/threadblog', {
          key: owner,
          body: { clientId: threads.clientId, clientSecret: threads.clientSecret },
        })
      ).status,
    ).toBe(200);
    const test = await t.call('POST', '/networks/threadblog/test', { key: owner });
    expect(test.body.ok).toBe(false);
    expect(test.body.message).toMatch(/only accepts HTTPS redirect URIs/);
    // And the real flow through loopback fails at Threads' window, as it would.
    const start = await t.call('POST', '/threadblog/auth', { key: owner, body: {} });
    await expect(authorizeAtNetwork(start.body.authUrl)).rejects.toThrow(/400/);
    const http = await t.call('PUT', '/networks/threadblog', {
      key: owner,
      body: {
        clientId: threads.clientId,
        clientSecret: threads.clientSecret,
        redirectUri: 'http://herald-redirect.example.test/threads',
      },
    });
    expect(http.status).toBe(400);
    expect(http.body.details[0].path).toBe('body.redirectUri');
  });

  it('a wrong app secret is named by the Test button', async () => {
    await t.call('PUT', '/networks/threadblog', {
      key: owner,
      body: {
        clientId: threads.clientId,
        clientSecret: canaryToken('threads', 'secret'),
        redirectUri: THREADS_REDIRECT,
      },
    });
    const test = await t.call('POST', '/networks/threadblog/test', { key: owner });
    expect(test.body.ok).toBe(false);
    expect(test.body.message).toMatch(/Threads did not accept the app id and secret.*client secret/);
  });

  it('connects end to end through the pasted address', async () => {
    const put = await t.call('PUT', '/networks/threadblog', {
      key: owner,
      body: { clientId: threads.clientId, clientSecret: threads.clientSecret, redirectUri: THREADS_REDIRECT },
    });
    expect(put.body.network).toMatchObject({ configured: true, source: 'app', redirectUri: THREADS_REDIRECT });
    expect((await t.call('POST', '/networks/threadblog/test', { key: owner })).body).toMatchObject({ ok: true });
    const sentTo = await consent('threadblog');
    expect(sentTo.startsWith(`${THREADS_REDIRECT}?`)).toBe(true);
    expect(sentTo.endsWith('#_')).toBe(true);
    const done = await paste('threadblog', sentTo);
    expect(done.status, done.text).toBe(200);
    expect(done.body.accountUuid).toBeTruthy();
    const accounts = await t.call('GET', '/accounts', { key: owner });
    expect(accounts.body.accounts.some((a: any) => a.platform === 'threadblog' && a.username === 'herald.tester')).toBe(
      true,
    );

    // Replayed: the state was used.
    const again = await paste('threadblog', sentTo);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already used/);
  });

  it("refuses a forged state, another user's flow, a different address and a cancelled consent", async () => {
    const sentTo = new URL(await consent('threadblog'));
    const forged = new URL(sentTo);
    const state = forged.searchParams.get('state')!;
    forged.searchParams.set('state', (state[0] === 'A' ? 'B' : 'A') + state.slice(1));
    const f = await paste('threadblog', forged.toString());
    expect(f.status).toBe(400);
    expect(f.body.message).toMatch(/not valid/);

    const foreign = await paste('threadblog', sentTo.toString(), other);
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toMatch(/another user/);

    const elsewhere = new URL(await consent('threadblog'));
    const moved = `https://evil.example.test/threads${elsewhere.search}`;
    const m = await paste('threadblog', moved);
    expect(m.status).toBe(400);
    expect(m.body.message).toMatch(/redirect URI in force/);

    threads.state.denyNext = true;
    const cancelled = await paste('threadblog', await consent('threadblog'));
    expect(cancelled.status).toBe(400);
    expect(cancelled.body.message).toMatch(/did not authorise Herald/);
    expect(cancelled.body.message).toMatch(
      /You cancelled on the Threads consent page.*start again and choose Authorize/,
    );

    const garbage = await paste('threadblog', 'the code was 1234');
    expect(garbage.status).toBe(400);
    expect(garbage.body.details[0].path).toBe('body.redirectUrl');
  });
});

describe('LinkedIn and X through a pasted address', () => {
  it('LinkedIn connects; a cancelled consent names the cause', async () => {
    await t.call('PUT', '/networks/problog', {
      key: owner,
      body: { clientId: li.clientId, clientSecret: li.clientSecret, redirectUri: LI_REDIRECT },
    });
    expect((await t.call('POST', '/networks/problog/test', { key: owner })).body.ok).toBe(true);
    const done = await paste('problog', await consent('problog'));
    expect(done.status, done.text).toBe(200);
    li.state.cancelNext = true;
    const cancelled = await paste('problog', await consent('problog'));
    expect(cancelled.status).toBe(400);
    expect(cancelled.body.message).toMatch(/cancelled the authorization/);
  });

  it("X connects with PKCE: the code goes with the flow's verifier, which the simulator checks", async () => {
    await t.call('PUT', '/networks/microblog', {
      key: owner,
      body: { clientId: x.clientId, clientSecret: x.clientSecret, redirectUri: X_REDIRECT },
    });
    const done = await paste('microblog', await consent('microblog'));
    expect(done.status, done.text).toBe(200);
  });
});
