/**
 * Connecting the same network user twice (issue #21, "Bad input" and item 5): a fresh Connect of an
 * account already here answers 200 with the same account, `alreadyConnected: true` and a message
 * saying its tokens were refreshed, never a second account; a Reconnect (`reconnect: <id>`)
 * replaces the tokens in place and the account's scheduled posts survive; a Reconnect that signs
 * in as another network user is a 400 that changes nothing; a person who cancels on the consent
 * page gets a 400 naming that and the next step, and the app polling the flow
 * (GET /connections/:sessionId) learns each outcome. Real server, the Mastodon simulator.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeAtNetwork, connectOAuth, finishCallback } from '../helpers/oauth-connect.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

let masto: MastodonSimulator;
let t: TestServer;
let key = '';
let accountId = '';
let draftId = '';

const accounts = async () =>
  (await t.call('GET', '/accounts', { key })).body.accounts as { uuid: string; username: string; status: string }[];
const token = async (id: string) => (await t.server.services.credentials.load(id))?.accessToken;
const schedules = async () =>
  (await t.call('GET', '/microblog/schedule', { key })).body.schedules as { draftId: string; accountUuid: string }[];

beforeAll(async () => {
  masto = await startMastodonSimulator();
  masto.addAccount({ username: 'someone_else' });
  t = await startServer();
  key = await t.login();
  const first = await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body).toMatchObject({
    alreadyConnected: false,
    reconnected: false,
    message: expect.stringMatching(/^Connected Mastodon as @herald/),
  });
  accountId = first.body.accountUuid;
  const d = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: 'kept', tweets: [{ content: 'Scheduled before reconnecting' }] },
  });
  draftId = d.body.draft.id;
  const s = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
      targetAccounts: [{ accountId, platform: 'fedblog' }],
    },
  });
  expect(s.status, s.text).toBe(200);
});

afterAll(async () => {
  await t?.close();
  await masto?.close();
});

it('a fresh Connect of an account already here refreshes its tokens and says so; no second account', async () => {
  const before = await token(accountId);
  const again = await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url });
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  expect(again.body).toMatchObject({ accountUuid: accountId, alreadyConnected: true, reconnected: false });
  expect(again.body.message).toMatch(
    /Already connected as @herald on Mastodon — tokens refreshed; no second account was added/,
  );
  expect((await accounts()).map((a) => a.uuid)).toEqual([accountId]);
  expect(await token(accountId)).not.toBe(before);
  expect(await schedules()).toEqual([expect.objectContaining({ draftId, accountUuid: accountId })]);
});

it('Reconnect replaces the tokens in place, keeps the schedule, and the app learns what happened', async () => {
  const before = await token(accountId);
  const start = await t.call('POST', '/fedblog/auth', { key, body: { instanceUrl: masto.url, reconnect: accountId } });
  expect(start.status, start.text).toBe(200);
  expect((await t.call('GET', `/connections/${start.body.sessionId}`, { key })).body).toMatchObject({
    status: 'waiting',
  });
  const done = await finishCallback(await authorizeAtNetwork(start.body.authUrl));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body).toMatchObject({ accountUuid: accountId, reconnected: true, alreadyConnected: false });
  expect(done.body.message).toMatch(
    /Reconnected Mastodon as @herald: new tokens saved; its sets and scheduled posts are unchanged/,
  );
  const polled = (await t.call('GET', `/connections/${start.body.sessionId}`, { key })).body;
  expect(polled).toMatchObject({
    status: 'connected',
    accountUuid: accountId,
    reconnected: true,
    message: done.body.message,
  });
  expect(await token(accountId)).not.toBe(before);
  expect((await accounts()).map((a) => a.uuid)).toEqual([accountId]);
  expect(await schedules()).toEqual([expect.objectContaining({ draftId, accountUuid: accountId })]);
  // Another user's key does not learn of the flow.
  const other = await t.call('GET', '/connections/not-a-session', { key });
  expect(other.status).toBe(404);
});

it('a Reconnect that signed in as another network user is refused and changes nothing', async () => {
  const before = await token(accountId);
  masto.setCurrentUser('someone_else');
  try {
    const start = await t.call('POST', '/fedblog/auth', {
      key,
      body: { instanceUrl: masto.url, reconnect: accountId },
    });
    const done = await finishCallback(await authorizeAtNetwork(start.body.authUrl));
    expect(done.status).toBe(400);
    expect(done.body.error).toBe('INVALID_INPUT');
    expect(done.body.message).toMatch(
      /You signed in to Mastodon as @someone_else, but the account to reconnect is @herald\. Nothing was changed/,
    );
    expect((await t.call('GET', `/connections/${start.body.sessionId}`, { key })).body).toMatchObject({
      status: 'failed',
      error: { code: 'INVALID_INPUT' },
    });
  } finally {
    masto.setCurrentUser('herald');
  }
  expect(await token(accountId)).toBe(before);
  expect((await accounts()).map((a) => a.username)).toEqual(['herald']);
  // An id that is not one of the caller's accounts of that network: 404 before the network is asked.
  const wrong = await t.call('POST', '/fedblog/auth', {
    key,
    body: { instanceUrl: masto.url, reconnect: 'no-such-account' },
  });
  expect(wrong.status).toBe(404);
});

it('cancelling on the consent page is a 400 naming it and the next step; nothing is saved', async () => {
  const start = await t.call('POST', '/fedblog/auth', { key, body: { instanceUrl: masto.url } });
  const auth = new URL(start.body.authUrl);
  const back = new URL(auth.searchParams.get('redirect_uri')!);
  back.searchParams.set('error', 'access_denied');
  back.searchParams.set('error_description', 'The resource owner or authorization server denied the request.');
  back.searchParams.set('state', auth.searchParams.get('state')!);
  const done = await finishCallback(back.toString());
  expect(done.status).toBe(400);
  expect(done.body.error).toBe('INVALID_INPUT');
  expect(done.body.message).toMatch(/cancelled on the Mastodon consent page/);
  expect(done.body.message).toMatch(/nothing was connected\. To connect, start again and choose Authorize/);
  expect((await t.call('GET', `/connections/${start.body.sessionId}`, { key })).body).toMatchObject({
    status: 'failed',
    error: { code: 'INVALID_INPUT' },
  });
  expect(await accounts()).toHaveLength(1);
});
