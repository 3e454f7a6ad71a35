/**
 * The scheduler bench's second part: 100,000 pending entries taken in over HTTP (against a bare
 * better-sqlite3 loop writing the same rows), the RSS they add, one more schedule request among
 * them, 1,000 due in the same second, and the restart that arms the scheduler with them pending;
 * and, for comparison, the design ruled out (one node-schedule job per entry).
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uuidV7 } from '../../server/core/ids.js';
import { openDatabase } from '../../server/db/connection.js';
import { percentile, rssBytes, startHerald, type HeraldChild } from '../lib.js';
import type { Simulators } from '../networks.js';
import {
  armed,
  CONNECTIONS,
  countAtNetworks,
  createDrafts,
  db,
  NETWORKS,
  PENDING,
  PER_NETWORK,
  SAME_SECOND,
  sleep,
  type Net,
} from './common.js';

export interface HundredK {
  scheduleS: number;
  bareS: number;
  scheduleCpuMs: number;
  bareCpuMs: number;
  armedMs: number;
  armedEmptyMs: number;
  rssGrowthSoon: number;
  rssGrowth: number;
  oneMoreP50: number;
  oneMoreP99: number;
  claimedMs: number;
  dispatchedMs: number;
  publishedMs: number;
  fired: number;
  duplicates: number;
}

/**
 * Baseline: the same rows written by a bare better-sqlite3 loop, in the same number of
 * transactions of the same size (40 entries and the draft's status, synchronous=FULL, WAL, the
 * same table and indexes from Herald's migrations, time-ordered ids): what the disk and SQLite
 * cost, with no HTTP, validation or scheduler around them.
 */
function bareWrites(drafts: number, perDraft: number): { s: number; cpuMs: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-bare-'));
  const bare = openDatabase(path.join(dir, 'bare.db'));
  const d = bare.sqlite;
  try {
    const now = new Date().toISOString();
    const user = crypto.randomUUID();
    d.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run(user, 'bare@example.test', now);
    const draftIds = Array.from({ length: drafts }, () => crypto.randomUUID());
    const addDraft = d.prepare(
      'INSERT INTO drafts (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    d.transaction(() => {
      for (const id of draftIds) addDraft.run(id, user, 'bare', now, now);
    })();
    const accounts = Array.from({ length: perDraft }, () => crypto.randomUUID());
    const ins = d.prepare(`INSERT INTO schedule_entries (id, user_id, draft_id, account_id, platform, fire_at, due_at,
            requested_at, priority, attempts, status, created_at)
      VALUES (?, ?, ?, ?, 'microblog', ?, ?, ?, 0, 0, 'pending', ?)`);
    const upd = d.prepare("UPDATE drafts SET status = 'scheduled', scheduled_for = ?, updated_at = ? WHERE id = ?");
    const at = Date.now() + 86_400_000;
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (const draftId of draftIds) {
      d.transaction(() => {
        for (const accountId of accounts) ins.run(uuidV7(), user, draftId, accountId, at, at, at, now);
        upd.run(new Date(at).toISOString(), now, draftId);
      })();
    }
    const used = process.cpuUsage(cpu);
    return { s: (performance.now() - started) / 1000, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    bare.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CPU time a process has spent, ms (/proc/<pid>/schedstat): unlike wall time, other work on the machine barely moves
 * it.
 */
function cpuMs(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

export async function hundredThousand(
  h: HeraldChild,
  env: Record<string, string>,
  empty: { pending: number; ms: number },
  sims: Simulators,
  accounts: Record<Net, string[]>,
  run: number,
): Promise<{ h: HeraldChild; r: HundredK }> {
  const all = NETWORKS.flatMap((platform) => accounts[platform].map((accountId) => ({ accountId, platform })));
  const drafts = await createDrafts(h, PENDING / all.length, `Pending run ${run}`);
  const rssBefore = rssBytes(h.child.pid!);
  const far = new Date(Date.now() + 86_400_000).toISOString();
  const cpuBefore = cpuMs(h.child.pid!);
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < drafts.length)
        await h.ok('POST', '/microblog/schedule', {
          draftId: drafts[next++],
          scheduledFor: far,
          targetAccounts: all,
          applyJitter: false,
        });
    }),
  );
  const scheduleS = (Date.now() - started) / 1000;
  const scheduleCpuMs = cpuMs(h.child.pid!) - cpuBefore;
  await sleep(2000);
  const rssGrowthSoon = rssBytes(h.child.pid!) - rssBefore;
  // What stays once V8 has given back the heap it grew while taking 2,500 requests in.
  await sleep(13_000);
  const rssGrowth = rssBytes(h.child.pid!) - rssBefore;
  const { s: bareS, cpuMs: bareCpuMs } = bareWrites(drafts.length, all.length);
  // One more request with them pending.
  const [probe] = await createDrafts(h, 1, `Probe run ${run}`);
  const lat: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = process.hrtime.bigint();
    await h.ok('POST', '/microblog/schedule', {
      draftId: probe,
      scheduledFor: far,
      targetAccounts: all.slice(0, 1),
      applyJitter: false,
    });
    lat.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  // 1,000 due in the same second.
  const prefix = `Same second run ${run}`;
  const same = await createDrafts(h, SAME_SECOND / NETWORKS.length, prefix);
  const at = Math.ceil((Date.now() + 15_000 + Number(process.env.BENCH_SCHED_LEAD_S ?? 0) * 1000) / 1000) * 1000;
  for (const [i, draftId] of same.entries()) {
    const targetAccounts = NETWORKS.map((platform) => ({ accountId: accounts[platform][i % PER_NETWORK], platform }));
    await h.ok('POST', '/microblog/schedule', {
      draftId,
      scheduledFor: new Date(at + (i % 1000)).toISOString(),
      targetAccounts,
      applyJitter: false,
    });
  }
  const d = db(h);
  const q = {
    left: d.prepare(
      'SELECT COUNT(*) AS n FROM schedule_entries e JOIN drafts dr ON dr.id = e.draft_id WHERE dr.title LIKE ' +
        "? AND e.status = 'pending'",
    ),
    unpublished: d.prepare(
      'SELECT COUNT(*) AS n FROM schedule_entries e JOIN drafts dr ON dr.id = e.draft_id WHERE dr.title LIKE ' +
        "? AND e.status IN ('pending', 'claimed')",
    ),
    times: d.prepare(
      `SELECT MAX(p.created_at) AS dispatched, MAX(p.published_at) AS published FROM publications p JOIN drafts dr ON
                dr.id = p.draft_id WHERE dr.title LIKE ?`,
    ),
  };
  while (Date.now() < at) await sleep(Math.min(50, at - Date.now()));
  let claimedMs = NaN;
  const deadline = at + 120_000;
  for (;;) {
    const now = Date.now();
    if (Number.isNaN(claimedMs) && (q.left.get(`${prefix} %`) as { n: number }).n === 0) claimedMs = now - at;
    if ((q.unpublished.get(`${prefix} %`) as { n: number }).n === 0 || now > deadline) break;
    await sleep(Number.isNaN(claimedMs) ? 2 : 100);
  }
  const t = q.times.get(`${prefix} %`) as { dispatched: string; published: string };
  d.close();
  const { posts, duplicates } = countAtNetworks(sims, prefix);
  // The scheduler rebuilds its wake-up from the database at every start: restarted with the
  // 100,000 pending (last, so the figures above come from the process that took them in),
  // against its start on an empty queue (this run's first start).
  await h.halt();
  const restarted = await startHerald(env, { dataDir: h.dataDir });
  const full = await armed(restarted);
  if (full.pending < PENDING) throw new Error(`the restart saw ${full.pending} pending, not ${PENDING}`);
  return {
    h: restarted,
    r: {
      scheduleS,
      bareS,
      scheduleCpuMs,
      bareCpuMs,
      armedMs: full.ms,
      armedEmptyMs: empty.ms,
      rssGrowthSoon,
      rssGrowth,
      oneMoreP50: percentile(lat, 50),
      oneMoreP99: percentile(lat, 99),
      claimedMs,
      dispatchedMs: Date.parse(t.dispatched) - at,
      publishedMs: Date.parse(t.published) - at,
      fired: posts,
      duplicates,
    },
  };
}

/**
 * The design ruled out, timed in this process for comparison: one node-schedule job
 * per entry, at random instants of a 6-minute window a day out (jitter). Arming 100,000 that way
 * takes minutes (its list of invocations is kept sorted by insertion), so it runs at 10,000 and
 * 20,000 and the 100,000 figure is extrapolated as n² (the measured growth is printed beside it).
 */
export function jobPerEntry(): { n: number; s: number }[] {
  const nodeSchedule = createRequire(import.meta.url)('node-schedule') as typeof import('node-schedule');
  return [10_000, 20_000].map((n) => {
    const base = Date.now() + 86_400_000;
    const started = performance.now();
    const jobs = Array.from({ length: n }, () =>
      nodeSchedule.scheduleJob(new Date(base + Math.floor(Math.random() * 360_000)), () => {}),
    );
    const s = (performance.now() - started) / 1000;
    for (const j of jobs) j.cancel();
    return { n, s };
  });
}
