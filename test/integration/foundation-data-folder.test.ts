/**
 * Foundation (issue 2): the data folder.
 * - a new one is created private (0700), with WAL, synchronous=FULL, foreign keys, a busy timeout
 *   and every migration applied;
 * - one written by a newer Herald is refused, in process and by `npm run serve` in a child
 *   process, and left byte for byte as it was.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/core/config.js';
import { SchemaTooNewError } from '../../server/db/connection.js';
import { createServer } from '../../server/server.js';
import { ROOT } from '../helpers/child-server.js';
import { launch, LISTENING, newDir, SLOW, stopped, useLaunches } from '../helpers/herald-process.js';
import { startServer } from '../helpers/server.js';

useLaunches();

describe('SQLite', () => {
  it(
    'a new data folder is created private, with WAL, synchronous=FULL, foreign keys, a busy timeout and every ' +
      'migration applied',
    async () => {
      const dataDir = path.join(newDir(), 'nested', 'Herald');
      const t = await startServer({ dataDir, scheduler: false });
      try {
        expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
        const sqlite = t.server.sqlite;
        expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
        expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
        expect(sqlite.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
        const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'migrations', 'meta', '_journal.json'), 'utf8')) as {
          entries: { when: number }[];
        };
        const applied = sqlite
          .prepare('SELECT created_at AS c FROM __drizzle_migrations ORDER BY created_at')
          .all() as {
          c: number;
        }[];
        expect(applied.map((r) => Number(r.c))).toEqual(journal.entries.map((e) => e.when));
      } finally {
        await t.close();
      }
    },
  );
});

describe('a data folder from a newer Herald', () => {
  function snapshot(dir: string) {
    return Object.fromEntries(
      fs
        .readdirSync(dir)
        .sort()
        .map((name) => {
          const file = path.join(dir, name);
          const st = fs.statSync(file);
          return [
            name,
            {
              sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
              size: st.size,
              mtimeMs: st.mtimeMs,
              mode: st.mode,
            },
          ];
        }),
    );
  }

  /** A folder as Herald leaves it, then stamped with a migration this version does not know. */
  async function newerFolder(journal: 'wal' | 'delete') {
    const dataDir = newDir();
    const t = await startServer({ dataDir, scheduler: false });
    const key = await t.login();
    await t.call('POST', '/templates', { key, body: { name: 'kept' } });
    await t.server.close();
    const db = new Database(path.join(dataDir, 'herald.db'));
    const latest = (db.prepare('SELECT MAX(created_at) AS n FROM __drizzle_migrations').get() as { n: number }).n;
    db.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run(
      'from-a-newer-herald',
      Number(latest) + 86_400_000,
    );
    if (journal === 'delete') db.pragma('journal_mode = DELETE');
    db.close();
    expect(fs.existsSync(path.join(dataDir, 'herald.db-wal'))).toBe(false);
    return dataDir;
  }

  for (const journal of ['wal', 'delete'] as const) {
    it(
      `is refused in process and by npm run serve, and not written to (journal mode ${journal})`,
      async () => {
        const dataDir = await newerFolder(journal);
        const before = snapshot(dataDir);
        await expect(
          createServer({
            config: loadConfig(
              {},
              { HERALD_DATA_DIR: dataDir, HERALD_PORT: '0', HERALD_SECRET_STORE: 'file', HERALD_LOG_LEVEL: 'silent' },
            ),
            scheduler: false,
          }),
        ).rejects.toBeInstanceOf(SchemaTooNewError);
        expect(snapshot(dataDir)).toEqual(before);
        if (journal === 'wal') {
          const p = launch('npm', ['run', 'serve'], {
            HERALD_DATA_DIR: dataDir,
            HERALD_PORT: '0',
            HERALD_SECRET_STORE: 'file',
          });
          const { code } = await stopped(p, 'Herald on a newer folder');
          expect(code).not.toBe(0);
          expect(p.output()).toMatch(
            /Herald cannot start: The database .*herald\.db was written by a newer version of Herald/,
          );
          expect(p.output()).not.toMatch(LISTENING);
          expect(snapshot(dataDir)).toEqual(before);
        }
      },
      SLOW,
    );
  }
});
