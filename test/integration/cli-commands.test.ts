/**
 * Every `herald` command in every output format (table, json, minimal), run as the real binary
 * against a real server (SQLite file, loopback HTTP) with Mastodon accounts connected through
 * the Mastodon simulator, so `publish` really posts. JSON must equal what the API answers for the
 * same resource; tables must be aligned (CJK and emoji titles included); minimal prints ids only.
 * backup and --help: cli-local-commands.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginResponse } from '../../server/contracts/auth.js';
import { meResponse } from '../../server/contracts/users.js';
import { built } from '../../server/contracts/lazy.js';
import { cliEnv, herald, limit, ok, parseKeyValues, parseTable, type CliResult } from '../helpers/cli.js';
import { formatLocal } from '../../time/index.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';

// Each test runs several CLI children (about half a second each, more on a loaded machine).
vi.setConfig({ testTimeout: 180_000 });

const FORMATS = ['table', 'json', 'minimal'] as const;
type Format = (typeof FORMATS)[number];

let t: TestServer;
let sim: MastodonSimulator;
let key: string;
let fed1: string;
let fed2: string;
let sky: string;
const dirs: string[] = [];
const dir = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
const run = limit(3);

/** `herald <args> -o <format>` with the key and URL in the environment. */
const cli = (args: string[], format?: Format, stdin?: string, extra: Record<string, string> = {}) =>
  run(() =>
    herald(format ? [...args, '-o', format] : args, {
      env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base, ...extra }),
      stdin,
    }),
  );
/** The same command in the three formats, at once. */
const inEach = (args: (f: Format) => string[], stdin?: (f: Format) => string | undefined) =>
  Promise.all(FORMATS.map((f) => cli(args(f), f, stdin?.(f)))).then(([table, json, minimal]) => ({
    table,
    json,
    minimal,
  }));
const api = async (method: string, p: string, body?: unknown) => {
  const r = await t.call(method, p, { key, body });
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
};
/** A long cell as the table shows it: cut to `max` columns with an ellipsis (ASCII text here). */
const clipped = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const lines = (r: CliResult) => ok(r).split('\n').filter(Boolean);
let home: string;
/** What a person reads for a network and an account (the UI's words), never microblog/fedblog or an id alone. */
const NAME: Record<string, string> = { fedblog: 'Mastodon', skyblog: 'Bluesky' };
const handleOf = (a: { platform: string; username: string }) =>
  a.platform === 'fedblog' ? `@${a.username}@${new URL(sim.url).host}` : `@${a.username}`;
const accountsNow = async () =>
  new Map<string, any>((await api('GET', '/accounts')).accounts.map((a: any) => [a.uuid, a]));
/** An API row as `-o json` prints it: the API's fields, and the names beside them. */
const named = (row: any, account: any) => ({
  ...row,
  platformName: NAME[row.platform],
  accountHandle: handleOf(account),
});

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

describe('herald init', () => {
  it('creates the owner through the API and saves the key it answers with, in each format', async () => {
    const homes = FORMATS.map(() => dir('herald-cli-init-'));
    const others = [
      await startServer({ owner: false, scheduler: false }),
      await startServer({ owner: false, scheduler: false }),
    ];
    try {
      const servers = [others[0], t, others[1]];
      const [table, json, minimal] = await Promise.all(
        FORMATS.map((f, i) =>
          run(() =>
            herald(
              ['init', '--email', OWNER.email, '--password', OWNER.password, '--timezone', 'Europe/Paris', '-o', f],
              { env: cliEnv(homes[i], { HERALD_BASE_URL: servers[i].base }) },
            ),
          ),
        ),
      );

      const answer = JSON.parse(ok(json));
      expect(Object.keys(answer).sort()).toEqual([...Object.keys(built(loginResponse).shape), 'savedTo'].sort());
      key = answer.apiKey.key;
      expect(answer.user.email).toBe(OWNER.email);
      const saved = path.join(homes[1], 'herald', 'credentials.json');
      expect(answer.savedTo).toBe(saved);
      expect(JSON.parse(fs.readFileSync(saved, 'utf8'))).toEqual({ apiKey: key, baseUrl: t.base });
      expect(fs.statSync(saved).mode & 0o777).toBe(0o600);
      expect((await api('GET', '/me')).timezone).toBe('Europe/Paris');

      expect(ok(table)).toMatch(
        new RegExp(
          `^Created the owner ${OWNER.email} at ${others[0].base.replace(/[.]/g, '\\.')}; signed in, key ` +
            `saved to .*credentials\\.json\\.\\nNext: set up the network apps .*herald network set .*\\n$`,
        ),
      );
      const minimalUser = (
        await others[1].call('GET', '/me', {
          key: JSON.parse(fs.readFileSync(path.join(homes[2], 'herald', 'credentials.json'), 'utf8')).apiKey,
        })
      ).body;
      expect(ok(minimal)).toBe(`${minimalUser.uuid}\n`);

      // A second owner is refused: one line, the API's code, the auth exit code.
      const again = await cli(['init', '--email', 'x@example.test', '--password', 'another password']);
      expect(again.code).toBe(3);
      // docs/decisions.md §2: 409 ALREADY_SET_UP (was 403 UNAUTHORIZED); still the auth exit code.
      expect(again.err).toMatch(/^error ALREADY_SET_UP: .*owner.*\n$/);
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });

  it('connects two Mastodon accounts through the simulator (setup for the rest)', async () => {
    const first = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
    sim.setCurrentUser('second');
    const second = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url });
    expect([first.status, second.status]).toEqual([200, 200]);
    fed1 = first.body.accountUuid;
    fed2 = second.body.accountUuid;
    // An account with no tokens in the secret store: publishing to it fails, in its own set.
    const other = await api('POST', '/social-sets', { name: 'Elsewhere' });
    sky = addAccount(t, userIdOf(t, OWNER.email), 'skyblog', { socialSetId: other.socialSet.id }).accountId;
  });
});

describe('herald login, whoami, logout', () => {
  it('save the key (0600) with the base URL, use it, and forget it, in each format', async () => {
    const homes = FORMATS.map(() => dir('herald-cli-login-'));
    const env = (i: number) => cliEnv(homes[i]);
    // minimal reads the key from stdin (kept out of the process list).
    const login = await Promise.all(
      FORMATS.map((f, i) =>
        run(() =>
          herald(
            f === 'minimal'
              ? ['login', '--stdin', '--base-url', t.base, '-o', f]
              : ['login', '--api-key', key, '--base-url', t.base, '-o', f],
            { env: env(i), stdin: f === 'minimal' ? `${key}\n` : undefined },
          ),
        ),
      ),
    );
    const me = await api('GET', '/me');
    const file = (i: number) => path.join(homes[i], 'herald', 'credentials.json');
    for (let i = 0; i < 3; i++) {
      ok(login[i]);
      expect(fs.statSync(file(i)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file(i))).mode & 0o777).toBe(0o700);
      expect(JSON.parse(fs.readFileSync(file(i), 'utf8'))).toEqual({ apiKey: key, baseUrl: t.base });
    }
    expect(login[0].out).toBe(`Signed in as ${OWNER.email} at ${t.base}; key saved to ${file(0)}\n`);
    expect(JSON.parse(login[1].out)).toEqual({ ...me, baseUrl: t.base, savedTo: file(1) });
    expect(login[2].out).toBe(`${me.uuid}\n`);

    // No key or URL in the environment: both come from the saved login.
    const who = await Promise.all(FORMATS.map((f, i) => run(() => herald(['whoami', '-o', f], { env: env(i) }))));
    const kv = parseKeyValues(ok(who[0]));
    expect(kv).toEqual({
      uuid: me.uuid,
      email: me.email,
      nickname: me.nickname,
      timezone: me.timezone,
      locale: me.locale,
      credits: String(me.credits_balance),
      created: me.created_at,
    });
    const whoJson = JSON.parse(ok(who[1]));
    expect(Object.keys(whoJson).sort()).toEqual(Object.keys(built(meResponse).shape).sort());
    expect(whoJson).toEqual(await api('GET', '/me'));
    expect(ok(who[2])).toBe(`${me.uuid}\n`);

    const out = await Promise.all(FORMATS.map((f, i) => run(() => herald(['logout', '-o', f], { env: env(i) }))));
    expect(ok(out[0])).toBe('Signed out: the saved key is gone.\n');
    expect(JSON.parse(ok(out[1]))).toEqual({ success: true, removed: true });
    expect(ok(out[2])).toBe('');
    for (let i = 0; i < 3; i++) expect(fs.existsSync(file(i))).toBe(false);

    const after = await run(() => herald(['whoami', '--base-url', t.base], { env: env(0) }));
    expect(after.code).toBe(3);
    expect(after.err).toBe(
      'error INVALID_API_KEY: No API key: pass apiKey, set HERALD_API_KEY, or run `herald login`\n',
    );
    // The key itself still works: logout only forgets it.
    expect((await t.call('GET', '/me', { key })).status).toBe(200);
  });
});

describe('herald social-set list, account list', () => {
  it("print the API's sets and accounts in each format", async () => {
    const [sets, accounts] = await Promise.all([
      inEach(() => ['social-set', 'list']),
      inEach(() => ['account', 'list']),
    ]);
    const apiSets = await api('GET', '/social-sets');
    const apiAccounts = await api('GET', '/accounts');
    expect(apiAccounts.accounts).toHaveLength(3);

    const full = await accountsNow();
    expect(JSON.parse(ok(sets.json))).toEqual({
      ...apiSets,
      socialSets: apiSets.socialSets.map((s: any) => ({
        ...s,
        accounts: s.accounts.map((a: any) => named(a, full.get(a.accountId))),
      })),
    });
    expect(parseTable(ok(sets.table), ['NAME', 'DEFAULT', 'ACCOUNTS', 'ID'])).toEqual(
      apiSets.socialSets.map((s: any) => ({
        ID: s.id,
        NAME: s.name,
        DEFAULT: s.isDefault ? 'yes' : '',
        ACCOUNTS: s.accounts.map((a: any) => `${NAME[a.platform]} ${handleOf(a)}`).join(', '),
      })),
    );
    expect(ok(sets.table)).toContain(
      `Mastodon @herald@${new URL(sim.url).host}, Mastodon @second@${new URL(sim.url).host}`,
    );
    expect(lines(sets.minimal)).toEqual(apiSets.socialSets.map((s: any) => s.id));

    expect(JSON.parse(ok(accounts.json))).toEqual({
      ...apiAccounts,
      accounts: apiAccounts.accounts.map((a: any) => named(a, a)),
    });
    expect(parseTable(ok(accounts.table), ['NETWORK', 'ACCOUNT', 'NAME', 'STATUS', 'FOLLOWERS', 'ID'])).toEqual(
      apiAccounts.accounts.map((a: any) => ({
        NETWORK: NAME[a.platform],
        ACCOUNT: handleOf(a),
        NAME: a.display_name,
        STATUS: a.status,
        FOLLOWERS: String(a.followers_count),
        ID: a.uuid,
      })),
    );
    expect(ok(accounts.table)).not.toMatch(/(^|\s)(fedblog|skyblog)(\s|$)/m);
    expect(lines(accounts.minimal).sort()).toEqual([fed1, fed2, sky].sort());
  });
});

describe('herald template', () => {
  it('create, list and get in each format', async () => {
    const made = await inEach((f) => [
      'template',
      'create',
      '--name',
      `T-${f} 模板`,
      '--head',
      `Head ${f} 🚀`,
      '--tail',
      '#tail',
      '--description',
      'for tests',
    ]);
    const createdJson = JSON.parse(ok(made.json));
    expect(createdJson).toEqual(await api('GET', `/templates/${createdJson.template.uuid}`));
    const tableId = /^Created template T-table 模板 \(([0-9a-f-]{36})\)\n$/.exec(ok(made.table))?.[1];
    const minimalId = ok(made.minimal).trim();
    expect(tableId).toBeDefined();
    expect((await api('GET', `/templates/${minimalId}`)).template.name).toBe('T-minimal 模板');

    const [list, get] = await Promise.all([
      inEach(() => ['template', 'list']),
      inEach(() => ['template', 'get', tableId!]),
    ]);
    const apiList = await api('GET', '/templates');
    expect(apiList.templates).toHaveLength(3);
    expect(JSON.parse(ok(list.json))).toEqual(apiList);
    expect(parseTable(ok(list.table), ['ID', 'NAME', 'HEAD', 'TAIL'])).toEqual(
      apiList.templates.map((x: any) => ({
        ID: x.uuid,
        NAME: x.name,
        HEAD: x.head_content_plain,
        TAIL: x.tail_content_plain,
      })),
    );
    expect(lines(list.minimal).sort()).toEqual(apiList.templates.map((x: any) => x.uuid).sort());

    const one = await api('GET', `/templates/${tableId}`);
    expect(JSON.parse(ok(get.json))).toEqual(one);
    expect(parseKeyValues(ok(get.table))).toEqual({
      id: one.template.uuid,
      name: 'T-table 模板',
      description: 'for tests',
      head: 'Head table 🚀',
      tail: '#tail',
      updated: one.template.updated_at,
    });
    expect(ok(get.minimal)).toBe(`${tableId}\n`);
  });
});

describe('herald draft', () => {
  const thread = (f: string) => `${f} one 中文 🎉\n---\n${f} two\n---\n${f} three\n`;

  it('create (stdin, file, --split), list, get, update and delete in each format', async () => {
    const file = path.join(dir('herald-cli-file-'), 'thread.txt');
    fs.writeFileSync(file, thread('json'));
    const long = Array.from(
      { length: 12 },
      (_, i) => `Sentence number ${i} is here to make a long post for Mastodon's 500 character limit.`,
    ).join(' ');
    const made = await Promise.all([
      cli(
        ['draft', 'create', '--stdin', '--title', 'Stdin 中文 🎉 thread', '--accounts', `${fed1},${fed2}`],
        'table',
        thread('table'),
      ),
      cli(['draft', 'create', '--file', file], 'json'),
      cli(['draft', 'create', '--content', long, '--split', 'fedblog', '--title', 'Split'], 'minimal'),
    ]);
    const tableId = /^Created draft ([0-9a-f-]{36}) with 3 post\(s\)\n$/.exec(ok(made[0]))?.[1];
    expect(tableId).toBeDefined();
    const jsonDraft = JSON.parse(ok(made[1]));
    const minimalId = ok(made[2]).trim();
    const drafts = await Promise.all(
      [tableId, jsonDraft.draft.id, minimalId].map((id) => api('GET', `/microblog/drafts/${id}`)),
    );
    expect(jsonDraft).toEqual(drafts[1]);
    expect(drafts[0].draft.tweets.map((x: any) => x.plainText)).toEqual([
      'table one 中文 🎉',
      'table two',
      'table three',
    ]);
    expect(drafts[0].draft.selectedAccountIds).toEqual([fed1, fed2]);
    expect(drafts[1].draft.title).toBe('json one 中文 🎉');
    expect(drafts[1].draft.tweets.map((x: any) => x.plainText)).toEqual(['json one 中文 🎉', 'json two', 'json three']);
    const split = drafts[2].draft.tweets;
    expect(split.length).toBeGreaterThan(1);
    expect(split.every((x: any) => x.validation.fedblog.valid)).toBe(true);
    expect(split.map((x: any) => x.plainText).join(' ')).toBe(long);

    const [list, get] = await Promise.all([inEach(() => ['draft', 'list']), inEach(() => ['draft', 'get', tableId!])]);
    const apiList = await api('GET', '/microblog/drafts');
    expect(JSON.parse(ok(list.json))).toEqual(apiList);
    expect(parseTable(ok(list.table), ['ID', 'TITLE', 'STATUS', 'POSTS', 'VALID', 'CREATED'])).toEqual(
      apiList.drafts.map((d: any) => ({
        ID: d.id,
        TITLE: d.title,
        STATUS: d.status,
        POSTS: String(d.tweets.length),
        VALID: d.tweets.every((x: any) => x.isValid) ? 'yes' : 'no',
        CREATED: d.createdAt,
      })),
    );
    expect(lines(list.minimal)).toEqual(apiList.drafts.map((d: any) => d.id));

    expect(JSON.parse(ok(get.json))).toEqual(drafts[0]);
    const [head, ...posts] = ok(get.table).split('\n\n');
    expect(parseKeyValues(head)).toEqual({
      id: tableId,
      title: 'Stdin 中文 🎉 thread',
      status: 'draft',
      scheduled: '',
      set: drafts[0].draft.socialSetId,
      updated: drafts[0].draft.updatedAt,
    });
    expect(posts.map((p) => p.split('\n')[1])).toEqual(['table one 中文 🎉', 'table two', 'table three']);
    expect(posts[0]).toContain(`Mastodon ${drafts[0].draft.tweets[0].validation.fedblog.count}/500`);
    expect(ok(get.table)).not.toMatch(/fedblog|skyblog|microblog/);
    expect(posts[0]).toMatch(/^\[1\] /);
    expect(ok(get.minimal)).toBe(`${tableId}\n`);

    const ids = { table: tableId!, json: jsonDraft.draft.id as string, minimal: minimalId };
    const upd = await inEach(
      (f) =>
        f === 'json' ? ['draft', 'update', ids[f], '--stdin'] : ['draft', 'update', ids[f], '--title', `Renamed ${f}`],
      (f) => (f === 'json' ? 'Only post\n' : undefined),
    );
    expect(ok(upd.table)).toBe(`Updated draft ${ids.table} (3 post(s))\n`);
    expect(JSON.parse(ok(upd.json))).toEqual(await api('GET', `/microblog/drafts/${ids.json}`));
    expect(JSON.parse(upd.json.out).draft.tweets.map((x: any) => x.plainText)).toEqual(['Only post']);
    expect(ok(upd.minimal)).toBe(`${ids.minimal}\n`);
    expect((await api('GET', `/microblog/drafts/${ids.minimal}`)).draft.title).toBe('Renamed minimal');

    const del = await inEach((f) => ['draft', 'delete', ids[f]]);
    expect(ok(del.table)).toMatch(/\S/);
    expect(JSON.parse(ok(del.json))).toEqual({ success: true, message: expect.any(String), id: ids.json });
    expect(ok(del.minimal)).toBe(`${ids.minimal}\n`);
    for (const id of Object.values(ids))
      expect((await t.call('GET', `/microblog/drafts/${id}`, { key })).status).toBe(404);
  });
});

describe('herald publish', () => {
  it('posts to Mastodon with live per-account progress on stderr, in each format', async () => {
    const draft = async (text: string, accounts: string[]) =>
      (
        await api('POST', '/microblog/drafts', {
          title: text,
          tweets: [
            { content: `${text} part 1`, position: 0 },
            { content: `${text} part 2`, position: 1 },
          ],
          selectedAccountIds: accounts,
        })
      ).draft.id as string;
    const [a, b, c] = await Promise.all([
      draft('Table run', [fed1, fed2]),
      draft('Json run', [fed1, fed2]),
      draft('Minimal run', [fed1, sky]),
    ]);
    sim.faults.latencyMs = 150; // progress has states to show
    const [table, json, minimal] = await Promise.all([
      cli(['publish', a], 'table'),
      // An account by the handle the tables show, as well as by its id.
      cli(['publish', b, '--accounts', `@second@${new URL(sim.url).host}`], 'json'),
      cli(['publish', c], 'minimal'),
    ]);
    sim.faults.latencyMs = 0;

    // table: progress lines then the result table; every account published, with its URL.
    const full = await accountsNow();
    const [h1, h2, hs] = [fed1, fed2, sky].map((id) => handleOf(full.get(id)));
    const rows = parseTable(ok(table), ['NETWORK', 'ACCOUNT', 'STATUS', 'URL / ERROR', 'ACCOUNT ID']);
    expect(rows.map((r) => [r.NETWORK, r.ACCOUNT, r.STATUS, r['ACCOUNT ID']]).sort()).toEqual(
      [
        // A thread says its parts.
        ['Mastodon', h1, 'published (2 parts)', fed1],
        ['Mastodon', h2, 'published (2 parts)', fed2],
      ].sort(),
    );
    for (const r of rows) expect(r['URL / ERROR']).toMatch(new RegExp(`^${sim.url}/@(herald|second)/\\d+$`));
    const progress = table.err.split('\n').filter(Boolean);
    expect(progress[0]).toBe(`Publishing ${a} to 2 account(s)…`);
    // Each line says a thread's parts, as the table does.
    for (const r of rows)
      expect(progress).toContain(`✓ Mastodon  ${r.ACCOUNT}  published (2 parts)  ${r['URL / ERROR']}`);
    expect(progress.at(-1)).toBe('Done: 2 published, 0 failed of 2.');
    expect(
      sim.state.statuses
        .filter((s) => s.text.startsWith('Table run'))
        .map((s) => s.text)
        .sort(),
    ).toEqual(['Table run part 1', 'Table run part 1', 'Table run part 2', 'Table run part 2']);

    // json: only the result on stdout (no progress), equal to the API's progress for that job.
    const result = JSON.parse(ok(json));
    expect(json.err).toBe('');
    const apiProgress = await api('GET', `/microblog/publish/progress?jobId=${result.jobId}`);
    expect(result).toEqual({
      ...apiProgress,
      entries: apiProgress.entries.map((e: any) => named(e, full.get(e.accountUuid))),
      jobId: result.jobId,
      draftId: b,
    });
    expect(result.entries.map((e: any) => [e.accountUuid, e.status])).toEqual([[fed2, 'published']]);

    // minimal: the entry ids; one account failed, so exit 1, and stderr says which.
    expect(minimal.code).toBe(1);
    const entries = (await api('GET', `/microblog/publish/progress?draftId=${c}`)).entries;
    expect(minimal.out.trim().split('\n').sort()).toEqual(entries.map((e: any) => e.id).sort());
    expect(minimal.err).toContain(`✓ Mastodon  ${h1}  published`);
    expect(minimal.err).toMatch(new RegExp(`✗ Bluesky   ${hs}  failed  \\S`));
    expect(`${table.err}${minimal.err}`).not.toMatch(/(^|\s)(fedblog|skyblog|acc-\S+)(\s|$)/m);
    expect(minimal.err).toContain('Done: 1 published, 1 failed of 2.');
  });
});

describe('herald schedule', () => {
  it('create (local time, ISO with Z, ISO with offset), list and cancel in each format', async () => {
    const draft = async (title: string) =>
      (
        await api('POST', '/microblog/drafts', {
          title,
          tweets: [{ content: `${title} text`, position: 0 }],
          selectedAccountIds: [fed1, fed2],
        })
      ).draft.id as string;
    const ids = {
      table: await draft('Sched table 中文'),
      json: await draft('Sched json'),
      minimal: await draft('Sched minimal'),
    };
    const year = new Date().getUTCFullYear() + 1;
    const made = await Promise.all([
      // Local time read in --zone Tokyo (UTC+9, no DST): 09:30 there is 00:30 UTC.
      cli(
        ['schedule', 'create', ids.table, '--at', `${year}-03-01 09:30`, '--zone', 'Asia/Tokyo', '--no-jitter'],
        'table',
      ),
      cli(
        [
          'schedule',
          'create',
          ids.json,
          '--at',
          `${year}-03-02T10:00:00Z`,
          '--accounts',
          fed1,
          '--priority',
          '5',
          '--no-jitter',
        ],
        'json',
      ),
      cli(['schedule', 'create', ids.minimal, '--at', `${year}-03-03T12:00:00+02:00`], 'minimal'),
    ]);
    expect(ok(made[0])).toBe(`Scheduled for ${year}-03-01 09:30 Asia/Tokyo (UTC+09:00) on 2 account(s).\n`);
    const createdJson = JSON.parse(ok(made[1]));
    expect(createdJson).toEqual({
      success: true,
      message: expect.any(String),
      queueIds: [expect.any(String)],
      scheduledFor: `${year}-03-02T10:00:00.000Z`,
      accountCount: 1,
    });

    const apiList = (await api('GET', '/microblog/schedule')).schedules;
    const of = (draftId: string) => apiList.filter((s: any) => s.draftId === draftId);
    expect(of(ids.table).map((s: any) => s.scheduledFor)).toEqual([
      `${year}-03-01T00:30:00.000Z`,
      `${year}-03-01T00:30:00.000Z`,
    ]);
    expect(of(ids.json).map((s: any) => [s.accountUuid, s.priority, s.scheduledFor])).toEqual([
      [fed1, 5, `${year}-03-02T10:00:00.000Z`],
    ]);
    expect(ok(made[2]).trim().split('\n').sort()).toEqual(
      of(ids.minimal)
        .map((s: any) => s.id)
        .sort(),
    );
    for (const s of of(ids.minimal))
      expect(Math.abs(Date.parse(s.scheduledFor) - Date.parse(`${year}-03-03T10:00:00Z`))).toBeLessThanOrEqual(
        3 * 60_000,
      );

    const list = await inEach(() => ['schedule', 'list']);
    const full = await accountsNow();
    expect(JSON.parse(ok(list.json))).toEqual({
      success: true,
      schedules: apiList.map((s: any) => named(s, full.get(s.accountUuid))),
    });
    // Each in its set's zone.
    expect(parseTable(ok(list.table), ['WHEN', 'ZONE', 'DRAFT', 'NETWORK', 'ACCOUNT', 'ATTEMPTS', 'ID'])).toEqual(
      apiList.map((s: any) => ({
        WHEN: formatLocal(s.timeZone, Date.parse(s.scheduledFor)).local.replace('T', ' '),
        ZONE: `${s.timeZone} ${formatLocal(s.timeZone, Date.parse(s.scheduledFor)).offset}`,
        DRAFT: s.draftTitle,
        NETWORK: 'Mastodon',
        ACCOUNT: handleOf(full.get(s.accountUuid)),
        ATTEMPTS: String(s.attempts),
        ID: s.id,
      })),
    );
    expect(lines(list.minimal)).toEqual(apiList.map((s: any) => s.id));

    const cancel = await inEach((f) => ['schedule', 'cancel', ids[f]]);
    expect(ok(cancel.table)).toMatch(/\S/);
    expect(JSON.parse(ok(cancel.json))).toEqual({
      success: true,
      message: expect.any(String),
      cancelled: 1,
      draftId: ids.json,
    });
    expect(ok(cancel.minimal)).toBe(`${ids.minimal}\n`);
    expect((await api('GET', '/microblog/schedule')).schedules).toEqual([]);
  });
});

describe('herald credits, credits-usage', () => {
  it('print the balance and the ledger in each format', async () => {
    const [credits, usage] = await Promise.all([
      inEach(() => ['credits']),
      inEach(() => ['credits-usage', '--limit', '3']),
    ]);
    const bal = await api('POST', '/credits');
    expect(JSON.parse(ok(credits.json))).toEqual(bal);
    // The month's end as the user's wall clock shows it; the instant stays in -o json.
    const end = formatLocal(bal.timeZone, Date.parse(bal.expiresAt));
    expect(parseKeyValues(ok(credits.table))).toEqual({
      balance: String(bal.balance),
      reserved: `${bal.reserved} by posts scheduled this month`,
      monthly: String(bal.monthlyCredits),
      expires: `${end.local.replace('T', ' ')} ${bal.timeZone} (UTC${end.offset})`,
      'x-spend': `${bal.xSpend.monthUsd} USD spent, ${bal.xSpend.scheduledUsd} scheduled, cap none`,
    });
    expect(ok(credits.minimal)).toBe(`${bal.balance}\n`);
    // Publishing above: 2 + 1 + 2 targets charged, the failed one refunded.
    expect(bal.balance).toBe(10_000 - 50 + 10);

    const page = await api('GET', '/credits/usage?page=1&limit=3');
    expect(page.pagination.hasMore).toBe(true);
    expect(JSON.parse(ok(usage.json))).toEqual(page);
    expect(parseTable(ok(usage.table), ['DATE', 'TYPE', 'CREDITS', 'SOURCE', 'DETAIL'])).toEqual(
      page.records.map((x: any) => ({
        DATE: x.created_at,
        TYPE: x.trans_type,
        CREDITS: x.credits > 0 ? `+${x.credits}` : String(x.credits),
        SOURCE: x.source_type ?? '',
        DETAIL: clipped(x.source_detail, 40),
      })),
    );
    expect(usage.table.err).toMatch(/--page 2 for more/);
    expect(lines(usage.minimal)).toEqual(page.records.map((x: any) => x.trans_no));

    // --type, --from and --to reach the API's filters: the same records as asking it directly.
    const today = new Date().toISOString().slice(0, 10);
    const refunds = JSON.parse(
      ok(await cli(['credits-usage', '--type', 'refund', '--from', today, '--to', today], 'json')),
    );
    expect(refunds).toEqual(await api('GET', `/credits/usage?trans_type=refund&start_date=${today}&end_date=${today}`));
    expect(refunds.records.length).toBeGreaterThan(0);
    expect(refunds.records.every((x: any) => x.trans_type === 'refund')).toBe(true);
    const none = JSON.parse(ok(await cli(['credits-usage', '--from', '2000-01-01', '--to', '2000-01-31'], 'json')));
    expect(none.records).toEqual([]);
    const wrong = await cli(['credits-usage', '--type', 'gift'], 'table');
    expect(wrong.code).toBe(2);
  });
});

// After the credit figures above, which count every publish before this.
describe('herald publish --force', () => {
  it('without --force an account that has the draft is skipped; with it, the draft goes out again', async () => {
    const id = (
      await api('POST', '/microblog/drafts', {
        title: 'Force run',
        tweets: [{ content: 'Force run once', position: 0 }],
        selectedAccountIds: [fed1],
      })
    ).draft.id as string;
    const count = () => sim.state.statuses.filter((s) => s.text === 'Force run once').length;
    ok(await cli(['publish', id], 'minimal'));
    expect(count()).toBe(1);
    const again = await cli(['publish', id], 'json');
    expect(count()).toBe(1);
    expect(JSON.parse(again.out).entries.map((e: any) => e.status)).not.toContain('publishing');
    const forced = JSON.parse(ok(await cli(['publish', id, '--force'], 'json')));
    expect(forced.entries.map((e: any) => [e.accountUuid, e.status])).toEqual([[fed1, 'published']]);
    expect(count()).toBe(2);
  });
});
