/**
 * Backup and restore of the database file, used by `herald backup` and `herald restore`.
 *
 * Backup uses SQLite's online backup API in a single step: one read transaction copies every
 * page, so writers (the running app) carry on under WAL and the copy is one consistent moment.
 * (Copying a few pages per step, the API's usual mode, starts over whenever another process
 * writes between steps: under steady writes it never finishes.)
 *
 * Restore works offline. It checks that the file is a healthy Herald database of a schema this
 * build knows (older ones are migrated forward on a staging copy; newer ones are refused), then
 * takes SQLite's exclusive lock on the live database, so it refuses while Herald (or anything
 * else) has it open and nothing can open it while it runs. Under that lock it keeps the old
 * database as `<name>.<time>.bak` and replaces the contents in one transaction: a crash leaves
 * either the old database or the restored one, never a mix.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrationsFolder, openDatabase, secureDatabaseFiles, type Sqlite } from './connection.js';

export class RestoreError extends Error {
  constructor(
    message: string,
    readonly reason:
      'not_found' | 'not_sqlite' | 'not_herald' | 'damaged' | 'too_new' | 'unknown_schema' | 'in_use' | 'same_file',
  ) {
    super(message);
    this.name = 'RestoreError';
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  seconds: number;
}

/** Tables every Herald database has had since the first release. */
const CORE_TABLES = ['users', 'api_keys', 'drafts', 'tweets', 'publications'];

const stamp = (now = new Date()) => now.toISOString().replace(/[:.]/g, '-');

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Copies the database at `source` to `target` while other processes keep writing to it. The
 * copy is written beside the target and renamed into place once complete and synced.
 */
export async function backupDatabase(source: string, target: string): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new RestoreError(`There is no database at ${source}`, 'not_found');
  if (path.resolve(source) === path.resolve(target))
    throw new RestoreError('The backup file cannot be the database itself', 'same_file');
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const started = performance.now();
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // All remaining pages in one step (see the header); 0x7fffffff is better-sqlite3's maximum.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  // The copy carries the live database's WAL flag; a backup is one self-contained file, so it is
  // switched to a rollback journal (reading it then leaves no -wal/-shm files beside it).
  const copy = new Database(partial);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  // Password hashes, key hashes and everything written: readable by this user only, wherever
  // the copy is put (a home folder is usually readable by others).
  fs.chmodSync(partial, 0o600);
  fsyncFile(partial);
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, seconds: (performance.now() - started) / 1000 };
}

/**
 * POST /backup: copies the live database through the connection that serves the API. Unlike
 * backupDatabase (a separate process's copy), this one goes in SQLite's usual small steps with
 * the event loop turning between them, so the API keeps answering meanwhile; this connection's
 * own writes during the copy are carried into it. Written beside its final name and renamed when
 * whole, readable by its owner only (it holds password and key hashes), like `herald backup`.
 */
export async function backupConnection(sqlite: Sqlite, target: string): Promise<BackupResult> {
  const started = Date.now();
  const partial = `${target}.partial`;
  try {
    await sqlite.backup(partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { file: target, bytes: fs.statSync(target).size, seconds: (Date.now() - started) / 1000 };
}

export interface BackupCheck {
  /** Migrations the file has applied, by their journal time. */
  applied: number[];
  /** True when this build has migrations the file lacks (restore migrates a staging copy). */
  older: boolean;
}

/**
 * Opens a file someone else owns read-only. A WAL-mode file makes SQLite create -wal and -shm
 * files beside it; those this opening created (and that hold nothing) are removed afterwards.
 */
function readOnly<T>(file: string, fn: (db: Database.Database) => T): T {
  const sides = ['-wal', '-shm'].map((s) => file + s).filter((f) => !fs.existsSync(f));
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new RestoreError(`${file} cannot be opened as a database (${(err as Error).message})`, 'damaged');
  }
  try {
    return fn(db);
  } finally {
    db.close();
    for (const f of sides) {
      try {
        if (fs.statSync(f).size === 0 || f.endsWith('-shm')) fs.rmSync(f, { force: true });
      } catch {
        /* not created */
      }
    }
  }
}

/** Refuses anything but a healthy Herald database whose schema this build knows. */
export function checkBackupFile(file: string, folder = migrationsFolder()): BackupCheck {
  let header: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      header = Buffer.alloc(16);
      fs.readSync(fd, header, 0, 16, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    throw new RestoreError(`Cannot read ${file}`, 'not_found');
  }
  if (header.toString('latin1') !== 'SQLite format 3\u0000')
    throw new RestoreError(`${file} is not a SQLite database`, 'not_sqlite');
  return readOnly(file, (db) => {
    let integrity: unknown;
    try {
      integrity = db.pragma('integrity_check', { simple: true });
    } catch (err) {
      throw new RestoreError(`${file} is damaged (${(err as Error).message})`, 'damaged');
    }
    if (integrity !== 'ok')
      throw new RestoreError(`${file} is damaged: SQLite's integrity check says ${String(integrity)}`, 'damaged');
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    if (!tables.has('__drizzle_migrations') || CORE_TABLES.some((t) => !tables.has(t))) {
      throw new RestoreError(`${file} is a SQLite database but not a Herald database`, 'not_herald');
    }
    const applied = (
      db.prepare('SELECT created_at AS at FROM __drizzle_migrations ORDER BY created_at').all() as {
        at: number | string;
      }[]
    ).map((r) => Number(r.at));
    const known = (
      JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] }
    ).entries.map((e) => e.when);
    if (applied.length === 0)
      throw new RestoreError(`${file} is not a Herald database (it has no schema version)`, 'not_herald');
    if (Math.max(...applied) > Math.max(...known)) {
      throw new RestoreError(
        `${file} was written by a newer version of Herald; update Herald before restoring it`,
        'too_new',
      );
    }
    const unknown = applied.filter((a) => !known.includes(a));
    if (unknown.length > 0)
      throw new RestoreError(`${file} has a schema this version of Herald does not know`, 'unknown_schema');
    return { applied, older: known.some((k) => !applied.includes(k)) };
  });
}

export interface RestoreResult {
  restoredFrom: string;
  database: string;
  /** Where the database that was replaced now is (null when there was none). */
  previous: string | null;
  /** Migrations applied to bring the backup up to this build's schema. */
  migrated: number;
  seconds: number;
}

/** Names of the objects a restore replaces, in an order that can be dropped and created. */
function schemaObjects(db: Database.Database, schemaName: string) {
  return db
    .prepare(
      `SELECT type, name, sql FROM "${schemaName}".sqlite_master WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL
    ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid`,
    )
    .all() as { type: string; name: string; sql: string }[];
}

/**
 * Replaces the database at `dbPath` with the backup in `file`. Refuses while any other
 * connection has the database open.
 */
export function restoreDatabase(file: string, dbPath: string, opts: { now?: () => Date } = {}): RestoreResult {
  const started = performance.now();
  const source = path.resolve(file);
  const live = path.resolve(dbPath);
  if (source === live) throw new RestoreError('The backup file is the database itself', 'same_file');
  const check = checkBackupFile(source);
  fs.mkdirSync(path.dirname(live), { recursive: true, mode: 0o700 });

  const existed = fs.existsSync(live);
  let restored = false;
  secureDatabaseFiles(live);
  const db = new Database(live);
  const staging = `${live}.restore-${process.pid}`;
  const removeStaging = () => {
    for (const s of ['', '-wal', '-shm', '-journal']) fs.rmSync(staging + s, { force: true });
  };
  try {
    // Exclusive from the first access: no shared-memory index, and every other process is shut
    // out until this connection closes. Busy at once means someone has the database open.
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
        throw new RestoreError(
          `The database ${live} is in use: quit Herald (the desktop app and any \`herald serve\`) and run ` +
            `restore again`,
          'in_use',
        );
      }
      throw err;
    }
    const hadData =
      existed &&
      (db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").get() as { n: number }).n >
        0;

    // The backup as this build's schema, on a staging copy (the backup file is never written;
    // VACUUM INTO reads it through its WAL, if it has one, like any reader).
    removeStaging();
    readOnly(source, (reader) => reader.prepare('VACUUM INTO ?').run(staging));
    const staged = openDatabase(staging);
    const migrated =
      (staged.sqlite.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get() as { n: number }).n -
      check.applied.length;
    staged.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    staged.close();

    let previous: string | null = null;
    if (hadData) {
      previous = `${live}.${stamp(opts.now?.() ?? new Date())}.bak`;
      db.prepare('VACUUM INTO ?').run(previous);
      fs.chmodSync(previous, 0o600);
      fsyncFile(previous);
    }

    db.pragma('foreign_keys = OFF');
    db.prepare('ATTACH DATABASE ? AS staged').run(staging);
    try {
      db.transaction(() => {
        for (const o of schemaObjects(db, 'main').reverse())
          db.exec(`DROP ${o.type.toUpperCase()} IF EXISTS main."${o.name}"`);
        const objects = schemaObjects(db, 'staged');
        for (const o of objects.filter((x) => x.type === 'table')) {
          db.exec(o.sql);
          db.exec(`INSERT INTO main."${o.name}" SELECT * FROM staged."${o.name}"`);
        }
        const has = (schemaName: string) =>
          db.prepare(`SELECT 1 FROM "${schemaName}".sqlite_master WHERE name = 'sqlite_sequence'`).get();
        if (has('main')) db.exec('DELETE FROM main.sqlite_sequence');
        if (has('staged')) db.exec('INSERT INTO main.sqlite_sequence SELECT * FROM staged.sqlite_sequence');
        for (const o of objects.filter((x) => x.type !== 'table')) db.exec(o.sql);
      })();
    } finally {
      db.exec('DETACH DATABASE staged');
    }
    db.pragma('foreign_keys = ON');
    const integrity = db.pragma('integrity_check', { simple: true });
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (integrity !== 'ok' || fk.length > 0) {
      throw new Error(
        `The restored database failed its check (${String(integrity)}, ${fk.length} broken references); the ` +
          `previous one is kept at ${previous}`,
      );
    }
    // A database created by this restore starts in rollback mode; Herald runs it in WAL. (Closing
    // checkpoints the WAL into the file.)
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    restored = true;
    return { restoredFrom: source, database: live, previous, migrated, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
    removeStaging();
    // A database file this restore created and could not fill is not left behind.
    if (!existed && !restored) for (const s of ['', '-wal', '-shm', '-journal']) fs.rmSync(live + s, { force: true });
  }
}
