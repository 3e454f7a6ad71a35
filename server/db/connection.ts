/**
 * Opens the SQLite file with every pragma in one place and brings the schema up to date with the
 * committed drizzle-kit migrations. A database written by a newer Herald is refused untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';

/**
 * No relational queries (`db.query.*`) are used: without the schema, drizzle skips mapping every table's relations at
 * start.
 */
export type Db = BetterSQLite3Database;
export type Sqlite = Database.Database;

export interface Database_ {
  sqlite: Sqlite;
  db: Db;
  close(): void;
}

export class SchemaTooNewError extends Error {
  constructor(file: string) {
    super(
      `The database ${file} was written by a newer version of Herald; this version will not open it. Update ` +
        `Herald, or point HERALD_DATA_DIR at another folder.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Where the committed migrations are, from the source tree or from a bundle beside it. */
export function migrationsFolder(): string {
  const candidates = [
    process.env.HERALD_MIGRATIONS_DIR,
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations'),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations'),
    path.resolve(process.cwd(), 'migrations'),
  ].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => fs.existsSync(path.join(p, 'meta', '_journal.json')));
  if (!found) throw new Error('Herald cannot find its database migrations folder');
  return found;
}

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

function readJournal(folder: string): Journal {
  return JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

export function applyPragmas(sqlite: Sqlite): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
}

/**
 * Makes `file` (created if missing) and the SQLite files beside it owner-only. SQLite gives the
 * -wal and -shm files it creates the database file's own mode, so a 0600 database keeps them
 * 0600 too; files left by an earlier, laxer Herald are tightened here. chmod is a no-op on
 * Windows, where the profile folder's ACL already keeps other users out.
 */
export function secureDatabaseFiles(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    try {
      fs.chmodSync(file + suffix, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Applies the committed drizzle-kit migrations newer than the newest one applied, in one
 * transaction, and records each in drizzle's own table (`__drizzle_migrations`: the file's SHA-256
 * and its journal time), as drizzle's migrator does: either one can open what the other wrote.
 * drizzle reads the files (readMigrationFiles); the statements run here through SQLite's exec,
 * not as one drizzle query object each, which on a first start cost more than the SQL itself.
 */
export function applyMigrations(sqlite: Sqlite, folder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  sqlite.exec(
    'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
  );
  const last = sqlite
    .prepare('SELECT created_at AS at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
    .get() as { at: number | string } | undefined;
  const record = sqlite.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)');
  sqlite.transaction(() => {
    for (const m of migrations) {
      if (last !== undefined && Number(last.at) >= m.folderMillis) continue;
      for (const statement of m.sql) if (statement.trim()) sqlite.exec(statement);
      record.run(m.hash, m.folderMillis);
    }
  })();
}

export function openDatabase(file: string, folder = migrationsFolder()): Database_ {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  secureDatabaseFiles(file);
  const sqlite = new Database(file);
  try {
    // The version check comes before the pragmas that write: switching a rollback-journal file to WAL
    // rewrites its header, and a newer Herald's file must stay exactly as it was.
    sqlite.pragma('busy_timeout = 5000');
    const journal = readJournal(folder);
    const latestKnown = Math.max(0, ...journal.entries.map((e) => e.when));
    const hasTable = sqlite
      .prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='__drizzle_migrations'")
      .get();
    let upToDate = false;
    if (hasTable) {
      const row = sqlite.prepare('SELECT MAX(created_at) AS latest FROM __drizzle_migrations').get() as {
        latest: number | null;
      };
      if (row.latest !== null && Number(row.latest) > latestKnown) throw new SchemaTooNewError(file);
      // drizzle's migrator applies only entries newer than the latest applied one; when that is
      // the newest this release knows, it would read and hash every .sql file to do nothing.
      upToDate = row.latest !== null && Number(row.latest) === latestKnown;
    }
    applyPragmas(sqlite);
    const db = drizzle(sqlite);
    if (!upToDate) applyMigrations(sqlite, folder);
    return { sqlite, db, close: () => sqlite.close() };
  } catch (err) {
    sqlite.close();
    throw err;
  }
}
