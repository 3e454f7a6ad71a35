/**
 * The world of the cli-commands tests: a real server (SQLite file, loopback HTTP, no owner until a
 * test or `createOwner` makes one) and the Mastodon simulator with a second user, the accounts
 * `connectAccounts` connects, and the ways the tests run `herald` (one format, or the three at
 * once) and read what it prints. The state is exported as live bindings, set once
 * `useCliCommandsWorld()` has started the server and by the functions that set it up.
 */
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { cliEnv, herald, limit, ok, type CliResult } from './cli.js';
import { addAccount, userIdOf } from './drafts.js';
import { connectOAuth } from './oauth-connect.js';
import { OWNER, startServer, tempDir, type TestServer } from './server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

export const FORMATS = ['table', 'json', 'minimal'] as const;
export type Format = (typeof FORMATS)[number];

export let t: TestServer;
export let sim: MastodonSimulator;
export let key: string;
export let fed1: string;
export let fed2: string;
export let sky: string;
export let home: string;
const dirs: string[] = [];
/** A temporary folder, removed after the file's tests. */
export const dir = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
export const run = limit(3);

/** `herald <args> -o <format>` with the key and URL in the environment. */
export const cli = (args: string[], format?: Format, stdin?: string, extra: Record<string, string> = {}) =>
  run(() =>
    herald(format ? [...args, '-o', format] : args, {
      env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base, ...extra }),
      stdin,
    }),
  );
/** The same command in the three formats, at once. */
export const inEach = (args: (f: Format) => string[], stdin?: (f: Format) => string | undefined) =>
  Promise.all(FORMATS.map((f) => cli(args(f), f, stdin?.(f)))).then(([table, json, minimal]) => ({
    table,
    json,
    minimal,
  }));
export const api = async (method: string, p: string, body?: unknown) => {
  const r = await t.call(method, p, { key, body });
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
};
/** A long cell as the table shows it: cut to `max` columns with an ellipsis (ASCII text here). */
export const clipped = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
export const lines = (r: CliResult) => ok(r).split('\n').filter(Boolean);

/** What a person reads for a network and an account (the UI's words), never microblog/fedblog or an id alone. */
export const NAME: Record<string, string> = { fedblog: 'Mastodon', skyblog: 'Bluesky' };
export const handleOf = (a: { platform: string; username: string }) =>
  a.platform === 'fedblog' ? `@${a.username}@${new URL(sim.url).host}` : `@${a.username}`;
export const accountsNow = async () =>
  new Map<string, any>((await api('GET', '/accounts')).accounts.map((a: any) => [a.uuid, a]));
/** An API row as `-o json` prints it: the API's fields, and the names beside them. */
export const named = (row: any, account: any) => ({
  ...row,
  platformName: NAME[row.platform],
  accountHandle: handleOf(account),
});

/** Starts the simulator and the server before the calling file's tests; closes them after. */
export function useCliCommandsWorld(): void {
  beforeAll(async () => {
    sim = await startMastodonSimulator();
    sim.addAccount({ username: 'second', displayName: 'Second Tester' });
    t = await startServer({ owner: false, scheduler: false });
    home = dir('herald-cli-home-');
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
}

/** The key the commands run with (`herald init` answers it, or `createOwner` makes it). */
export function useKey(k: string): void {
  key = k;
}

/** The owner, created through the API as `herald init --timezone Europe/Paris` does; its key is the one used. */
export async function createOwner(): Promise<void> {
  const r = await t.call('POST', '/auth/setup', {
    body: { email: OWNER.email, password: OWNER.password, timezone: 'Europe/Paris' },
  });
  if (r.status !== 200) throw new Error(`setup: ${r.status} ${r.text}`);
  useKey(r.body.apiKey.key);
}

/**
 * Connects two Mastodon accounts through the simulator (fed1, fed2), and adds a Bluesky account
 * with no tokens in the secret store in a set of its own (sky): publishing to it fails.
 */
export async function connectAccounts() {
  const first = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
  sim.setCurrentUser('second');
  const second = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
  fed1 = first.body.accountUuid;
  fed2 = second.body.accountUuid;
  const other = await api('POST', '/social-sets', { name: 'Elsewhere' });
  sky = addAccount(t, userIdOf(t, OWNER.email), 'skyblog', { socialSetId: other.socialSet.id }).accountId;
  return [first, second];
}
