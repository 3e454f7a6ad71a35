/**
 * WAL checkpoints run on a worker thread (server/db/checkpointer.ts), not inside the commits of
 * the thread that serves the API: while the worker runs, the main connection checkpoints only as
 * a safety net past 10,000 pages, so a database that grows by more than that while its WAL never
 * reaches it was checkpointed by the worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAFETY_NET_PAGES, startCheckpointer } from '../../server/db/checkpointer.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import Database from 'better-sqlite3';

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ scheduler: false });
});
afterAll(async () => {
  await t.close();
});

describe('background WAL checkpoints', () => {
  it(
    "move the main connection's automatic checkpoint to a " + 'safety net and keep the WAL below it under writes',
    async () => {
      expect(await t.server.checkpointer.ready).toBe(true);
      const sqlite = t.server.sqlite;
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_PAGES);
      const netBytes = SAFETY_NET_PAGES * (sqlite.pragma('page_size', { simple: true }) as number);
      const key = await t.login();
      const wal = path.join(t.dataDir, 'herald.db-wal');
      // About 22 MB of templates, 36 kB each, in bursts: with no checkpoint at all the WAL would hold it all.
      const big = 'x'.repeat(9_000);
      let largest = 0;
      for (let i = 0; i < 600; i++) {
        const r = await t.call('POST', '/templates', {
          key,
          body: {
            name: `Big ${i}`,
            headContentPlain: big,
            tailContentPlain: big,
            headContentHtml: big,
            tailContentHtml: big,
          },
        });
        expect(r.status, r.text).toBe(200);
        if (i % 25 === 0) await new Promise((res) => setTimeout(res, 60));
        largest = Math.max(largest, fs.statSync(wal).size);
      }
      // The writes were as large as meant: over 20 MB reached the database file through the checkpoints.
      await new Promise((res) => setTimeout(res, 1_500));
      const dbSize = fs.statSync(path.join(t.dataDir, 'herald.db')).size;
      console.log(
        `background checkpoint: 600 writes of 36 kB, largest WAL ${(largest / 1e6).toFixed(1)} MB, database ` +
          `file ${(dbSize / 1e6).toFixed(1)} MB`,
      );
      expect(dbSize).toBeGreaterThan(20e6);
      expect(largest).toBeLessThan(netBytes);
    },
    120_000,
  );

  it('give the checkpoint back to the main connection when stopped', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'x.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const c = startCheckpointer(db, file, { everyMs: 50 });
    expect(await c.ready).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_PAGES);
    await c.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
