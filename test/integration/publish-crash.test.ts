/**
 * A crash in the middle of a thread. Herald runs as `npm run serve` does (tsx server/main.ts) in
 * a child process, publishes a 3-post thread to the X simulator through a fault proxy, and is
 * killed with SIGKILL while part 2 is in flight: once after X committed part 2 (its answer held
 * back, so Herald never recorded it), once before part 2 reached X. A new Herald on the same data
 * folder resumes at start: part 1 is never sent again, part 2 exists exactly once (found by the
 * lookup, or sent now), part 3 replies to it, and the target is charged once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { jsonCaller, OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';
import { until } from '../helpers/until.js';

const CLIENT = { clientId: 'herald-crash-client', clientSecret: 'herald-crash-secret' };
let x: XSimulator;
let proxy: FaultProxy;
let settings: Record<string, string>;
const children = new Set<ChildProcess>();
const cleanup: (() => Promise<void>)[] = [];

/** Herald in its own process, as `npm run serve` starts it; resolves with its API base URL. */
async function startChild(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/main.ts')], {
    env: {
      ...process.env,
      ...settings,
      HERALD_DATA_DIR: dataDir,
      HERALD_PORT: '0',
      HERALD_SECRET_STORE: 'file',
      HERALD_LOG_LEVEL: 'error',
      HERALD_OWNER_EMAIL: OWNER.email,
      HERALD_OWNER_PASSWORD: OWNER.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Herald did not start: ${out}`)), 60_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Herald API listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Herald exited (${code}): ${out}`));
    });
  });
  return { child, base };
}

/** The calls tests make of a Herald in another process (TestServer's shape, enough for connectOAuth). */
const remote = (base: string): Pick<TestServer, 'call'> => ({ call: jsonCaller(base) });

const postsWith = (texts: string[]) =>
  x.state.posts.filter((p) => texts.includes(p.text)).sort((a, b) => a.seq - b.seq);

beforeAll(async () => {
  x = await startXSimulator({ ...CLIENT, rejectDuplicates: false });
  proxy = await startFaultProxy(x.url);
  settings = {
    HERALD_MICROBLOG_API_URL: proxy.url,
    HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
    HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
    HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
    HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
  };
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const f of cleanup) await f();
  await proxy?.close();
  await x?.close();
});

describe.each([
  ['after X committed part 2', 'commit' as const],
  ['before part 2 reached X', 'before' as const],
])('Herald killed while part 2 is in flight (%s)', (_label, when) => {
  it('a new Herald on the same folder resumes at part 2: nothing sent twice, charged once', async () => {
    const dataDir = tempDir('herald-crash-');
    const { child, base } = await startChild(dataDir);
    const api = remote(base);
    const key = (await api.call('POST', '/auth/login', { body: OWNER })).body.apiKey.key as string;
    const connected = await connectOAuth(api as TestServer, key, 'microblog');
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    const texts = [1, 2, 3].map((i) => `Crash ${when} part ${i}/3`);
    const draft = await api.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'crash', tweets: texts.map((content) => ({ content })) },
    });
    const draftId = draft.body.draft.id as string;
    const startBalance = (await api.call('POST', '/credits', { key })).body.balance as number;

    const held = proxy.hold('POST /2/tweets', when === 'commit' ? { after: 'commit', skip: 1 } : { skip: 1 });
    const accepted = await api.call('POST', '/microblog/publish', { key, body: { draftId, async: true } });
    expect(accepted.status, accepted.text).toBe(202);
    await held.arrived;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    // The held request is never let go: its client is dead.
    expect(postsWith(texts).map((p) => p.text)).toEqual(when === 'commit' ? texts.slice(0, 2) : texts.slice(0, 1));
    const tweetsBefore = proxy.count('POST /2/tweets');

    // The next start takes the folder over and resumes what the crash left `publishing`.
    const t = await startServer({ dataDir, settings });
    cleanup.push(() => t.close());
    const key2 = await t.login();
    const entry = await until(
      'the thread published',
      async () => {
        const p = await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key: key2 });
        return p.body.entries[0]?.status === 'published' ? p.body.entries[0] : undefined;
      },
      30_000,
    );
    const chain = postsWith(texts);
    expect(chain.map((p) => p.text)).toEqual(texts);
    expect(chain.map((p) => p.replyTo)).toEqual([undefined, chain[0].id, chain[1].id]);
    expect(x.state.counter.duplicates()).toEqual([]);
    // After the restart X got part 3 (and, when part 2 never arrived, part 2): nothing else.
    expect(proxy.count('POST /2/tweets') - tweetsBefore).toBe(when === 'commit' ? 1 : 2);
    if (when === 'commit')
      expect(proxy.requests.slice(-6).some((r) => /^GET \/2\/users\/[^/]+\/tweets$/.test(r))).toBe(true);
    expect(entry).toMatchObject({ url: `https://x.com/herald_tester/status/${chain[0].id}`, attempts: 1 });
    expect((await t.call('POST', '/credits', { key: key2 })).body.balance).toBe(startBalance - 10);
    expect((await t.call('GET', `/microblog/drafts/${draftId}`, { key: key2 })).body.draft.status).toBe('published');
    expect(fs.existsSync(dataDir)).toBe(true);
  }, 120_000);
});
