/**
 * The publishing path's commits (server/db/commits.ts) on a real SQLite file opened as Herald
 * opens it (WAL, synchronous=FULL): durable writes queued in one turn of the event loop go to disk
 * in one transaction, a failing write is refused alone, and a relaxed transaction runs with
 * synchronous=NORMAL and leaves the connection at FULL whatever happens in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Commits } from '../../server/db/commits.js';
import { applyPragmas } from '../../server/db/connection.js';
import { tempDir } from '../helpers/server.js';

const open: { db: Database.Database; dir: string }[] = [];
afterEach(() => {
  for (const { db, dir } of open.splice(0)) {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function setup() {
  const dir = tempDir('herald-commits-');
  const db = new Database(path.join(dir, 'herald.db'));
  applyPragmas(db);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  open.push({ db, dir });
  const commits = new Commits(db);
  const rows = () => db.prepare('SELECT v FROM t ORDER BY id').pluck().all() as string[];
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  return { db, commits, rows, insert };
}

describe('group commit', () => {
  it('commits the durable writes of one turn together and resumes each caller only once they are in', async () => {
    const { commits, rows, insert } = setup();
    const seen: string[][] = [];
    const writes = ['a', 'b', 'c'].map((v) =>
      commits
        .durable(() => {
          insert.run(v);
        })
        .then(() => seen.push(rows())),
    );
    // Nothing is written before the turn ends.
    expect(rows()).toEqual([]);
    await Promise.all(writes);
    expect(rows()).toEqual(['a', 'b', 'c']);
    // Every caller resumed after all three were committed, by one transaction.
    expect(seen).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
    expect(commits.groups).toBe(1);
    expect(commits.grouped).toBe(3);
    // The next turn's writes are the next group.
    await commits.durable(() => {
      insert.run('d');
    });
    expect(commits.groups).toBe(2);
  });

  it('refuses a failing write alone: the others of its group are committed', async () => {
    const { commits, rows, insert } = setup();
    const results = await Promise.allSettled([
      commits.durable(() => {
        insert.run('x');
      }),
      commits.durable(() => {
        insert.run('y');
        insert.run('x');
      }), // UNIQUE: its own 'y' is undone too
      commits.durable(() => {
        insert.run('z');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows()).toEqual(['x', 'z']);
  });
});

describe('relaxed transactions', () => {
  it('run with synchronous=NORMAL and leave the connection at FULL, also when they throw (rolled back)', () => {
    const { db, commits, rows, insert } = setup();
    const level = () => db.pragma('synchronous', { simple: true });
    expect(level()).toBe(2);
    let inside: unknown;
    commits.relaxed(() => {
      inside = level();
      insert.run('kept');
    });
    expect(inside).toBe(1);
    expect(level()).toBe(2);
    expect(() =>
      commits.relaxed(() => {
        insert.run('undone');
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(level()).toBe(2);
    expect(db.inTransaction).toBe(false);
    expect(rows()).toEqual(['kept']);
  });

  it("join a caller's transaction as a savepoint: their rollback undoes them", () => {
    const { db, commits, rows, insert } = setup();
    expect(() =>
      db.transaction(() => {
        commits.relaxed(() => {
          insert.run('inner');
        });
        throw new Error('outer refused');
      })(),
    ).toThrow('outer refused');
    expect(rows()).toEqual([]);
    // A relaxed one that throws inside a caller's transaction undoes only its own writes.
    db.transaction(() => {
      insert.run('outer');
      try {
        commits.relaxed(() => {
          insert.run('inner');
          throw new Error('inner refused');
        });
      } catch {
        /* the caller goes on */
      }
    })();
    expect(rows()).toEqual(['outer']);
  });
});
