/**
 * `herald network list|set|remove|test` (issue #21 item 7) as the real binary against a real
 * server and the X simulator: the secret goes in through stdin, is used at once (Test says OK),
 * never comes back in any output, and another user's key is refused.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { cliEnv, herald, parseKeyValues } from '../helpers/cli.js';
import { addUser, startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { canaryToken } from '../simulators/util.js';

vi.setConfig({ testTimeout: 180_000 });

const X_ID = 'herald-cli-client';
const X_SECRET = canaryToken('x', 'secret');
let x: XSimulator;
let t: TestServer;
let key: string;
let otherKey: string;
const home = tempDir('herald-cli-net-');

const cli = (args: string[], stdin?: string, k = key) =>
  herald(args, { env: cliEnv(home, { HERALD_API_KEY: k, HERALD_BASE_URL: t.base }), stdin });

beforeAll(async () => {
  x = await startXSimulator({ clientId: X_ID, clientSecret: X_SECRET });
  t = await startServer({
    settings: {
      HERALD_MICROBLOG_API_URL: x.url,
      HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
      HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
    },
  });
  key = await t.login();
  otherKey = await addUser(t, 'cli-second@example.test');
});

afterAll(async () => {
  await t?.close();
  await x?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

it('sets, tests, lists and removes the X app through the client', async () => {
  const usage = await cli(['network', 'set', 'microblog', '--client-id', X_ID]);
  expect(usage.code).not.toBe(0);
  expect(usage.err).toMatch(/--client-secret/);

  // The network by the name people know (x) or the API's word (microblog); shown by its name.
  const set = await cli(['network', 'set', 'x', '--client-id', X_ID, '--client-secret-stdin'], `${X_SECRET}\n`);
  expect(set.code, set.err).toBe(0);
  expect(parseKeyValues(set.out.split('\nCheck it with')[0])).toMatchObject({
    network: 'X',
    configured: 'yes',
    source: 'saved in Herald',
  });
  expect(set.out).toMatch(/\nCheck it with: herald network test x\n$/);
  expect(set.out).not.toContain(X_SECRET);

  const test = await cli(['network', 'test', 'microblog']);
  expect(test.code, test.err).toBe(0);
  expect(test.out).toMatch(/^OK: X accepted the client id and secret/);

  const list = await cli(['network', 'list', '-o', 'json']);
  expect(list.code).toBe(0);
  const body = JSON.parse(list.out);
  expect(body.networks[0]).toMatchObject({
    platform: 'microblog',
    platformName: 'X',
    configured: true,
    source: 'app',
    clientId: X_ID,
  });
  expect(body.networks.map((n: { platformName: string }) => n.platformName)).toEqual([
    'X',
    'Threads',
    'LinkedIn',
    'Sign-in provider',
  ]);
  expect(list.out).not.toContain(X_SECRET);
  const table = await cli(['network', 'list']);
  expect(table.out).toMatch(/^X\s+yes\s+saved in Herald/m);
  expect(table.out).toMatch(/^LinkedIn\s+no\s/m);
  expect(
    table.out
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{2,}/)[0]),
  ).toEqual(['X', 'Threads', 'LinkedIn', 'Sign-in provider']);

  const wrong = await cli(
    ['network', 'set', 'microblog', '--client-id', X_ID, '--client-secret-stdin'],
    canaryToken('x', 'secret'),
  );
  expect(wrong.code).toBe(0);
  const bad = await cli(['network', 'test', 'microblog']);
  expect(bad.code).toBe(1);
  expect(bad.out).toMatch(/^Not working: X did not accept the client id and secret/);

  const denied = await cli(
    ['network', 'set', 'microblog', '--client-id', 'mine', '--client-secret-stdin'],
    'secret-of-another',
    otherKey,
  );
  expect(denied.code).not.toBe(0);
  expect(denied.err).toMatch(/Only the owner/);

  const removed = await cli(['network', 'remove', 'X']);
  expect(removed.code, removed.err).toBe(0);
  expect(removed.out).toBe('Removed the saved X app\n');
  const unknown = await cli(['network', 'test', 'myspace']);
  expect(unknown.code).not.toBe(0);
  expect(unknown.err).toMatch(
    new RegExp(
      /Unknown network "myspace": use x, threads, linkedin, sign-in /.source +
        /\(or the API's microblog, threadblog, problog, identity\)/.source,
    ),
  );
  expect(JSON.parse((await cli(['network', 'list', '-o', 'json'])).out).networks[0].configured).toBe(false);
});

it('herald network analytics off|on: LinkedIn sign-in asks for post analytics or not', async () => {
  const off = await cli(['network', 'analytics', 'off']);
  expect(off.code, off.err).toBe(0);
  expect(off.out).toMatch(/^LinkedIn sign-in asks for: openid profile w_member_social\n/);
  const nets = (await t.call('GET', '/networks', { key })).body.networks as any[];
  expect(nets.find((n) => n.platform === 'problog').analyticsScope).toBe(false);
  const on = await cli(['network', 'analytics', 'on', '-o', 'json']);
  expect(on.code, on.err).toBe(0);
  expect(JSON.parse(on.out).network).toMatchObject({ analyticsScope: true });
  expect((await cli(['network', 'analytics', 'maybe'])).code).not.toBe(0);
  // The owner's setting: another user's key is refused.
  expect((await cli(['network', 'analytics', 'off'], undefined, otherKey)).code).not.toBe(0);
});
