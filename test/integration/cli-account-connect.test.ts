/**
 * `herald account connect` (the wizard's last step for scripts) as the real binary against a real
 * server and the Mastodon simulator: it prints the address to open, follows the flow until the
 * browser (here: the test, as a browser would) comes back, and says what happened: connected, then
 * "already connected — tokens refreshed" for the same account, never a second one; an account id
 * to reconnect that is not the caller's is exit 4 before the network is asked.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BIN, cliEnv, herald } from '../helpers/cli.js';
import { authorizeAtNetwork } from '../helpers/oauth-connect.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

vi.setConfig({ testTimeout: 120_000 });

const home = tempDir('herald-cli-connect-');
let masto: MastodonSimulator;
let t: TestServer;
let key = '';
const env = () => cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base });

/** Runs `herald account connect …`; once it prints the address, opens it as a browser would. */
function connectLikeAPerson(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'account', 'connect', ...args], {
      env: env() as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let opened = false;
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      const url = /^(http\S+\/oauth\/authorize\S*)$/m.exec(err)?.[1];
      if (url && !opened) {
        opened = true;
        // The browser follows the network's redirect back to Herald's callback.
        void authorizeAtNetwork(url)
          .then((back) => fetch(back))
          .catch(reject);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end();
  });
}

beforeAll(async () => {
  masto = await startMastodonSimulator();
  t = await startServer();
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await masto?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

it('connects a Mastodon account, then says it was already connected the second time', async () => {
  // The network by its name, as a person types it; the API's word works too (below).
  const first = await connectLikeAPerson(['mastodon', '--instance', masto.url]);
  expect(first.code, first.err).toBe(0);
  expect(first.err).toMatch(/Open this address in a browser and allow Herald to post to Mastodon:/);
  expect(first.out).toMatch(/Connected Mastodon as @herald/);
  const again = await connectLikeAPerson(['fedblog', '--instance', masto.url]);
  expect(again.code, again.err).toBe(0);
  expect(again.out).toMatch(/Already connected as @herald on Mastodon — tokens refreshed/);
  expect((await t.call('GET', '/accounts', { key })).body.accounts).toHaveLength(1);
});

it('an account to reconnect that is not yours is exit 4, and a missing instance a usage error', async () => {
  const r = await herald(['account', 'connect', 'fedblog', '--instance', masto.url, '--reconnect', 'no-such-account'], {
    env: env(),
  });
  expect(r.code).toBe(4);
  expect(r.err).toMatch(/NOT_FOUND: No Mastodon account with that id to reconnect/);
  const usage = await herald(['account', 'connect', 'fedblog'], { env: env() });
  expect(usage.code).toBe(2);
  expect(usage.err).toMatch(/--instance/);
  const unknown = await herald(['account', 'connect', 'myspace'], { env: env() });
  expect(unknown.code).toBe(2);
  expect(unknown.err).toMatch(/Unknown network "myspace": use x, bluesky, mastodon, threads, linkedin/);
});
