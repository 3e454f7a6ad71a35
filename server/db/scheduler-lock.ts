/**
 * One scheduler per data folder. The lock is an exclusive SQLite lock on `scheduler-lock.db`
 * (an OS file lock underneath: fcntl on Linux and macOS, LockFileEx on Windows), held by an open
 * connection for as long as the scheduler runs. The operating system drops it the moment its
 * process ends, however it ends, so a killed or crashed Herald never leaves a lock behind, and a
 * new process that happens to get the dead one's pid (common after a reboot) cannot keep the
 * scheduler from starting. A second live process (the desktop app beside `npm run serve`) serves
 * the API but fires nothing, and takes over at its next sweep once the first is gone.
 *
 * `scheduler.lock` beside it names the holder ({pid, token}) for people and for older versions
 * of Herald, which decide by that file; it is informational only.
 *
 * It lives with the other SQLite files' code (db/), and like every file of the data folder it is
 * owner-only (0600), as is its rollback journal, which SQLite creates with the file's own mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { processUniqueId } from '../core/ids.js';
import { secureDatabaseFiles } from './connection.js';

const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

export class SchedulerLock {
  /** The file the OS lock is held on. */
  readonly lockFile: string;
  /** Who holds it, as JSON: {pid, token}. */
  readonly file: string;
  private db: Database.Database | undefined;
  private token: string | undefined;

  constructor(dataDir: string) {
    this.lockFile = path.join(dataDir, 'scheduler-lock.db');
    this.file = path.join(dataDir, 'scheduler.lock');
  }

  get held(): boolean {
    return this.db !== undefined;
  }

  /** Takes the lock if no live process holds it. */
  tryAcquire(): boolean {
    if (this.db) return true;
    let db: Database.Database | undefined;
    try {
      secureDatabaseFiles(this.lockFile);
      db = new Database(this.lockFile, { timeout: 0 });
      // The holder row is a note, not data: no fsync for it (two at every start, each a few ms and
      // at times tens on a busy disk). The rollback journal stays, so a killed process still
      // leaves a consistent file; only the lock matters, and the OS holds that.
      db.pragma('synchronous = OFF');
      // In exclusive locking mode the first write transaction's lock is kept until the
      // connection closes.
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)');
      db.exec('DELETE FROM holder');
      db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, new Date().toISOString());
      db.exec('COMMIT');
    } catch (err) {
      try {
        db?.close();
      } catch {
        /* closing a connection that never opened */
      }
      if (BUSY.has((err as { code?: string }).code ?? '')) return false;
      throw err;
    }
    this.db = db;
    this.token = processUniqueId();
    try {
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, token: this.token }), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
    } catch {
      /* the note is for people; the lock itself is held */
    }
    return true;
  }

  release(): void {
    if (!this.db) return;
    try {
      const owner = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { token?: string };
      if (owner.token === this.token) fs.unlinkSync(this.file);
    } catch {
      /* already gone */
    }
    try {
      this.db.close();
    } catch {
      /* already closed */
    }
    this.db = undefined;
    this.token = undefined;
  }
}
