/**
 * docs/decisions.md §20.1 "SQLite": Herald in a child process takes 10,000 acknowledged writes over HTTP from
 * parallel clients (write-load.ts: template creates, one row each, and every fourth a draft
 * create, a draft and its two posts in one transaction) while the test SIGKILLs it at random
 * moments and restarts it on the same folder. After every restart `PRAGMA integrity_check` is
 * ok, every write that got a 2xx is there whole, and no draft is there in part.
 *
 * Kills: 100 (the quality bar's count; about a minute); HERALD_QUICK=1 makes it 8. HERALD_SEED
 * repeats a run's kill moments; HERALD_DURABILITY_WRITES changes the write count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { scratchDir, seededRandom } from './util.js';
import { reportFigure } from './quality.js';
import { readBack, request, tornDrafts, WriteLoad } from './write-load.js';

const WRITES = Number(process.env.HERALD_DURABILITY_WRITES ?? 10_000);
const KILLS = process.env.HERALD_QUICK === '1' ? 8 : 100;
const SEED = Number(process.env.HERALD_SEED ?? Date.now() % 2 ** 31);

const dirs: string[] = [];
let child: ChildServer | undefined;
afterAll(async () => {
  await child?.kill();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('SQLite durability', () => {
  it('opens every connection with WAL, synchronous=FULL, foreign keys and a busy timeout', async () => {
    const t = await startServer({ scheduler: false });
    try {
      const db = t.server.sqlite;
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
    } finally {
      await t.close();
    }
  });

  it(`keeps every acknowledged write across ${KILLS} SIGKILLs during ${WRITES} writes`, async () => {
    const random = seededRandom(SEED);
    const dataDir = scratchDir('herald-durability-');
    dirs.push(dataDir);
    const dbFile = path.join(dataDir, 'herald.db');
    // The headless app (server/main.ts) as `npm run serve` runs it; the owner's key is unlimited.
    const start = () =>
      startChild({
        dataDir,
        env: { HERALD_DEFAULT_TIER: 'enterprise', HERALD_ENTERPRISE_LIMIT: '10000000' },
        readyMs: 60_000,
      });
    child = await start();
    const key = await child.login();
    const load = new WriteLoad(() => child!.apiUrl, key);
    expect(
      (await request(load.agent, `${child.apiUrl}/social-sets`, { name: 'All', isDefault: true }, key)).status,
    ).toBe(200);

    const check = (label: string) => {
      const file = readBack(dbFile);
      expect(file.integrity, `integrity_check ${label} (seed ${SEED})`).toBe('ok');
      expect(load.missing(file), `acknowledged writes lost ${label} (seed ${SEED})`).toEqual([]);
      expect(tornDrafts(file), `drafts there in part ${label} (seed ${SEED})`).toBe(0);
      return file;
    };

    const kills = Array.from({ length: KILLS }, () => Math.floor(random() * WRITES * 0.95)).sort((a, b) => a - b);
    let longestRestart = 0;
    const writers = load.run(() => load.acked.size >= WRITES);
    for (const [i, at] of kills.entries()) {
      while (load.acked.size < at && load.unexpected.length === 0)
        await new Promise<void>((r) => {
          load.onAck = r;
        });
      // A random moment inside the write stream, not just on an acknowledgement.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 4)));
      let release!: () => void;
      load.gate = new Promise((r) => {
        release = r;
      });
      await child.kill();
      const t0 = Date.now();
      child = await start();
      longestRestart = Math.max(longestRestart, Date.now() - t0);
      check(`after kill ${i + 1} at ${load.acked.size} acknowledged writes`);
      // The restarted server serves what the file holds.
      const sample = [...load.acked.values()].filter((w) => w.kind === 'draft').at(-1);
      if (sample)
        expect(
          (await request(load.agent, `${child.apiUrl}/microblog/drafts/${sample.id}`, undefined, key)).status,
        ).toBe(200);
      release();
    }
    await writers;
    expect(load.unexpected).toEqual([]);
    expect(load.acked.size).toBeGreaterThanOrEqual(WRITES);
    const file = check('at the end');
    const committedUnanswered = [...load.unanswered].filter((m) => file.templates.has(m) || file.drafts.has(m)).length;
    await child.kill('SIGTERM');
    child = undefined;
    load.close();
    reportFigure(
      'SQLite',
      `acked but lost 0 of ${load.acked.size} acknowledged writes; ${KILLS} kills (seed ${SEED}); ` +
        `${load.unanswered.size} unanswered at a kill (${committedUnanswered} of them committed); torn drafts ` +
        `0; integrity_check ok ×${KILLS + 1}; longest restart ${longestRestart} ms`,
    );
  }, 600_000);
});
