/**
 * `herald draft …` as a user runs it: the real CLI in a child process against a real server.
 * Covers --content, --file, --stdin, `---` threads and --split.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countText } from '../../client/text/index.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
let home: string;

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

function herald(args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve('bin/herald.mjs'), ...args], {
      env: { ...process.env, HERALD_API_KEY: key, HERALD_BASE_URL: t.base, XDG_CONFIG_HOME: home, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end(stdin ?? '');
  });
}

describe('herald draft', () => {
  it('creates from --content with --- separating posts, then gets, lists, updates and deletes', async () => {
    const c = await herald(['draft', 'create', '--content', 'First post\n---\nSecond post', '-o', 'json']);
    expect(c.code, c.err).toBe(0);
    const d = JSON.parse(c.out).draft;
    expect(d.title).toBe('First post');
    expect(d.tweets.map((x: any) => x.plainText)).toEqual(['First post', 'Second post']);

    const g = await herald(['draft', 'get', d.id]);
    expect(g.code).toBe(0);
    expect(g.out).toContain('skyblog 10/300');
    const l = await herald(['draft', 'list', '-o', 'minimal']);
    expect(l.out.trim().split('\n')).toContain(d.id);

    const u = await herald(['draft', 'update', d.id, '--title', 'Renamed', '--stdin', '-q'], 'Only post now\n');
    expect(u.code, u.err).toBe(0);
    const after = await t.call('GET', `/microblog/drafts/${d.id}`, { key });
    expect(after.body.draft.title).toBe('Renamed');
    expect(after.body.draft.tweets.map((x: any) => x.plainText)).toEqual(['Only post now']);

    const del = await herald(['draft', 'delete', d.id]);
    expect(del.code).toBe(0);
    expect((await t.call('GET', `/microblog/drafts/${d.id}`, { key })).status).toBe(404);
    expect((await herald(['draft', 'get', d.id])).code).toBe(4);
  });

  it('--file with --split makes a thread that fits the network', async () => {
    const text = Array.from({ length: 25 }, (_, i) => `Sentence ${i} with a link https://example.com/${i} and some words.`).join(' ');
    const file = path.join(home, 'thread.txt');
    fs.writeFileSync(file, text);
    const c = await herald(['draft', 'create', '--file', file, '--split', 'skyblog', '--title', 'Long', '-o', 'json']);
    expect(c.code, c.err).toBe(0);
    const posts = JSON.parse(c.out).draft.tweets;
    expect(posts.length).toBeGreaterThan(1);
    for (const p of posts) {
      expect(p.isValid).toBe(true);
      expect(countText('skyblog', p.plainText).valid).toBe(true);
    }
    expect(posts.map((p: any) => p.plainText).join(' ')).toBe(text);
  });

  it('refuses two content sources and empty content', async () => {
    expect((await herald(['draft', 'create', '--content', 'a', '--stdin'], 'b')).code).toBe(1);
    expect((await herald(['draft', 'create', '--content', '  '])).code).toBe(1);
  });
});
