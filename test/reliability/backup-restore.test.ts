/**
 * docs/decisions.md §20.1 "Backup": `herald backup` (SQLite's online backup API) and POST /backup copy a
 * database of 100,000 posts while a Herald child process keeps taking acknowledged writes; each
 * copy passes integrity_check and holds every write acknowledged before it began. `herald
 * restore` refuses while Herald has the database open, refuses files that are not a healthy
 * Herald database of a known schema (leaving everything as it was), and otherwise puts the
 * backup back, keeping the replaced database as a .bak that holds every acknowledged write.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase } from '../../server/db/connection.js';
import { restoreDatabase, RestoreError } from '../../server/db/backup.js';
import { startServer, tempDir } from '../helpers/server.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { repoRoot, scratchDir } from './util.js';
import { reportFigure } from './quality.js';
import { readBack, request, tornDrafts, WriteLoad } from './write-load.js';

const SEEDED_DRAFTS = 25_000;
const POSTS_EACH = 4;
const SETTINGS = { HERALD_DEFAULT_TIER: 'enterprise', HERALD_ENTERPRISE_LIMIT: '10000000' };
const startHerald = () => startChild({ dataDir, env: SETTINGS, readyMs: 60_000 });

let dataDir: string;
let dbFile: string;
let key: string;
let child: ChildServer | undefined;
let load: WriteLoad;
let writers: Promise<void>;
const dirs: string[] = [];
const figure = { seconds: 0, mb: 0, during: 0, apiSeconds: 0 };

function herald(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [path.join(repoRoot, 'bin', 'herald.mjs'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', XDG_CONFIG_HOME: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    proc.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const baks = () =>
  fs
    .readdirSync(dataDir)
    .filter((f) => f.endsWith('.bak'))
    .sort();
const waitForAcks = async (n: number) => {
  const target = load.acked.size + n;
  while (load.acked.size < target && load.unexpected.length === 0)
    await new Promise<void>((r) => {
      load.onAck = r;
    });
};
const seededPosts = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM tweets WHERE plain_text LIKE 'seeded %'").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  dataDir = scratchDir('herald-backup-');
  dirs.push(dataDir);
  dbFile = path.join(dataDir, 'herald.db');
  // Set-up in-process: the owner, a key, a default set and 100,000 posts written straight in.
  const t = await startServer({ dataDir, scheduler: false, settings: SETTINGS });
  key = await t.login();
  expect((await t.call('POST', '/social-sets', { key, body: { name: 'All', isDefault: true } })).status).toBe(200);
  const db = t.server.sqlite;
  const user = db.prepare('SELECT id, (SELECT id FROM social_sets LIMIT 1) AS setId FROM users LIMIT 1').get() as {
    id: string;
    setId: string;
  };
  const draft = db.prepare(
    'INSERT INTO drafts (id, user_id, title, status, social_set_id, created_at, updated_at) VALUES (?, ?, ?, ' +
      "'draft', ?, ?, ?)",
  );
  const tweet = db.prepare('INSERT INTO tweets (id, draft_id, position, content, plain_text) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    const now = new Date().toISOString();
    for (let d = 0; d < SEEDED_DRAFTS; d++) {
      const id = `seed-${d}`;
      draft.run(id, user.id, `Seeded draft ${d}`, user.setId, now, now);
      for (let p = 0; p < POSTS_EACH; p++) {
        const text =
          `seeded ${d}.${p} — a post of ordinary length, with some words in it to make the rows look like real ` +
          `ones`;
        tweet.run(`${id}-${p}`, id, p, `<p>${text}</p>`, text);
      }
    }
  })();
  await t.server.close();
  child = await startHerald();
  load = new WriteLoad(() => child!.apiUrl, key, 6);
  writers = load.run();
  await waitForAcks(200);
}, 180_000);

afterAll(async () => {
  load?.stop();
  await writers;
  load?.close();
  await child?.kill();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  reportFigure(
    'Backup',
    `herald backup of ${SEEDED_DRAFTS * POSTS_EACH} posts (${figure.mb.toFixed(1)} MB) in ` +
      `${figure.seconds.toFixed(2)} s while writes went on (${figure.during} acknowledged while the command ` +
      `ran); POST /backup ${figure.apiSeconds.toFixed(2)} s; copies pass integrity_check, acknowledged writes ` +
      `missing 0; restore refused while running, .bak kept`,
  );
});

describe('backup under write load', () => {
  it(
    'herald backup copies 100,000 posts while writes go on, and the copy holds every write acknowledged before ' + 'it',
    async () => {
      const target = path.join(dataDir, 'cli-backup.db');
      const before = performance.now();
      const acksBefore = load.acked.size;
      const r = await herald(['backup', target, '--data-dir', dataDir, '-o', 'json']);
      const after = performance.now();
      expect(r.code, r.err).toBe(0);
      const reported = JSON.parse(r.out) as { file: string; bytes: number; seconds: number; verified: boolean };
      expect(reported).toMatchObject({ file: target, verified: true });
      expect(fs.statSync(target).mode & 0o777, 'a backup is readable by its owner only').toBe(0o600);
      // One self-contained file (rollback journal), nothing left beside it.
      expect([...fs.readFileSync(target).subarray(18, 20)]).toEqual([1, 1]);
      expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('cli-backup.db'))).toEqual(['cli-backup.db']);
      await waitForAcks(20);
      // Writers were not held up: writes were acknowledged while the backup ran.
      const during = [...load.acked.values()].filter((w) => w.ackedAt > before && w.ackedAt < after).length;
      expect(during).toBeGreaterThan(0);
      const copy = readBack(target);
      expect(copy.integrity).toBe('ok');
      expect(load.missing(copy, before)).toEqual([]);
      expect(tornDrafts(copy)).toBe(0);
      expect(seededPosts(target)).toBe(SEEDED_DRAFTS * POSTS_EACH);
      expect(copy.templates.size + copy.drafts.size).toBeGreaterThanOrEqual(acksBefore);
      figure.seconds = reported.seconds;
      figure.mb = reported.bytes / 1e6;
      figure.during = during;
    },
    120_000,
  );

  it('POST /backup makes the same consistent copy from inside the running server', async () => {
    const before = performance.now();
    const r = await request(load.agent, `${child!.apiUrl}/backup`, {}, key);
    expect(r.status, r.text).toBe(200);
    const body = JSON.parse(r.text) as { file: string; seconds: number };
    expect(path.dirname(body.file)).toBe(path.join(dataDir, 'backups'));
    expect(fs.statSync(body.file).mode & 0o777, 'a backup is readable by its owner only').toBe(0o600);
    expect(fs.readdirSync(path.dirname(body.file)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    const copy = readBack(body.file);
    expect(copy.integrity).toBe('ok');
    expect(load.missing(copy, before)).toEqual([]);
    expect(seededPosts(body.file)).toBe(SEEDED_DRAFTS * POSTS_EACH);
    figure.apiSeconds = body.seconds;
  }, 120_000);
});

describe('herald restore', () => {
  it('refuses while Herald has the database open, changing nothing', async () => {
    const target = path.join(dataDir, 'cli-backup.db');
    const r = await herald(['restore', target, '--data-dir', dataDir]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/in use: quit Herald/);
    expect(baks()).toEqual([]);
    await waitForAcks(20);
    const live = readBack(dbFile);
    expect(live.integrity).toBe('ok');
    expect(load.missing(live)).toEqual([]);
  }, 60_000);

  it('refuses files that are not a healthy Herald database of a known schema', () => {
    const scratch = tempDir('herald-restore-bad-');
    dirs.push(scratch);
    const text = path.join(scratch, 'notes.db');
    fs.writeFileSync(text, 'just some text, not a database\n'.repeat(100));
    const foreign = path.join(scratch, 'foreign.db');
    const f = new Database(foreign);
    f.exec("CREATE TABLE users (id TEXT); INSERT INTO users VALUES ('someone')");
    f.close();
    const newer = path.join(scratch, 'newer.db');
    fs.copyFileSync(path.join(dataDir, 'cli-backup.db'), newer);
    const n = new Database(newer);
    n.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run(
      'f'.repeat(64),
      4_102_444_800_000,
    );
    n.close();
    const damaged = path.join(scratch, 'damaged.db');
    const whole = fs.readFileSync(path.join(dataDir, 'cli-backup.db'));
    const broken = Buffer.from(whole);
    // Overwrite pages in the middle of the file (b-tree pages of the posts) with noise.
    crypto.randomFillSync(broken, Math.floor(broken.length / 2), 64 * 1024);
    fs.writeFileSync(damaged, broken);

    const target = path.join(scratch, 'herald.db');
    const t = openDatabase(target);
    t.sqlite.exec(
      "INSERT INTO users (id, email, created_at) VALUES ('keep-me', 'keep@example.test', '2026-11-01T00:00:00Z')",
    );
    t.close();
    const before = sha(target);
    const cases: [string, RestoreError['reason']][] = [
      [path.join(scratch, 'missing.db'), 'not_found'],
      [text, 'not_sqlite'],
      [foreign, 'not_herald'],
      [newer, 'too_new'],
      [damaged, 'damaged'],
      [target, 'same_file'],
    ];
    for (const [file, reason] of cases) {
      let thrown: unknown;
      try {
        restoreDatabase(file, target);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, file).toBeInstanceOf(RestoreError);
      expect((thrown as RestoreError).reason, file).toBe(reason);
      expect(sha(target), `${file} changed the database`).toBe(before);
      expect(
        fs.readdirSync(scratch).filter((x) => x.endsWith('.bak') || x.includes('.restore-')),
        file,
      ).toEqual([]);
    }
  });

  it('puts the backup back once Herald is stopped, keeping the replaced database as .bak', async () => {
    const target = path.join(dataDir, 'cli-backup.db');
    const backupMtime = fs.statSync(target).mtimeMs;
    load.stop();
    await writers;
    await child!.kill('SIGTERM');
    child = undefined;
    const before = sha(target);
    const r = await herald(['restore', target, '--data-dir', dataDir, '-o', 'json']);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out) as { previous: string; database: string; migrated: number };
    expect(result.database).toBe(dbFile);
    expect(result.migrated).toBe(0);
    expect(baks()).toEqual([path.basename(result.previous)]);
    expect(fs.statSync(result.previous).mode & 0o777).toBe(0o600);
    // The backup file itself was only read, and nothing was left beside it.
    expect(sha(target)).toBe(before);
    expect(fs.statSync(target).mtimeMs).toBe(backupMtime);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('cli-backup.db'))).toEqual(['cli-backup.db']);

    // The .bak is the database as it was: every acknowledged write, up to the last.
    const bak = readBack(result.previous);
    expect(bak.integrity).toBe('ok');
    expect(load.missing(bak)).toEqual([]);
    // The live database is now the backup: healthy, and without the writes made after it.
    const live = readBack(dbFile);
    const backup = readBack(target);
    expect(live.integrity).toBe('ok');
    expect([...live.templates.keys()].sort()).toEqual([...backup.templates.keys()].sort());
    expect([...live.drafts.keys()].sort()).toEqual([...backup.drafts.keys()].sort());
    const later = [...load.acked.keys()].filter((m) => !backup.templates.has(m) && !backup.drafts.has(m));
    expect(later.length).toBeGreaterThan(0);
    for (const m of later) expect(live.templates.has(m) || live.drafts.has(m)).toBe(false);
    expect(seededPosts(dbFile)).toBe(SEEDED_DRAFTS * POSTS_EACH);
    expect(fs.readdirSync(dataDir).filter((x) => x.includes('.restore-'))).toEqual([]);

    // Herald starts on it and serves it.
    child = await startHerald();
    const sample = [...load.acked.entries()].find(([m, w]) => w.kind === 'draft' && backup.drafts.has(m))!;
    const got = await request(load.agent, `${child.apiUrl}/microblog/drafts/${sample[1].id}`, undefined, key);
    expect(got.status).toBe(200);
    expect((JSON.parse(got.text) as { draft: { title: string } }).draft.title).toBe(sample[0]);
    const gone = [...load.acked.entries()].find(([m, w]) => w.kind === 'draft' && !backup.drafts.has(m));
    if (gone)
      expect((await request(load.agent, `${child.apiUrl}/microblog/drafts/${gone[1].id}`, undefined, key)).status).toBe(
        404,
      );
  }, 120_000);

  it('restores a backup of the first released schema, migrating it forward', async () => {
    const scratch = tempDir('herald-restore-old-');
    dirs.push(scratch);
    // A database as release 0000 wrote it, with its user's data (see migrations.test.ts).
    const folder = migrationsFolder();
    const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const old = path.join(scratch, 'release');
    fs.mkdirSync(path.join(old, 'meta'), { recursive: true });
    fs.writeFileSync(
      path.join(old, 'meta', '_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }),
    );
    fs.copyFileSync(path.join(folder, '0000_init.sql'), path.join(old, '0000_init.sql'));
    const backupFile = path.join(scratch, 'release-0000-backup.db');
    const b = openDatabase(backupFile, old);
    b.sqlite.exec(
      fs.readFileSync(path.join(repoRoot, 'test', 'reliability', 'fixtures', 'release-0000.data.sql'), 'utf8'),
    );
    b.close();

    const restoreDir = path.join(scratch, 'data');
    const result = restoreDatabase(backupFile, path.join(restoreDir, 'herald.db'));
    expect(result.previous).toBeNull();
    expect(result.migrated).toBe(journal.entries.length - 1);
    const t = await startServer({ dataDir: restoreDir, owner: false, scheduler: false });
    try {
      const login = await t.call('POST', '/auth/login', {
        body: { email: 'release0@example.test', password: 'release zero passphrase' },
      });
      expect(login.status).toBe(200);
      const drafts = await t.call('GET', '/microblog/drafts', { key: 'hk_' + 'R0'.repeat(20) });
      expect(drafts.body.drafts).toHaveLength(3);
    } finally {
      await t.server.close();
    }
  });
});
