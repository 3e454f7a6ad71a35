/**
 * The `herald` commands that do not go through the API, run as the real binary against a real
 * server (split from cli-commands.test.ts): backup, which loads the compiled server's database
 * commands and copies the running server's database, and --help.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram, allCommands } from '../../cli/herald.js';
import { cliEnv, herald, limit, ok } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';

// Each test runs several CLI children (about half a second each, more on a loaded machine).
vi.setConfig({ testTimeout: 180_000 });

type Format = 'table' | 'json' | 'minimal';

let t: TestServer;
let key: string;
let home: string;
const dirs: string[] = [];
const dir = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
const run = limit(3);

/** `herald <args> -o <format>` with the key and URL in the environment. */
const cli = (args: string[], format?: Format) =>
  run(() =>
    herald(format ? [...args, '-o', format] : args, {
      env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }),
    }),
  );

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  home = dir('herald-cli-home-');
  // A database with something in it: the copies must hold the same drafts.
  addAccount(t, userIdOf(t, OWNER.email), 'fedblog');
  for (const title of ['One', 'Two']) {
    const r = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title, tweets: [{ content: `${title} draft` }] },
    });
    expect(r.status, r.text).toBe(200);
  }
});

afterAll(async () => {
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('herald backup', () => {
  it("copies the running server's database to a checked file, in each format", async () => {
    const folder = dir('herald-cli-backup-');
    const files = { table: path.join(folder, 'table.db'), json: path.join(folder, 'json.db') };
    const [table, json, minimal] = await Promise.all([
      cli(['backup', files.table, '--data-dir', t.dataDir], 'table'),
      cli(['backup', files.json, '--data-dir', t.dataDir], 'json'),
      // No file: a dated name in the current folder.
      run(() => herald(['backup', '--data-dir', t.dataDir, '-o', 'minimal'], { env: cliEnv(home), cwd: folder })),
    ]);
    expect(ok(table)).toMatch(
      new RegExp(
        `^Backed up to ${files.table.replace(/[.]/g, '\\.')} \\(\\d+ bytes in [\\d.]+ s, integrity checked\\)\\n$`,
      ),
    );
    const answer = JSON.parse(ok(json));
    expect(answer).toEqual({
      success: true,
      file: files.json,
      bytes: fs.statSync(files.json).size,
      seconds: expect.any(Number),
      verified: true,
    });
    const dated = ok(minimal).trim();
    expect(path.dirname(dated)).toBe(folder);
    expect(path.basename(dated)).toMatch(/^herald-backup-\d{4}-\d{2}-\d{2}T[\d-]+Z\.db$/);
    const drafts = (t.server.sqlite.prepare('SELECT count(*) AS n FROM drafts').get() as { n: number }).n;
    for (const f of [files.table, files.json, dated]) {
      const db = new Database(f, { readonly: true, fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect((db.prepare('SELECT count(*) AS n FROM drafts').get() as { n: number }).n).toBe(drafts);
      } finally {
        db.close();
      }
    }
  });
});

describe('herald --help', () => {
  it('every command has a description and examples', async () => {
    const program = buildProgram();
    const commands = allCommands(program).filter((c) => c.name() !== 'help');
    expect(commands.length).toBeGreaterThanOrEqual(25);
    for (const c of [program, ...commands]) {
      let text = '';
      c.configureOutput({
        writeOut: (s) => {
          text += s;
        },
        writeErr: (s) => {
          text += s;
        },
      });
      c.outputHelp();
      expect(c.description(), c.name()).not.toBe('');
      expect(text, `herald ${c.name()} --help`).toMatch(/\nExamples?:\n {2}\$ herald /);
    }
    const [top, sub] = await Promise.all([cli(['--help']), cli(['draft', 'create', '--help'])]);
    expect(ok(top)).toContain(
      'Exit codes: 0 ok, 1 error, 2 usage, 3 auth, 4 not found, 5 Herald not reachable, 6 not enough ' +
        'credits, 7 rate limited.',
    );
    expect(ok(sub)).toContain('$ cat notes.md | herald draft create --stdin --title Notes');
    expect(ok(sub)).toMatch(/--split <network>/);
  });
});
