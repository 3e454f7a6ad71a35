/**
 * `herald draft export|import|import-csv|watch` as a user runs them: the real binary against a
 * real server. Export --all to a folder and import the files back; a Markdown file naming an
 * image by path (the CLI uploads it; the server never reads it); a CSV with a bad row (row and
 * column named, nothing imported, exit 1) then --partial; the watched folder imports each new
 * file once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, herald, ok } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { pngBytes } from '../helpers/png.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 180_000 });

let t: TestServer;
let key: string;
let home: string;
const cli = (args: string[]) => herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) });
const drafts = async () => (await t.call('GET', '/microblog/drafts', { key })).body.drafts as any[];

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'skyblog');
  home = tempDir('herald-cli-files-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('herald draft files', () => {
  it('export --all --out, then import the files back: the same posts', async () => {
    const a = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'A', tweets: [{ content: 'One 🎉' }, { content: 'Two' }] },
    });
    await t.call('PUT', `/microblog/drafts/${a.body.draft.id}/platforms`, {
      key,
      body: { platforms: [{ platform: 'skyblog', content: 'Sky\n---\nthread' }] },
    });
    const out = path.join(home, 'out');
    const r = await cli(['draft', 'export', '--all', '--out', out, '-o', 'json']);
    const files = JSON.parse(ok(r)).files as string[];
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(files[0], 'utf8')).toMatch(
      new RegExp(
        [
          '^---',
          'title: A',
          'platforms:',
          ' {2}skyblog: \\|-',
          ' {4}Sky',
          ' {4}---',
          ' {4}thread',
          'socialSetId: [0-9a-f-]+',
          '---',
          '',
        ]
          .concat(['One 🎉', '', '---', '', 'Two', '$'])
          .join('\\n'),
      ),
    );
    const back = await cli(['draft', 'import', files[0], '-o', 'json']);
    const copy = JSON.parse(ok(back)).drafts[0];
    expect(copy.tweets.map((x: any) => x.plainText)).toEqual(['One 🎉', 'Two']);
    const plats = (await t.call('GET', `/microblog/drafts/${copy.id}/platforms`, { key })).body.platforms;
    expect(plats.map((p: any) => [p.platform, p.content])).toEqual([['skyblog', 'Sky\n---\nthread']]);
    expect(ok(await cli(['draft', 'export', a.body.draft.id, '--format', 'json']))).toContain(
      '"format": "herald-draft/1"',
    );
  });

  it('a Markdown file naming an image by path: uploaded by the CLI, attached by id', async () => {
    const dir = path.join(home, 'withmedia');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'dot.png'), pngBytes(8, 8, [10, 200, 10]));
    fs.writeFileSync(
      path.join(dir, 'post.md'),
      '---\nnetworks: [skyblog]\nmedia:\n  - post: 1\n    path: dot.png\n    alt: A green dot\n---\nLook at this\n',
    );
    const r = await cli(['draft', 'import', path.join(dir, 'post.md'), '-o', 'json']);
    expect(r.err).toBe('Uploading dot.png…\n');
    const d = JSON.parse(ok(r)).drafts[0];
    expect(d.tweets[0].media).toEqual([expect.objectContaining({ type: 'image' })]);
    const media = (await t.call('GET', `/microblog/drafts/${d.id}`, { key })).body.draft.tweets[0].media[0];
    expect(media.altText).toBe('A green dot');
    // Broken front matter: one line naming the line, exit 2, nothing created.
    fs.writeFileSync(path.join(dir, 'broken.md'), '---\nnetworks: [skyblog\n---\nx\n');
    const before = (await drafts()).length;
    const bad = await cli(['draft', 'import', path.join(dir, 'broken.md')]);
    expect(bad.code).toBe(2); // INVALID_INPUT is the usage exit code
    expect(bad.err).toMatch(/INVALID_INPUT: Broken front matter at line \d/);
    expect((await drafts()).length).toBe(before);
  });

  it('import-csv: a bad time names row and column and imports nothing; --partial imports the rest', async () => {
    const file = path.join(home, 'posts.csv');
    fs.writeFileSync(
      file,
      'text,networks,scheduledFor,timeZone,media\nFine,skyblog,2026-12-01T09:00,Europe/Paris,\n' +
        'Broken,skyblog,tomorrow,,\n',
    );
    const before = (await drafts()).length;
    const strict = await cli(['draft', 'import-csv', file]);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain('row 3, scheduledFor: "tomorrow" must be an ISO 8601 date-time');
    expect(strict.out).toContain('--partial');
    expect((await drafts()).length).toBe(before);
    const dry = await cli(['draft', 'import-csv', file, '--dry-run', '--partial']);
    expect(dry.out).toContain('Dry run: 1 row(s) would be imported');
    expect((await drafts()).length).toBe(before);
    const partial = await cli(['draft', 'import-csv', file, '--partial', '-o', 'json']);
    expect(JSON.parse(partial.out)).toMatchObject({ imported: 1, errors: [{ row: 3, column: 'scheduledFor' }] });
    expect((await drafts()).length).toBe(before + 1);
  });

  it('watch --once imports each new .md file once, remembering it', async () => {
    const dir = path.join(home, 'watched');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a.md'), 'First watched\n');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a draft\n');
    const before = (await drafts()).length;
    expect(ok(await cli(['draft', 'watch', dir, '--once']))).toMatch(/^a\.md → draft /);
    fs.writeFileSync(path.join(dir, 'b.md'), 'Second watched\n');
    expect(ok(await cli(['draft', 'watch', dir, '--once']))).toMatch(/^b\.md → draft [^\n]+\n$/);
    expect((await drafts()).length).toBe(before + 2);
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, '.herald-imported.json'), 'utf8')))).toEqual([
      'a.md',
      'b.md',
    ]);
  });
});
