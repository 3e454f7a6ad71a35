/**
 * docs/decisions.md §20.1 "Migrations": the committed drizzle-kit migrations bring an empty database and a
 * database of every released schema (with its users' data) to the current schema with every row
 * kept; a database written by a newer Herald is refused and left byte for byte as it was.
 *
 * A released schema is rebuilt from its own migrations (the journal cut at its tag) with the
 * same code path the release ran, then filled from fixtures/release-<n>.data.sql. Released
 * migrations are never edited (architecture.md habit 10): their hashes are pinned here.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, SchemaTooNewError } from '../../server/db/connection.js';
import * as schema from '../../server/db/schema.js';
import { startServer, TestClock, tempDir } from '../helpers/server.js';
import { reportFigure } from './quality.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every released schema: its last migration's tag, that file's sha256, and a user's data. */
const RELEASED = [
  {
    tag: '0000_init',
    sha256: '50bfe56ff183def96a95462965e76f432608bde5d207c5666a8813a28e6eb4df',
    data: 'release-0000.data.sql',
  },
];

interface Journal {
  version: string;
  dialect: string;
  entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[];
}
const folder = migrationsFolder();
const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
const latestWhen = Math.max(...journal.entries.map((e) => e.when));

const dirs: string[] = [];
const scratch = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

let tested = 0;
const paths: string[] = [];

/** The migrations folder as a release shipped it: the journal up to and including `tag`. */
function releaseFolder(tag: string): string {
  const out = scratch('herald-release-migrations-');
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at < 0) throw new Error(`released migration ${tag} is not in the journal`);
  const entries = journal.entries.slice(0, at + 1);
  fs.mkdirSync(path.join(out, 'meta'));
  fs.writeFileSync(path.join(out, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) fs.copyFileSync(path.join(folder, `${e.tag}.sql`), path.join(out, `${e.tag}.sql`));
  return out;
}

const userTables = (db: Database.Database) =>
  (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> " +
          "'__drizzle_migrations' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
const snapshot = (db: Database.Database) =>
  Object.fromEntries(
    userTables(db).map((t) => [
      t,
      db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all() as Record<string, unknown>[],
    ]),
  );
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('migrations', () => {
  it('never edits a released migration', () => {
    for (const r of RELEASED)
      expect(sha(path.join(folder, `${r.tag}.sql`)), `${r.tag}.sql was edited after its release`).toBe(r.sha256);
  });

  it('builds the current schema from an empty database, matching server/db/schema.ts', () => {
    const file = path.join(scratch('herald-mig-empty-'), 'herald.db');
    const opened = openDatabase(file);
    try {
      const db = opened.sqlite;
      const applied = db.prepare('SELECT created_at AS at FROM __drizzle_migrations ORDER BY created_at').all() as {
        at: number;
      }[];
      expect(applied.map((r) => Number(r.at))).toEqual(journal.entries.map((e) => e.when));
      const tables = (Object.values(schema) as unknown[]).filter(
        (v): v is SQLiteTable => typeof v === 'object' && v !== null && Symbol.for('drizzle:IsDrizzleTable') in v,
      );
      expect(tables.length).toBeGreaterThan(10);
      for (const table of tables) {
        const cfg = getTableConfig(table);
        const cols = (db.prepare(`PRAGMA table_info("${cfg.name}")`).all() as { name: string }[])
          .map((c) => c.name)
          .sort();
        expect(cols, `table ${cfg.name}: run npm run db:generate`).toEqual(cfg.columns.map((c) => c.name).sort());
        const indexes = (db.prepare(`PRAGMA index_list("${cfg.name}")`).all() as { name: string }[]).map((i) => i.name);
        for (const ix of cfg.indexes) expect(indexes, `index ${ix.config.name}`).toContain(ix.config.name);
      }
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      opened.close();
    }
    // Opening again changes nothing: no migration runs twice.
    const again = openDatabase(file);
    expect((again.sqlite.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get() as { n: number }).n).toBe(
      journal.entries.length,
    );
    again.close();
    tested += 1;
    paths.push('empty → current');
  });

  for (const release of RELEASED) {
    it(`migrates a ${release.tag} database with data to the current schema, keeping every row`, async () => {
      const dataDir = scratch('herald-mig-release-');
      const file = path.join(dataDir, 'herald.db');
      const old = openDatabase(file, releaseFolder(release.tag));
      old.sqlite.exec(fs.readFileSync(path.join(here, 'fixtures', release.data), 'utf8'));
      const before = snapshot(old.sqlite);
      const rows = Object.values(before).reduce((n, r) => n + r.length, 0);
      expect(rows).toBeGreaterThan(30);
      old.close();

      const current = openDatabase(file);
      try {
        const db = current.sqlite;
        expect((db.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get() as { n: number }).n).toBe(
          journal.entries.length,
        );
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
        const after = snapshot(db);
        for (const [table, oldRows] of Object.entries(before)) {
          const newRows = after[table];
          expect(newRows, `table ${table} is gone`).toBeDefined();
          expect(newRows).toHaveLength(oldRows.length);
          // Columns a later migration added may hold defaults; every old column keeps its value.
          oldRows.forEach((row, i) => {
            for (const [col, value] of Object.entries(row)) expect(newRows[i][col], `${table}.${col}`).toEqual(value);
          });
        }
      } finally {
        current.close();
      }

      // The migrated data works through the API: sign-in, the old key, drafts, schedule, credits.
      const clock = new TestClock(Date.parse('2026-11-20T12:00:00Z'));
      const t = await startServer({ dataDir, owner: false, clock, scheduler: false });
      try {
        const login = await t.call('POST', '/auth/login', {
          body: { email: 'release0@example.test', password: 'release zero passphrase' },
        });
        expect(login.status).toBe(200);
        const key = 'hk_' + 'R0'.repeat(20);
        const drafts = await t.call('GET', '/microblog/drafts', { key });
        expect(drafts.status).toBe(200);
        expect(drafts.body.drafts.map((d: any) => d.id).sort()).toEqual([
          'd-release-plain',
          'd-release-sched',
          'd-release-thread',
        ]);
        const thread = await t.call('GET', '/microblog/drafts/d-release-thread', { key: login.body.apiKey.key });
        expect(thread.body.draft.title).toBe('A thread with ümlauts & <b>');
        expect(thread.body.draft.tweets.map((x: any) => x.plainText)).toEqual([
          'Part one 🧵 ümlaut',
          'Part two\nwith a break',
        ]);
        expect(thread.body.draft.tweets[0].media[0]).toMatchObject({
          mediaId: 'med-release-0',
          altText: 'a red square',
        });
        expect(thread.body.draft.selectedAccountIds).toEqual(['acc-release-x', 'acc-release-m']);
        const schedules = await t.call('GET', '/microblog/schedule', { key });
        expect(schedules.body.schedules.map((s: any) => [s.draftId, s.scheduledFor, s.priority])).toEqual([
          ['d-release-sched', '2027-01-10T08:00:00.000Z', 3],
        ]);
        const progress = await t.call('GET', '/microblog/publish/progress?draftId=d-release-thread', { key });
        expect(progress.body.entries.map((e: any) => [e.platform, e.status]).sort()).toEqual([
          ['fedblog', 'failed'],
          ['microblog', 'published'],
        ]);
        const credits = await t.call('POST', '/credits', { key });
        expect(credits.body.balance).toBe(999);
        const sets = await t.call('GET', '/social-sets', { key });
        expect(sets.body.socialSets.map((s: any) => [s.name, s.accounts.length]).sort()).toEqual([
          ['Everything', 2],
          ['Work', 1],
        ]);
      } finally {
        await t.server.close();
      }
      tested += 1;
      paths.push(`${release.tag}+data → current`);
    });
  }

  /** A database one migration ahead of this build, as a newer Herald would leave it. */
  function newerDatabase(journalMode: 'wal' | 'delete'): string {
    const file = path.join(scratch('herald-mig-newer-'), 'herald.db');
    const opened = openDatabase(file);
    opened.sqlite.exec(
      "CREATE TABLE future_things (id TEXT PRIMARY KEY); INSERT INTO future_things VALUES ('from the future')",
    );
    opened.sqlite
      .prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
      .run('f'.repeat(64), latestWhen + 86_400_000);
    opened.close();
    if (journalMode === 'delete') {
      const raw = new Database(file);
      raw.pragma('journal_mode = DELETE');
      raw.close();
    }
    return file;
  }

  for (const mode of ['wal', 'delete'] as const) {
    it(`refuses a database written by a newer Herald (${mode} journal) and leaves it untouched`, async () => {
      const file = newerDatabase(mode);
      const before = sha(file);
      const siblings = () => fs.readdirSync(path.dirname(file)).sort();
      const filesBefore = siblings();
      expect(() => openDatabase(file)).toThrow(SchemaTooNewError);
      expect(sha(file)).toBe(before);
      expect(siblings()).toEqual(filesBefore);
      await expect(startServer({ dataDir: path.dirname(file), scheduler: false })).rejects.toThrow(SchemaTooNewError);
      expect(sha(file)).toBe(before);
      const raw = new Database(file, { readonly: true });
      expect(raw.prepare('SELECT id FROM future_things').all()).toEqual([{ id: 'from the future' }]);
      raw.close();
      tested += 1;
      paths.push(`newer (${mode}) refused`);
    });
  }

  afterAll(() => {
    reportFigure('Migrations', `${tested} migrations tested (${paths.join('; ')})`);
  });
});
