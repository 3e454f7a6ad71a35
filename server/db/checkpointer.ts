/**
 * WAL checkpoints on a thread of their own. SQLite's automatic checkpoint runs inside whichever
 * commit takes the WAL past 1,000 pages: on Herald's main thread, with an fsync of the WAL and one
 * of the database file, which on a busy disk stalled the API and the scheduler for seconds. Here a
 * worker thread with its own connection checkpoints (PASSIVE: it never blocks a reader or a
 * writer) every second, and the main connection's automatic checkpoint moves from 1,000 pages to
 * a safety net of 10,000 once the worker is running. A PASSIVE checkpoint cannot finish while
 * writes never pause (SQLite restarts the WAL only once all of it is copied), so under writes
 * without a break the WAL grows until the safety net checkpoints on the main thread, by then with
 * little left to copy. If the worker ever stops, the main connection checkpoints at 1,000 again.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Sqlite } from './connection.js';

/** The main connection's automatic checkpoint while the worker runs, in pages (~40 MB). */
export const SAFETY_NET_PAGES = 10_000;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage({ error: String(err && err.message)
    }); }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  /** Resolves once the worker checkpoints and the main connection no longer does. */
  ready: Promise<boolean>;
  stop(): Promise<void>;
}

export function startCheckpointer(
  sqlite: Sqlite,
  file: string,
  opts: { everyMs?: number; delayMs?: number; log?: { warn(msg: string, err?: unknown): void } } = {},
): Checkpointer {
  let stopping = false;
  let worker: Worker | undefined;
  let handedOver = false;
  const takeBack = () => {
    if (!handedOver || !sqlite.open) return;
    handedOver = false;
    sqlite.pragma('wal_autocheckpoint = 1000');
  };
  let stopped: () => void = () => {};
  const done = new Promise<void>((r) => {
    stopped = r;
  });
  let settle: (v: boolean) => void = () => {};
  const ready = new Promise<boolean>((r) => {
    settle = r;
  });
  const start = () => {
    if (stopping) return;
    let w: Worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      w = new Worker(SOURCE, { eval: true, workerData: { driver, file, everyMs: opts.everyMs ?? 1_000 } });
    } catch (err) {
      // No worker here (a packaged runtime without the driver where a worker looks): SQLite's own
      // checkpoints go on as before.
      opts.log?.warn('Herald could not start its background WAL checkpoint; the database checkpoints by itself', err);
      settle(false);
      stopped();
      return;
    }
    worker = w;
    w.unref();
    w.on('message', (m: unknown) => {
      if (m === 'ready') {
        if (!stopping && sqlite.open) {
          sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
          handedOver = true;
        }
        settle(handedOver);
      } else if (m === 'stopped') {
        stopped();
      } else if (m && typeof m === 'object' && 'error' in m) {
        opts.log?.warn(`Herald's background WAL checkpoint failed: ${(m as { error: string }).error}`);
      }
    });
    w.on('error', (err) => {
      opts.log?.warn("Herald's background WAL checkpoint stopped; the database checkpoints by itself again", err);
      takeBack();
      settle(false);
      stopped();
    });
    w.on('exit', () => {
      takeBack();
      settle(false);
      stopped();
    });
  };
  const timer = opts.delayMs ? setTimeout(start, opts.delayMs) : undefined;
  timer?.unref();
  if (!timer) start();
  return {
    ready,
    async stop() {
      if (stopping) return done;
      stopping = true;
      if (timer) clearTimeout(timer);
      takeBack();
      if (!worker) {
        settle(false);
        return;
      }
      const w = worker;
      w.postMessage('stop');
      const timeout = setTimeout(() => {
        void w.terminate();
      }, 5_000);
      await done;
      clearTimeout(timeout);
      await w.terminate();
    },
  };
}
