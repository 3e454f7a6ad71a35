/**
 * The scheduler as a person runs it: the real headless server (server/main.ts) in its own
 * process, accounts on all five networks connected over HTTP (X, Mastodon, Threads and LinkedIn
 * simulators, a real Bluesky PDS), posts scheduled over HTTP and counted where they land. Time
 * is real, or moved with libfaketime: sped up ×10 so the ±3-minute jitter fits in seconds, moved
 * 3 hours on while the app is closed, and jumped 60 days ahead while it runs.
 *
 * Issue 6, "Done when": 50 posts within their jitter windows, exactly once; the downtime grace
 * rule; one scheduler per data folder; a post 60 days out.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startNetworks, type Networks } from '../helpers/networks.js';
import { tempDir } from '../helpers/server.js';
import {
  childEnv,
  childNow,
  createDrafts,
  entryCounts,
  networkCounts,
  networkOrder,
  percentile,
  PLATFORMS,
  readDb,
  schedule,
  startConnected,
  until,
} from './harness.js';

const JITTER = 180_000;
let nets: Networks;
const children: ChildServer[] = [];
const dirs: string[] = [];

function dir(label: string): string {
  const d = tempDir(`herald-sched-${label}-`);
  dirs.push(d);
  return d;
}

beforeAll(async () => {
  // Threads readies containers at once: the child polls at production pace (every 3 s).
  nets = await startNetworks({ pds: true, containerReadyMs: 0 });
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await nets?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('a Herald process firing scheduled posts', () => {
  it(
    'publishes 50 posts across the five networks, due within 30 s, exactly once, each within its jitter window ' +
      '(clock ×10)',
    async () => {
      const SPEED = 10;
      const dataDir = dir('fifty');
      const { child, key } = await startConnected(nets, { dataDir, env: childEnv(nets), faketime: { spec: '+0 x10' } });
      children.push(child);
      const texts = Array.from({ length: 10 }, (_, i) => [`Fifty ${i + 1}: jittered, exactly once`]);
      const draftIds = await createDrafts(child, key, texts);
      const scheduledAt = await childNow(child);
      const base = scheduledAt + 5_000;
      const requested = new Map<string, number>();
      for (const [i, draftId] of draftIds.entries()) {
        const at = base + Math.round((i * 30_000) / (draftIds.length - 1));
        requested.set(draftId, at);
        const r = await schedule(child, key, { draftId, scheduledFor: new Date(at).toISOString() });
        expect(r).toMatchObject({ success: true, accountCount: 5, scheduledFor: new Date(at).toISOString() });
      }
      // What is still pending is listed soonest first (a jitter of -180 s may have fired some already).
      const list = (await child.call('GET', '/microblog/schedule', { key })).body.schedules as {
        scheduledFor: string;
      }[];
      expect(list.map((e) => e.scheduledFor)).toEqual(list.map((e) => e.scheduledFor).sort());
      const entries = readDb(dataDir, (db) =>
        db
          .prepare(
            'SELECT id, draft_id AS draftId, fire_at AS fireAt, requested_at AS requestedAt FROM schedule_entries',
          )
          .all(),
      ) as { id: string; draftId: string; fireAt: number; requestedAt: number }[];
      expect(entries).toHaveLength(50);
      for (const e of entries) {
        expect(e.requestedAt).toBe(requested.get(e.draftId));
        expect(Math.abs(e.fireAt - e.requestedAt)).toBeLessThanOrEqual(JITTER);
        expect(e.fireAt).toBeGreaterThan(scheduledAt - 1000); // never in the past (the Date header has whole seconds)
      }
      // Every entry has its own offset (the later half of them: an early one may be held at "now").
      const later = entries.map((e) => e.fireAt - e.requestedAt).filter((o) => o > 0);
      expect(later.length).toBeGreaterThan(10);
      // (Offsets are whole milliseconds of 3 minutes: two of 25 alike happens about once in 600 runs.)
      expect(new Set(later).size).toBeGreaterThanOrEqual(later.length - 1);

      // The last one is due at most 30 s + 180 s (of the child's clock) after the first request: ~21 s here.
      await until('all 50 entries to settle', () => entryCounts(dataDir).done === 50 || undefined, 120_000, 250);

      const counts = await networkCounts(nets);
      for (const p of PLATFORMS) for (const [text] of texts) expect(counts[p].get(text), `${p}: ${text}`).toBe(1);
      // Each went out at or after its own fire time and inside its jitter window. Posts to one
      // account go one after another, so one may wait for the one before it: the slack is for that
      // on a loaded machine (the bench holds the scheduler's own lateness to its goal).
      const rows = readDb(dataDir, (db) =>
        db
          .prepare(
            `SELECT e.fire_at AS fireAt, e.requested_at AS requestedAt, p.created_at AS startedAt, p.published_at AS
            publishedAt, p.status
      FROM schedule_entries e JOIN publications p ON p.draft_id = e.draft_id AND p.account_id = e.account_id`,
          )
          .all(),
      ) as { fireAt: number; requestedAt: number; startedAt: string; publishedAt: string; status: string }[];
      expect(rows).toHaveLength(50);
      const SLACK = 5_000 * SPEED;
      for (const r of rows) {
        expect(r.status).toBe('published');
        expect(Date.parse(r.startedAt)).toBeGreaterThanOrEqual(r.fireAt);
        // Begun (claimed, planned and charged) at its own fire time: within 4 real seconds of it (a
        // loaded CI machine read 2.007 s once; the figure printed below and the scheduler bench
        // hold the real goal, p99 in milliseconds).
        expect(Date.parse(r.startedAt) - r.fireAt).toBeLessThanOrEqual(4_000 * SPEED);
        expect(Date.parse(r.publishedAt)).toBeLessThanOrEqual(r.requestedAt + JITTER + SLACK);
      }
      const lateness = rows.map((r) => (Date.parse(r.startedAt) - r.fireAt) / SPEED);
      const drafts = readDb(dataDir, (db) => db.prepare('SELECT status, scheduled_for AS s FROM drafts').all()) as {
        status: string;
        s: string;
      }[];
      expect(drafts.every((d) => d.status === 'published')).toBe(true);
      const once = PLATFORMS.reduce((n, p) => n + texts.filter(([t]) => counts[p].get(t) === 1).length, 0);
      const duplicates = PLATFORMS.reduce(
        (n, p) => n + [...counts[p].values()].reduce((d, c) => d + Math.max(0, c - 1), 0),
        0,
      );
      console.log(
        `[scheduler] 50 posts on 5 networks, jitter ±180 s, clock ×${SPEED}: published exactly once ` +
          `${once}/50, duplicates ${duplicates}; dispatch lateness (real ms) p50 ` +
          `${percentile(lateness, 50).toFixed(0)}, p99 ${percentile(lateness, 99).toFixed(0)}, max ` +
          `${Math.max(...lateness).toFixed(0)}`,
      );
      await child.kill('SIGTERM');
    },
    180_000,
  );

  it(
    'after 3 h closed: posts late by at most the grace period publish in order, older ones are missed, ' +
      'uncharged and back to draft',
    async () => {
      const dataDir = dir('downtime');
      const first = await startConnected(nets, { dataDir, env: childEnv(nets) });
      children.push(first.child);
      const { key } = first;
      const t0 = await childNow(first.child);
      const MIN = 60_000;
      // 20 drafts × 5 accounts = 100 posts falling due every 9 minutes of the 3 h downtime, and 2 drafts due after it.
      const texts = Array.from({ length: 22 }, (_, i) => [
        `Downtime ${i + 1}: due ${i < 20 ? `${(i + 1) * 9} min into` : 'after'} the downtime`,
      ]);
      const draftIds = await createDrafts(first.child, key, texts);
      const due = draftIds.map((_, i) => t0 + (i < 20 ? (i + 1) * 9 * MIN : 180 * MIN + (i - 19) * 20 * MIN));
      for (const [i, draftId] of draftIds.entries())
        await schedule(first.child, key, { draftId, scheduledFor: new Date(due[i]).toISOString(), applyJitter: false });
      const balanceBefore = (await first.child.call('POST', '/credits', { key })).body.balance as number;
      expect((await first.child.kill('SIGTERM')).code).toBe(0);

      // Three hours later (libfaketime moves the clock; the networks keep real time).
      const THREE_HOURS = 3 * 3600;
      const child = await startChild({ dataDir, env: childEnv(nets), faketime: { spec: `+${THREE_HOURS}` } });
      children.push(child);
      const restartedAt = await childNow(child);
      expect(restartedAt - t0).toBeGreaterThanOrEqual(THREE_HOURS * 1000);
      await until(
        'the late and missed entries to settle',
        () => {
          const c = entryCounts(dataDir);
          return (c.done ?? 0) + (c.missed ?? 0) === 100 || undefined;
        },
        90_000,
        250,
      );

      const grace = 15 * MIN;
      // Due before the restart (the Date header has whole seconds: ±1 s), by how much.
      const late = draftIds.map((id, i) => ({ id, i, lateBy: restartedAt - due[i] })).filter((d) => d.lateBy > -2_000);
      const inGrace = late.filter((d) => d.lateBy <= grace - MIN); // a minute of margin for the start-up
      const missed = late.filter((d) => d.lateBy > grace + MIN);
      expect(inGrace.map((d) => d.i)).toEqual([18, 19]);
      expect(missed).toHaveLength(18);
      const counts = await networkCounts(nets);
      let wronglyPublished = 0;
      for (const p of PLATFORMS) {
        for (const d of inGrace) expect(counts[p].get(texts[d.i][0]), `${p}: ${texts[d.i][0]}`).toBe(1);
        for (const d of missed) wronglyPublished += counts[p].get(texts[d.i][0]) ?? 0;
        for (const i of [20, 21]) expect(counts[p].get(texts[i][0]) ?? 0).toBe(0);
        // In order: the one due first went out first.
        const order = (await networkOrder(nets, p)).filter((t) => t.startsWith('Downtime'));
        expect(order).toEqual([texts[18][0], texts[19][0]]);
      }
      expect(wronglyPublished).toBe(0);
      for (const d of missed) {
        const progress = (await child.call('GET', `/microblog/publish/progress?draftId=${d.id}`, { key })).body;
        expect(progress.entries).toHaveLength(5);
        expect(progress.entries.every((e: any) => e.status === 'missed' && /not running/.test(e.error))).toBe(true);
        expect(progress.summary).toMatchObject({ total: 5, completed: 0, failed: 5, pending: 0 });
        const draft = (await child.call('GET', `/microblog/drafts/${d.id}`, { key })).body.draft;
        expect(draft).toMatchObject({ status: 'draft', scheduledFor: null });
      }
      // Charged for the 10 that went out, not for the 90 missed ones.
      const balanceAfter = (await child.call('POST', '/credits', { key })).body.balance as number;
      expect(balanceBefore - balanceAfter).toBe(10 * 10);
      // The two due after the downtime still wait.
      const pending = (await child.call('GET', '/microblog/schedule', { key })).body.schedules;
      expect(pending).toHaveLength(10);
      console.log(
        `[scheduler] 3 h downtime, 100 posts due: on time 0, late within grace ${inGrace.length * 5} ` +
          `(published in order), missed ${missed.length * 5}, wrongly published ${wronglyPublished}`,
      );
      await child.kill('SIGTERM');
    },
    180_000,
  );

  it(
    'runs one scheduler per data folder: a second process fires nothing, and takes over once the first is ' + 'killed',
    async () => {
      // The second process reaches X, Threads and LinkedIn only through this trap: anything it fires lands here.
      const trapped: string[] = [];
      const trap = http.createServer((req, res) => {
        trapped.push(`${req.method} ${req.url?.split('?')[0]}`);
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"trap"}');
      });
      await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
      const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
      try {
        const dataDir = dir('two');
        const { child: a, key, ids } = await startConnected(nets, { dataDir, env: childEnv(nets) });
        children.push(a);
        const b = await startChild({
          dataDir,
          env: childEnv(nets, {
            HERALD_MICROBLOG_API_URL: trapUrl,
            HERALD_THREADBLOG_API_URL: trapUrl,
            HERALD_PROBLOG_API_URL: trapUrl,
          }),
        });
        children.push(b);
        const lockOwner = () => JSON.parse(fs.readFileSync(path.join(dataDir, 'scheduler.lock'), 'utf8')).pid as number;
        expect(lockOwner()).toBe(a.pid);

        const targets = (['microblog', 'threadblog', 'problog'] as Platform[]).map((platform) => ({
          accountId: ids[platform],
          platform,
        }));
        const texts = Array.from({ length: 5 }, (_, i) => [`Two processes ${i + 1}: fired by the lock holder only`]);
        const draftIds = await createDrafts(b, key, texts);
        const at = new Date((await childNow(b)) + 2_000).toISOString();
        for (const draftId of draftIds)
          await schedule(b, key, { draftId, scheduledFor: at, targetAccounts: targets, applyJitter: false });
        // Scheduled through B, which tells A nothing: A's sweep (1 s) finds them.
        await until('A to publish all 15', () => entryCounts(dataDir).done === 15 || undefined, 60_000, 200);
        const counts = await networkCounts(nets);
        for (const p of ['microblog', 'threadblog', 'problog'] as Platform[])
          for (const [t] of texts) expect(counts[p].get(t)).toBe(1);
        expect(trapped).toEqual([]);

        // A dies without releasing the lock; B finds it stale at its next sweep and fires from then on.
        await a.kill('SIGKILL');
        const [late] = await createDrafts(b, key, [['Two processes: fired by the survivor']]);
        await schedule(b, key, {
          draftId: late,
          scheduledFor: new Date((await childNow(b)) + 2_000).toISOString(),
          accountUuid: ids.microblog,
          platform: 'microblog',
          applyJitter: false,
        });
        await until(
          'B to take the lock over',
          () => {
            try {
              return lockOwner() === b.pid;
            } catch {
              return false;
            }
          },
          30_000,
          100,
        );
        await until(
          'B to fire the new post (into the trap)',
          () => trapped.some((r) => r.startsWith('POST /2/tweets')) || undefined,
          30_000,
          100,
        );
        console.log(
          `[scheduler] two processes on one folder: posts the second fired while the first lived 0 (15 by the ` +
            `first); after a SIGKILL of the first, the second took the lock over and fired`,
        );
        await b.kill('SIGTERM');
      } finally {
        await new Promise((r) => trap.close(r));
      }
    },
    180_000,
  );

  it(
    "fires a post 60 days out at its instant, past setTimeout's 24.8-day limit (libfaketime moves the running " +
      'clock)',
    async () => {
      const dataDir = dir('sixty');
      const stamp = path.join(dataDir, 'faketime');
      fs.writeFileSync(stamp, '+0\n');
      const { child, key } = await startConnected(nets, { dataDir, env: childEnv(nets), faketime: { file: stamp } });
      children.push(child);
      const [draftId] = await createDrafts(child, key, [['Sixty days on: still fired exactly once']]);
      const DAY = 86_400_000;
      const fireAt = (await childNow(child)) + 60 * DAY;
      await schedule(child, key, { draftId, scheduledFor: new Date(fireAt).toISOString(), applyJitter: false });
      // A plain setTimeout of 60 days would overflow and fire at once.
      await new Promise((r) => setTimeout(r, 1500));
      expect(entryCounts(dataDir)).toEqual({ pending: 5 });

      // The networks live in the present: Threads lets a token be refreshed once it is a day old.
      nets.threads.ageTokens(61 * 86_400);
      // Jump to 5 s before the post is due.
      const offset = Math.round((fireAt - 5_000 - Date.now()) / 1000);
      fs.writeFileSync(stamp, `+${offset}\n`);
      await until('the 60-day post to fire', () => entryCounts(dataDir).done === 5 || undefined, 60_000, 200);
      const counts = await networkCounts(nets);
      for (const p of PLATFORMS) expect(counts[p].get('Sixty days on: still fired exactly once'), p).toBe(1);
      const started = readDb(dataDir, (db) =>
        db.prepare('SELECT created_at AS startedAt FROM publications WHERE draft_id = ?').all(draftId),
      ) as { startedAt: string }[];
      const errors = started.map((r) => Date.parse(r.startedAt) - fireAt);
      for (const e of errors) expect(e).toBeGreaterThanOrEqual(0);
      console.log(
        `[scheduler] a post 60 days out: fired on 5/5 networks, double fires 0, largest firing error ` +
          `${Math.max(...errors)} ms`,
      );
      await child.kill('SIGTERM');
    },
    120_000,
  );
});
