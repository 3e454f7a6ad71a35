/**
 * docs/decisions.md §20.1 "Disk full" (issue #19 items 3 and 15): the data folder on a file system that really
 * fills up, a tmpfs of 16 MiB mounted for this test (root needed; CI runs as root; the mount fails
 * the test loudly, never skips it). The real headless Herald in a child process, accounts on the
 * X and Mastodon simulators, a post scheduled over HTTP. Then a filler file takes every free page:
 *
 * - API writes answer 507 STORAGE_FULL and are not half-written (integrity_check ok; every write
 *   that got a 2xx is there whole, none that got 507 is there at all);
 * - an upload answers 507 and leaves no file behind;
 * - the scheduled post that falls due stays pending, waiting for "storage", uncharged, not failed;
 * - once the filler is gone it publishes, exactly once, charged once.
 *
 * SQLite in WAL mode still takes small writes while its WAL file has room it allocated earlier,
 * so the test writes 32 KB drafts until the answers are 507 (every 2xx among them counted as an
 * acknowledged write): by then the WAL and the database file need pages the disk has not got.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildServer } from '../helpers/child-server.js';
import { png, upload } from '../helpers/media-files.js';
import { startNetworks, type Networks } from '../helpers/networks.js';
import {
  childEnv,
  childNow,
  createDrafts,
  entryCounts,
  networkCounts,
  readDb,
  schedule,
  startConnected,
  until,
} from './harness.js';
import { reportFigure } from './quality.js';

const SIZE = '16m';
let mountPoint: string | undefined;
let mounted = false;
let nets: Networks | undefined;
let child: ChildServer | undefined;

beforeAll(async () => {
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-diskfull-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE},mode=0700`, 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (err) {
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    throw new Error(
      `The disk-full test mounts a ${SIZE} tmpfs as Herald's data folder and needs root (CI runs as root); ` +
        `mount failed: ${why}`,
    );
  }
  mounted = true;
  nets = await startNetworks();
}, 60_000);

afterAll(async () => {
  await child?.kill();
  await nets?.close();
  if (mountPoint) {
    // Lazy: a file the killed child held open must not keep the mount (and the test's RAM) alive.
    if (mounted) execFileSync('umount', ['-l', mountPoint], { stdio: 'pipe' });
    fs.rmSync(mountPoint, { recursive: true, force: true });
  }
});

/** Takes every free page of the file system `dir` is on; answers the filler's path. */
function fillDisk(dir: string): string {
  const file = path.join(dir, 'filler.bin');
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const buf = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          fs.writeSync(fd, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/** Net credits moved by publishing (charges and refunds; the monthly grant left out). */
const spent = (dataDir: string) =>
  readDb(
    dataDir,
    (db) =>
      (
        db
          .prepare("SELECT COALESCE(SUM(credits), 0) AS n FROM credit_ledger WHERE trans_type NOT LIKE '%grant%'")
          .get() as { n: number }
      ).n,
  );
const mediaFiles = (dataDir: string) => {
  try {
    return fs.readdirSync(path.join(dataDir, 'media')).sort();
  } catch {
    return [];
  }
};
const mediaRows = (dataDir: string) =>
  readDb(dataDir, (db) =>
    (db.prepare('SELECT file_name AS f FROM media').all() as { f: string }[]).map((r) => r.f).sort(),
  );

describe('disk full (a 16 MiB tmpfs as the data folder)', () => {
  it(
    'answers 507 STORAGE_FULL with nothing half-written, keeps a due post waiting uncharged, and publishes it ' +
      'once when space returns',
    async () => {
      const dataDir = path.join(mountPoint!, 'data');
      const connected = await startConnected(nets!, { dataDir, env: childEnv(nets!, { HERALD_SWEEP_SECONDS: '1' }) });
      child = connected.child;
      const { key, ids } = connected;
      const text = 'Disk full: this post waits for space and then goes out exactly once';
      const [draftId] = await createDrafts(child, key, [[text]]);
      const dueAt = (await childNow(child)) + 12_000;
      await schedule(child, key, {
        draftId,
        scheduledFor: new Date(dueAt).toISOString(),
        applyJitter: false,
        targetAccounts: [
          { accountId: ids.microblog, platform: 'microblog' },
          { accountId: ids.fedblog, platform: 'fedblog' },
        ],
      });
      const spentBefore = spent(dataDir);
      const acked: string[] = [];
      const refused: string[] = [];
      const other: string[] = [];
      const big = 'x'.repeat(32_000);
      const write = async (title: string) => {
        const r = await child!.call('POST', '/microblog/drafts', {
          key,
          body: { title, tweets: [{ content: `${title} ${big}` }, { content: `${title} second` }] },
        });
        if (r.status === 200) acked.push(title);
        else if (r.status === 507) refused.push(title);
        else other.push(`${title}: ${r.status} ${r.text.slice(0, 200)}`);
        return r;
      };
      for (let i = 0; i < 20; i++) await write(`disk-full write before ${i}`);

      // Figures gathered as the phases run, reported even when one fails (the row's figure is the point).
      const fig = {
        wronglyFailed: NaN,
        chargedWhileFull: NaN,
        sentWhileFull: NaN,
        upload: 0,
        partialFiles: NaN,
        waited: false,
        published: 0,
        lost: NaN,
        halfWritten: NaN,
        recovery: NaN,
      };
      const report = () =>
        reportFigure(
          'Disk full',
          `lost ${fig.lost}, wrongly failed ${fig.wronglyFailed}, charged while waiting ` +
            `${fig.chargedWhileFull}, sent while full ${fig.sentWhileFull}, waited for storage ` +
            `${fig.waited ? 'yes' : 'no'}; writes 2xx ${acked.length} / 507 ${refused.length} / other ` +
            `${other.length}, half-written ${fig.halfWritten}; upload answered ${fig.upload}, partial files ` +
            `${fig.partialFiles}; published after space returned ${fig.published}/2 in ` +
            `${fig.recovery.toFixed(1)} s`,
        );
      try {
        const filler = fillDisk(mountPoint!);
        expect(fs.statfsSync(mountPoint!).bavail).toBe(0);

        // Writes until the disk refuses three in a row: each answer is 200 (and must be kept) or 507.
        for (let i = 0, run = 0; i < 400 && run < 3; i++) {
          const r = await write(`disk-full write ${i}`);
          if (r.status === 507) {
            run += 1;
            expect.soft(r.body).toMatchObject({ success: false, error: 'STORAGE_FULL' });
            expect.soft(r.body.message).toMatch(/full.*Free some space/s);
            expect.soft(r.text).not.toContain(dataDir);
          } else if (r.status === 200) run = 0;
          else if (other.length >= 3) break; // not the answer this is about: no point in 400 of them
        }
        expect.soft(other).toEqual([]);
        expect.soft(refused.length).toBeGreaterThanOrEqual(3);

        const filesBefore = mediaFiles(dataDir);
        const up = await upload(child.apiUrl, key, [
          { filename: 'photo.png', type: 'image/png', data: png(300, 300, 64 * 1024) },
        ]);
        fig.upload = up.status;
        fig.partialFiles = mediaFiles(dataDir).length - filesBefore.length;
        expect.soft(up.status).toBe(507);
        expect.soft(up.body).toMatchObject({ success: false, error: 'STORAGE_FULL' });
        expect.soft(mediaFiles(dataDir)).toEqual(filesBefore);

        // The post falls due while the disk is full: it waits for storage, pending, uncharged.
        const waiting = await until(
          'the due post to wait for storage',
          async () => {
            const p = (await child!.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key })).body;
            return p?.entries?.length === 2 &&
              p.entries.every((e: any) => e.status === 'pending' && e.waitingFor === 'storage')
              ? p
              : undefined;
          },
          40_000,
          250,
        ).catch(() => undefined);
        fig.waited = waiting !== undefined;
        expect.soft(waiting, 'progress: both entries pending, waitingFor "storage"').toBeDefined();
        for (const e of waiting?.entries ?? []) expect.soft(Date.parse(e.nextAttemptAt)).toBeGreaterThan(dueAt - 1000);
        expect(await childNow(child)).toBeGreaterThanOrEqual(dueAt - 1000); // the Date header has whole seconds
        await new Promise((r) => setTimeout(r, 3_000)); // a few sweeps and storage retries more
        const whileFull = await networkCounts(nets!);
        const sentWhileFull = (whileFull.microblog.get(text) ?? 0) + (whileFull.fedblog.get(text) ?? 0);
        const chargedWhileFull = spentBefore - spent(dataDir);
        const failedWhileFull = entryCounts(dataDir).failed ?? 0;
        Object.assign(fig, { sentWhileFull, chargedWhileFull, wronglyFailed: failedWhileFull });
        expect.soft(sentWhileFull).toBe(0);
        expect.soft(chargedWhileFull).toBe(0);
        expect.soft(failedWhileFull).toBe(0);
        expect.soft(readDb(dataDir, (db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');

        // Space returns: the post goes out once to each network, charged once each.
        fs.rmSync(filler);
        const recoveredAt = Date.now();
        await until(
          'the scheduled post to publish once space returned',
          () => entryCounts(dataDir).done === 2 || undefined,
          90_000,
          250,
        ).catch(() => undefined);
        fig.recovery = (Date.now() - recoveredAt) / 1000;
        const counts = await networkCounts(nets!);
        fig.published = (counts.microblog.get(text) === 1 ? 1 : 0) + (counts.fedblog.get(text) === 1 ? 1 : 0);
        expect(counts.microblog.get(text)).toBe(1);
        expect(counts.fedblog.get(text)).toBe(1);
        const progress = (await child.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key })).body;
        expect(progress.entries.map((e: any) => [e.status, e.waitingFor])).toEqual([
          ['published', null],
          ['published', null],
        ]);
        const charged = spentBefore - spent(dataDir);
        expect(charged).toBeGreaterThan(0);
        expect(charged % 2).toBe(0); // one charge per network, the same cost each

        // Nothing half-written: every acknowledged write whole, no refused one at all.
        const file = readDb(dataDir, (db) => ({
          integrity: db.pragma('integrity_check', { simple: true }),
          drafts: new Map(
            (
              db
                .prepare(
                  'SELECT d.title, COUNT(t.id) AS posts FROM drafts d LEFT JOIN tweets t ON t.draft_id = d.id ' +
                    "WHERE d.title LIKE 'disk-full write %' GROUP BY d.id",
                )
                .all() as { title: string; posts: number }[]
            ).map((r) => [r.title, r.posts]),
          ),
        }));
        expect(file.integrity).toBe('ok');
        const lost = acked.filter((t) => file.drafts.get(t) !== 2);
        const halfWritten = refused.filter((t) => file.drafts.has(t));
        fig.lost = lost.length;
        fig.halfWritten = halfWritten.length;
        expect(lost).toEqual([]);
        expect(halfWritten).toEqual([]);

        // And Herald works again without a restart.
        expect(
          (
            await child.call('POST', '/microblog/drafts', {
              key,
              body: { title: 'after', tweets: [{ content: 'space again' }] },
            })
          ).status,
        ).toBe(200);
        const again = await upload(child.apiUrl, key, [
          { filename: 'photo.png', type: 'image/png', data: png(300, 300, 64 * 1024) },
        ]);
        expect(again.status).toBe(200);
        expect(mediaFiles(dataDir)).toEqual(mediaRows(dataDir));
      } finally {
        report();
      }
      await child.kill('SIGTERM');
    },
    180_000,
  );
});
