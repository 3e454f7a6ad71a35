/**
 * How the publishing path commits. The connection runs WAL with synchronous=FULL: every commit
 * waits for an fsync (milliseconds: README, Performance) on the one thread that serves the API and
 * fires posts, so a handful of FULL commits per scheduled post caps Herald at a few dozen posts a
 * second. Two cheaper kinds of commit, for the writes whose durability can be had another way:
 *
 * - `relaxed(fn)`: one transaction with synchronous=NORMAL. In WAL it survives a killed process
 *   (the frames are in the WAL file, only not yet fsynced); only a power cut or OS crash can drop
 *   it, and then only together with everything committed after the last FULL commit. For writes
 *   whose loss the outbox tolerates: claims, plans made before anything is sent, and what a
 *   network answered (a part left `sending` is settled by asking the network, never resent
 *   blindly). The next FULL commit makes them durable with its own, since it fsyncs the whole WAL.
 * - `durable(fn)`: group commit. Writes queued during one turn of the event loop run together in
 *   one transaction (each in its own savepoint, so one failing write does not undo the others)
 *   and every caller resumes once it is on disk: one fsync for all the posts about to be sent,
 *   instead of one each. For the `sending` mark that must be on disk before a network call. The
 *   fsync is not made on this thread: the group commits relaxed, then the WAL file is fsynced
 *   from libuv's thread pool (fs.fsync on the -wal file flushes every frame written to it, as a
 *   FULL commit would), and the callers resume when it is done. A slow disk (other work fsyncing
 *   too) then delays the posts about to go out, not the API and the scheduler's claims. Without
 *   a WAL file (an in-memory database) the group is one FULL transaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Sqlite } from './connection.js';

interface Queued {
  fn: () => void;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class Commits {
  private queue: Queued[] = [];
  private pending: NodeJS.Immediate | undefined;
  /** Group commits made, and writes they carried (tests and figures read them). */
  groups = 0;
  grouped = 0;

  private readonly s;
  /** The WAL file, once known (null: no WAL, the group commits FULL). */
  private wal: string | null | undefined;
  private walFd: number | undefined;

  constructor(private readonly sqlite: Sqlite) {
    // Prepared once: relaxed() runs several times per scheduled post. Not the pragmas: SQLite
    // applies (and reads) `synchronous` when such a statement is compiled, not when it runs.
    this.s = {
      begin: sqlite.prepare('BEGIN'),
      commit: sqlite.prepare('COMMIT'),
      rollback: sqlite.prepare('ROLLBACK'),
    };
  }

  /**
   * A transaction that does not wait for the disk (see above). Inside another transaction it joins it (a savepoint).
   */
  relaxed<T>(fn: () => T): T {
    const db = this.sqlite;
    if (db.inTransaction) return db.transaction(fn)();
    const level = db.pragma('synchronous', { simple: true }) as number;
    if (level <= 1) return db.transaction(fn)();
    db.exec('PRAGMA synchronous = NORMAL');
    try {
      this.s.begin.run();
      try {
        const result = fn();
        this.s.commit.run();
        return result;
      } catch (err) {
        if (db.inTransaction) this.s.rollback.run();
        throw err;
      }
    } finally {
      db.exec(`PRAGMA synchronous = ${level}`);
    }
  }

  /** Runs `fn` in the next group commit; resolves once it is durable, rejects if `fn` threw. */
  durable(fn: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject });
      this.pending ??= setImmediate(() => this.flush());
    });
  }

  /** Commits what is queued now (normally on the next turn of the event loop). */
  flush(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
    const batch = this.queue;
    if (batch.length === 0) return;
    // Never inside a caller's transaction, whose commit (or rollback) is not this one's to make.
    if (this.sqlite.inTransaction) {
      this.pending = setImmediate(() => this.flush());
      return;
    }
    this.queue = [];
    const db = this.sqlite;
    const failed = new Map<Queued, unknown>();
    const group = () => {
      for (const q of batch) {
        try {
          db.transaction(q.fn)();
        } catch (err) {
          failed.set(q, err);
        }
      }
    };
    const wal = this.walFile();
    try {
      // With a WAL file: relaxed, then fsynced off this thread. Without: the connection's own
      // level (FULL), the commit waiting for the disk here.
      if (wal) this.relaxed(group);
      else db.transaction(group)();
    } catch (err) {
      for (const q of batch) q.reject(err);
      return;
    }
    this.groups += 1;
    this.grouped += batch.length - failed.size;
    const settle = (err?: unknown) => {
      for (const q of batch) {
        if (failed.has(q)) q.reject(failed.get(q));
        else if (err) q.reject(err);
        else q.resolve();
      }
    };
    if (!wal) settle();
    else this.fsyncWal(wal).then(() => settle(), settle);
  }

  /**
   * fsync(2) of the WAL file from libuv's thread pool, through a descriptor kept open (opening it
   * for each group cost more main-thread time than the fsync itself). SQLite never replaces the
   * -wal file while a connection is open, only rewrites it in place.
   */
  private fsyncWal(file: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const sync = (fd: number) =>
        fs.fsync(fd, (err) => {
          if (!err) return resolve();
          if (this.walFd === fd) this.walFd = undefined;
          fs.close(fd, () => reject(err));
        });
      if (this.walFd !== undefined) return sync(this.walFd);
      fs.open(file, 'r+', (err, fd) => {
        if (err) return reject(err);
        if (this.walFd === undefined) {
          this.walFd = fd;
          return sync(fd);
        }
        // Another group opened it meanwhile (and may be fsyncing through it): this one is closed after use.
        fs.fsync(fd, (syncErr) => fs.close(fd, () => (syncErr ? reject(syncErr) : resolve())));
      });
    });
  }

  private walFile(): string | null {
    if (this.wal !== undefined) return this.wal;
    const db = this.sqlite;
    const mode = db.memory ? 'memory' : String(db.pragma('journal_mode', { simple: true }));
    this.wal = mode === 'wal' ? `${path.resolve(db.name)}-wal` : null;
    return this.wal;
  }
}

const bySqlite = new WeakMap<Sqlite, Commits>();

/** The connection's one Commits (one queue per connection, so every group is one transaction). */
export function commitsFor(sqlite: Sqlite): Commits {
  let c = bySqlite.get(sqlite);
  if (!c) bySqlite.set(sqlite, (c = new Commits(sqlite)));
  return c;
}
