/**
 * The CLI's side of issue #24 items 2 and 3, as the real binary against a real server:
 * `herald events` prints JSON lines from the event stream (--since resumes); `herald publish`
 * and `herald schedule create` with --dry-run print the plan and send, charge and schedule
 * nothing; `herald publish` follows its progress from the stream (one stream opened, and the
 * progress is read a few times, not polled).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, cliEnv, herald, ok } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestServer;
let key: string;
let owner: string;
let home: string;
const env = () => cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base });

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  owner = userIdOf(t, OWNER.email);
  home = tempDir('herald-cli-events-');
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const draft = async (text: string, accounts: string[]) => {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: { title: text, tweets: [{ content: text }], selectedAccountIds: accounts },
  });
  return r.body.draft.id as string;
};
const counts = () => {
  const q = (sql: string) => t.server.sqlite.prepare(sql).pluck().get();
  return {
    ledger: q('SELECT COUNT(*) FROM credit_ledger'),
    pubs: q('SELECT COUNT(*) FROM publications'),
    sched: q('SELECT COUNT(*) FROM schedule_entries'),
  };
};

describe('herald events', () => {
  it('prints one JSON line per event; --since resumes after an id', async () => {
    const ev = t.server.services.events;
    const start = ev.latestId(owner);
    ev.record(owner, 'credits.changed', { balance: 1 });
    ev.record(owner, 'credits.changed', { balance: 2 });
    const child = spawn(process.execPath, [BIN, 'events', '--since', String(start)], {
      env: env() as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    await vi.waitUntil(() => out.split('\n').filter(Boolean).length >= 2, { timeout: 30_000 });
    ev.record(owner, 'post.missed', { draftId: 'd', accountId: 'a', platform: 'fedblog', error: 'late' });
    await vi.waitUntil(() => out.split('\n').filter(Boolean).length >= 3, { timeout: 30_000 });
    child.kill('SIGINT');
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.type, l.balance ?? l.error])).toEqual([
      ['credits.changed', 1],
      ['credits.changed', 2],
      ['post.missed', 'late'],
    ]);
    expect(lines[2]).toMatchObject({ draftId: 'd', accountId: 'a', platform: 'fedblog', at: expect.any(String) });
    expect(lines[1].id).toBeGreaterThan(lines[0].id);
  });
});

describe('--dry-run', () => {
  it("publish --dry-run prints the plan (json: the API's answer) and sends, charges, stores nothing", async () => {
    const acct = addAccount(t, owner, 'microblog').accountId;
    const id = await draft('Dry from the CLI https://example.com', [acct]);
    await t.call('POST', '/credits', { key });
    const before = counts();
    const json = await herald(['publish', id, '--dry-run', '-o', 'json'], { env: env() });
    const plan = JSON.parse(ok(json));
    expect(plan).toMatchObject({
      dryRun: true,
      plan: [
        {
          accountId: acct,
          platform: 'microblog',
          credits: 10,
          posts: [{ text: 'Dry from the CLI https://example.com' }],
        },
      ],
      credits: { needed: 10 },
      xCostUsd: 0.2,
    });
    const table = await herald(['publish', id, '--dry-run'], { env: env() });
    expect(ok(table)).toContain('Dry run: nothing was sent or charged. Needs 10 credits');
    expect(counts()).toEqual(before);
  });

  it('publish --dry-run shows a LinkedIn thread as its post and comments', async () => {
    const acct = addAccount(t, owner, 'problog').accountId;
    const r = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'li', tweets: [{ content: 'The post' }, { content: 'The comment' }], selectedAccountIds: [acct] },
    });
    const table = ok(await herald(['publish', r.body.draft.id, '--dry-run'], { env: env() }));
    expect(table).toContain('1. The post\n  2. (comment) The comment');
  });

  it('schedule create --dry-run prints the plan and schedules nothing', async () => {
    const acct = addAccount(t, owner, 'fedblog').accountId;
    const id = await draft('Dry schedule', [acct]);
    const before = counts();
    const r = await herald(
      ['schedule', 'create', id, '--at', new Date(Date.now() + 86_400_000).toISOString(), '--dry-run', '-o', 'json'],
      { env: env() },
    );
    expect(JSON.parse(ok(r))).toMatchObject({
      dryRun: true,
      plan: [{ accountId: acct, platform: 'fedblog', credits: 10 }],
    });
    expect(counts()).toEqual(before);
  });
});

describe('herald publish --wait', () => {
  it(
    'follows the publish from the event stream: the stream ' + 'opens, progress lines and the result as before',
    async () => {
      // An account without tokens: its publish fails at once (no network needed).
      const acct = addAccount(t, owner, 'fedblog').accountId;
      const id = await draft('Waited for', [acct]);
      let streams = 0;
      const watch = setInterval(() => {
        streams = Math.max(streams, t.server.services.events.streams);
      }, 2);
      const r = await herald(['publish', id, '--wait'], { env: env() });
      clearInterval(watch);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`Publishing ${id} to 1 account(s)…`);
      const username = (await t.call('GET', `/accounts/${acct}`, { key })).body.account.username;
      expect(r.err).toMatch(new RegExp(`✗ Mastodon  @${username}  failed  \\S`));
      expect(r.err).toContain('Done: 0 published, 1 failed of 1.');
      expect(streams).toBe(1);
    },
  );
});
