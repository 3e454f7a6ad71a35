/**
 * Where `herald draft` takes its text from, as a user runs it: the real CLI in a child process
 * against a real server. A 3-post thread from a pipe on stdin, from a file, from `--file -`, and
 * a long text cut with --split; `---` lines (CRLF, trailing blanks, two in a row); mistakes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countText } from '../../client/text/index.js';
import { cliEnv, herald, limit, ok } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';

// Each test runs several CLI children (about half a second each, more on a loaded machine).
vi.setConfig({ testTimeout: 180_000 });

let t: TestServer;
let key: string;
let home: string;
const run = limit(3);
const cli = (args: string[], stdin?: string) => run(() => herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }), stdin }));
const posts = async (id: string) => (await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.tweets.map((x: any) => x.plainText);

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'skyblog');
  home = tempDir('herald-cli-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('herald draft create: where the text comes from', () => {
  it('a 3-post thread from stdin, a file and `--file -`; --split cuts a long text to fit', async () => {
    const thread = 'First post 🎉\r\n---\r\nSecond post\n  ---  \nThird post\nwith two lines\n---\n---\n';
    const file = path.join(home, 'thread.txt');
    fs.writeFileSync(file, thread);
    const long = Array.from({ length: 25 }, (_, i) => `Sentence ${i} with a link https://example.com/${i} and some words.`).join(' ');
    const [fromStdin, fromFile, fromDash, split] = await Promise.all([
      cli(['draft', 'create', '--stdin', '-o', 'minimal'], thread),
      cli(['draft', 'create', '--file', file, '-o', 'json']),
      cli(['draft', 'create', '--file', '-', '-q'], thread),
      cli(['draft', 'create', '--content', long, '--split', 'skyblog', '--title', 'Long', '-o', 'json']),
    ]);
    const expected = ['First post 🎉', 'Second post', 'Third post\nwith two lines'];
    expect(await posts(ok(fromStdin).trim())).toEqual(expected);
    const json = JSON.parse(ok(fromFile)).draft;
    expect(json.title).toBe('First post 🎉');
    expect(json.tweets.map((x: any) => [x.position, x.plainText])).toEqual(expected.map((p, i) => [i, p]));
    expect(await posts(ok(fromDash).trim())).toEqual(expected);

    const cut = JSON.parse(ok(split)).draft.tweets;
    expect(cut.length).toBeGreaterThan(1);
    for (const p of cut) {
      expect(p.isValid).toBe(true);
      expect(countText('skyblog', p.plainText).valid).toBe(true);
    }
    expect(cut.map((p: any) => p.plainText).join(' ')).toBe(long);
  });

  it('update replaces every post from stdin, keeps them without text options, and --split works there too', async () => {
    const id = ok(await cli(['draft', 'create', '--content', 'One\n---\nTwo', '-o', 'minimal'])).trim();
    ok(await cli(['draft', 'update', id, '--title', 'Renamed']));
    expect(await posts(id)).toEqual(['One', 'Two']);
    ok(await cli(['draft', 'update', id, '--stdin', '--split', 'microblog'], `${'word '.repeat(100)}\n---\nlast`));
    const after = await posts(id);
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after.at(-1)).toBe('last');
    for (const p of after) expect(countText('microblog', p).valid).toBe(true);
  });

  it('text holding escape sequences is shown without them (the pipe check in herald() fails on any ESC)', async () => {
    const id = ok(await cli(['draft', 'create', '--stdin', '-o', 'minimal'], 'plain \u001b[2J\u001b[31mred\u0007 text')).trim();
    const [table, list, json] = await Promise.all([cli(['draft', 'get', id]), cli(['draft', 'list']), cli(['draft', 'get', id, '-o', 'json'])]);
    expect(ok(table)).toContain('plain [2J[31mred text');
    expect(ok(list)).toContain(id);
    const stored = (await posts(id))[0];
    expect(stored).toContain('\u001b[31m'); // the API keeps what was written; the CLI is what strips it
    expect(JSON.parse(ok(json)).draft.tweets[0].plainText).toBe(stored);
  });

  it('refuses two sources, empty text, a missing file and --split without text: usage errors, exit 2, nothing created', async () => {
    const before = (await t.call('GET', '/microblog/drafts', { key })).body.drafts.length;
    const results = await Promise.all([
      cli(['draft', 'create', '--content', 'a', '--stdin'], 'b'),
      cli(['draft', 'create', '--stdin'], ' \n---\n \n'),
      cli(['draft', 'create', '--file', path.join(home, 'missing.txt')]),
      cli(['draft', 'create', '--split', 'skyblog']),
      cli(['draft', 'create']),
    ]);
    expect(results.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
    expect(results.map((r) => r.err)).toEqual([
      'error Give the content one way: --content, --file or --stdin\n',
      'error The content is empty\n',
      `error Cannot read ${path.join(home, 'missing.txt')}: no such file\n`,
      'error --split needs the text: --content, --file or --stdin\n',
      'error Give the text with --content, --file or --stdin\n',
    ]);
    for (const r of results) expect(r.out).toBe('');
    expect((await t.call('GET', '/microblog/drafts', { key })).body.drafts.length).toBe(before);
  });
});
