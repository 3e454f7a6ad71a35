/**
 * The `herald` commands that set up and manage (init, login, whoami, logout, social-set list,
 * account list, template, draft) in every output format (table, json, minimal), run as the real
 * binary against a real server (SQLite file, loopback HTTP) with Mastodon accounts connected
 * through the Mastodon simulator. JSON must equal what the API answers for the same resource;
 * tables must be aligned (CJK and emoji titles included); minimal prints ids only.
 * publish, schedule and credits: cli-commands-publish.test.ts; backup and --help:
 * cli-local-commands.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loginResponse } from '../../server/contracts/auth.js';
import { meResponse } from '../../server/contracts/users.js';
import { built } from '../../server/contracts/lazy.js';
import { cliEnv, herald, ok, parseKeyValues, parseTable } from '../helpers/cli.js';
import {
  accountsNow,
  api,
  cli,
  connectAccounts,
  dir,
  fed1,
  fed2,
  FORMATS,
  handleOf,
  inEach,
  key,
  lines,
  NAME,
  named,
  run,
  sim,
  sky,
  t,
  useCliCommandsWorld,
  useKey,
} from '../helpers/cli-commands-world.js';
import { OWNER, startServer } from '../helpers/server.js';

// Each test runs several CLI children (about half a second each, more on a loaded machine).
vi.setConfig({ testTimeout: 180_000 });

useCliCommandsWorld();

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
      useKey(answer.apiKey.key);
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
    // And an account with no tokens in the secret store: publishing to it fails, in its own set.
    const [first, second] = await connectAccounts();
    expect([first.status, second.status]).toEqual([200, 200]);
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
    const jsonPosts = ['json one 中文 🎉', 'json two', 'json three'];
    expect(drafts[1].draft.tweets.map((x: any) => x.plainText)).toEqual(jsonPosts);
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
