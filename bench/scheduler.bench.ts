/**
 * Scheduler (docs/decisions.md §20.3): the compiled Herald in its own process with 40 accounts
 * on the X, Mastodon, Threads and LinkedIn simulators (10 each, connected over OAuth).
 *
 * 1. 10,000 entries due within 60 s (2,500 drafts × 4 networks, at random instants of the
 *    window) while the API serves a steady background load (GET /me at a fixed rate). Every post
 *    is counted at its simulator (fired exactly once), and each entry's lateness is measured from
 *    Herald's own records against its target time: dispatch (its publication started) and
 *    published (the network answered). RSS of the server: before scheduling, with the 10,000
 *    pending, peak while firing, and 30 s after the last one settled (the peak is mostly heap V8
 *    grew during the burst and gives back once idle). Goal (docs/decisions.md §20.3): 100% exactly once; fired
 *    p99 ≤ 25 ms, max ≤ 250 ms.
 * 2. 100,000 pending entries. The goal's "scheduling them ≤ 1 s" is the scheduler's part: its
 *    wake-up armed for them, which with one node-schedule job per post would mean 100,000 jobs
 *    (docs/decisions.md §20.3); here one timer, rebuilt from the database at every start, so the figure is the
 *    restart with them pending (from the scheduler's own start-up line), beside its start on the
 *    empty queue. Taking them in over HTTP (2,500 requests of 40 targets over 8 connections) is
 *    printed against its floor measured in the same run: a bare better-sqlite3 loop writing the
 *    same rows in as many transactions. Also the RSS they add, the latency of one more schedule
 *    request with them pending, and 1,000 entries due in the same second among them: time until
 *    all were claimed, dispatched and published. Goals: armed ≤ 1 s; RSS growth ≤ 32 MB; the 1,000
 *    dispatched within 1 s.
 *
 * One run by default (BENCH_RUNS for more): a run takes about four minutes, and its figures are
 * distributions over 10,000 and 1,000 entries, not single timings.
 *
 * BENCH_SCHED_NO_FSYNC=1 (diagnostic, needs Debian's eatmydata): the server runs with fsync made a
 * no-op, to show how much of the lateness is the disk (every publish commits its outbox steps
 * with synchronous=FULL) rather than the scheduler.
 */
import Database from 'better-sqlite3';
import autocannon from '../test/helpers/load.js';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uuidV7 } from '../server/core/ids.js';
import { openDatabase } from '../server/db/connection.js';
import type { TestServer } from '../test/helpers/server.js';
import { connectOAuth } from '../test/helpers/oauth-connect.js';
import {
  finishGoals,
  fmt,
  goal,
  loadNote,
  percentile,
  printTable,
  rssBytes,
  startHerald,
  stats,
  type HeraldChild,
} from './lib.js';
import { startSimulators, type Simulators } from './networks.js';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const ENTRIES = Number(process.env.BENCH_SCHED_ENTRIES ?? 10_000);
const WINDOW_MS = 60_000;
const PER_NETWORK = 10;
const NETWORKS = ['microblog', 'fedblog', 'threadblog', 'problog'] as const;
type Net = (typeof NETWORKS)[number];
const PENDING = Number(process.env.BENCH_SCHED_PENDING ?? 100_000);
const SAME_SECOND = 1_000;
const EATMYDATA = '/usr/lib/x86_64-linux-gnu/libeatmydata.so';
const NO_FSYNC = process.env.BENCH_SCHED_NO_FSYNC === '1';
if (NO_FSYNC && !fs.existsSync(EATMYDATA))
  throw new Error(`BENCH_SCHED_NO_FSYNC needs ${EATMYDATA} (apt-get install eatmydata)`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connects PER_NETWORK accounts on each simulator through Herald's OAuth flows. */
async function connectMany(h: HeraldChild, sims: Simulators): Promise<Record<Net, string[]>> {
  const t = { call: h.call } as unknown as Pick<TestServer, 'call'>;
  const out = { microblog: [], fedblog: [], threadblog: [], problog: [] } as Record<Net, string[]>;
  for (let i = 0; i < PER_NETWORK; i++) {
    const name = `bench${i}`;
    sims.x.addUser({ username: name, name });
    sims.x.setCurrentUser(name);
    sims.masto.addAccount({ username: name });
    sims.masto.setCurrentUser(name);
    sims.threads.addUser({ username: name });
    sims.threads.setCurrentUser(name);
    sims.li.addMember({ name: `Bench Member ${i}` });
    sims.li.setCurrentUser(`Bench Member ${i}`);
    for (const [net, body] of [
      ['microblog', {}],
      ['fedblog', { instanceUrl: sims.masto.url }],
      ['threadblog', {}],
      ['problog', {}],
    ] as const) {
      const r = await connectOAuth(t, h.key, net, body);
      if (r.status !== 200) throw new Error(`connecting ${net} answered ${r.status}: ${JSON.stringify(r.body)}`);
      out[net].push(r.body.accountUuid as string);
    }
  }
  return out;
}

/** The server's clock is this machine's: both processes read the same wall clock. */
async function createDrafts(h: HeraldChild, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let b = 0; b < count; b += 100) {
    const n = Math.min(100, count - b);
    const r = await h.ok('POST', '/microblog/drafts/batch', {
      drafts: Array.from({ length: n }, (_, i) => ({
        title: `${label} ${b + i}`,
        tweets: [{ content: `${label} ${b + i}: scheduled by the bench` }],
      })),
    });
    ids.push(...r.drafts.map((d: { id: string }) => d.id));
  }
  return ids;
}

function db(h: HeraldChild): Database.Database {
  const d = new Database(path.join(h.dataDir, 'herald.db'), { readonly: true, fileMustExist: true });
  d.pragma('busy_timeout = 5000');
  return d;
}

/** Steady background API load: GET /me at a fixed rate until stopped. */
function backgroundLoad(h: HeraldChild, rate: number) {
  let finish!: (r: autocannon.Result) => void;
  const done = new Promise<autocannon.Result>((resolve) => {
    finish = resolve;
  });
  const instance = autocannon(
    { url: `${h.base}/me`, headers: { 'svc-key': h.key }, connections: 10, overallRate: rate, duration: 3600 },
    (err, result) => {
      if (err) throw err;
      finish(result);
    },
  );
  return {
    stop: async () => {
      instance.stop();
      return done;
    },
  };
}

function countAtNetworks(sims: Simulators, prefix: string): { posts: number; duplicates: number } {
  let posts = 0;
  let duplicates = 0;
  for (const s of [sims.x, sims.masto, sims.threads, sims.li]) {
    const list = 'statuses' in s.state ? s.state.statuses : s.state.posts;
    const seen = new Map<string, number>();
    for (const p of list as {
      text?: string;
      commentary?: string;
      keptCommentary?: string;
      authorId?: string;
      accountId?: string;
      userId?: string;
      author?: string;
    }[]) {
      const text = p.text ?? p.keptCommentary ?? p.commentary ?? '';
      if (!text.startsWith(prefix)) continue;
      posts += 1;
      const k = `${p.authorId ?? p.accountId ?? p.userId ?? p.author}\u0000${text}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    for (const n of seen.values()) if (n > 1) duplicates += n - 1;
  }
  return { posts, duplicates };
}

interface TenK {
  fired: number;
  duplicates: number;
  claim: number[];
  dispatch: number[];
  published: number[];
  rss: { before: number; pending: number; peak: number; after: number };
  scheduleS: number;
  apiRps: number;
  apiP99: number;
}

async function tenThousand(
  h: HeraldChild,
  sims: Simulators,
  accounts: Record<Net, string[]>,
  run: number,
): Promise<TenK> {
  const prefix = `Ten-k run ${run}`;
  const drafts = await createDrafts(h, ENTRIES / NETWORKS.length, prefix);
  const rssBefore = rssBytes(h.child.pid!);
  const scheduleStarted = Date.now();
  // Due from 20 s from now: time enough to schedule them all first (BENCH_SCHED_LEAD_S more on a
  // machine so loaded that taking them in takes longer).
  const start = Date.now() + 20_000 + drafts.length * 2 + Number(process.env.BENCH_SCHED_LEAD_S ?? 0) * 1000;
  for (const [i, draftId] of drafts.entries()) {
    const at = start + Math.floor(Math.random() * WINDOW_MS);
    const targetAccounts = NETWORKS.map((platform) => ({ accountId: accounts[platform][i % PER_NETWORK], platform }));
    await h.ok('POST', '/microblog/schedule', {
      draftId,
      scheduledFor: new Date(at).toISOString(),
      targetAccounts,
      applyJitter: false,
    });
  }
  const scheduleS = (Date.now() - scheduleStarted) / 1000;
  if (Date.now() > start)
    throw new Error(`scheduling took ${scheduleS} s, past the window's start: try BENCH_SCHED_LEAD_S=60`);
  const rssPending = rssBytes(h.child.pid!);
  let peak = rssPending;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(h.child.pid!));
    } catch {
      /* gone */
    }
  }, 200);
  const load = backgroundLoad(h, 200);
  const d = db(h);
  const due = d
    .prepare(
      'SELECT e.id, e.due_at AS dueAt FROM schedule_entries e JOIN drafts dr ON dr.id = e.draft_id WHERE ' +
        'dr.title LIKE ? ORDER BY e.due_at',
    )
    .all(`${prefix} %`) as { id: string; dueAt: number }[];
  const fired: number[] = [];
  try {
    // Fired = claimed by the scheduler: an entry due by now and no longer pending. Polled every few
    // ms through the (status, due_at) index, so each figure is an upper bound, off by one poll.
    const backlogQ = d.prepare("SELECT id FROM schedule_entries WHERE status = 'pending' AND due_at <= ?");
    let next = 0;
    const watching = new Map<string, number>();
    const deadline = start + WINDOW_MS + 120_000;
    while (next < due.length || watching.size > 0) {
      const now = Date.now();
      if (now > deadline) break;
      const backlog = new Set((backlogQ.all(now) as { id: string }[]).map((r) => r.id));
      while (next < due.length && due[next].dueAt <= now) {
        watching.set(due[next].id, due[next].dueAt);
        next += 1;
      }
      for (const [id, dueAt] of watching)
        if (!backlog.has(id)) {
          fired.push(now - dueAt);
          watching.delete(id);
        }
      await sleep(next < due.length && due[next].dueAt - Date.now() > 20 ? 10 : 2);
    }
    for (;;) {
      const { n } = d
        .prepare(
          'SELECT COUNT(*) AS n FROM schedule_entries e JOIN drafts dr ON dr.id = e.draft_id WHERE dr.title ' +
            "LIKE ? AND e.status IN ('pending', 'claimed')",
        )
        .get(`${prefix} %`) as { n: number };
      if (n === 0 || Date.now() > deadline) break;
      await sleep(500);
    }
  } finally {
    clearInterval(sampler);
  }
  const api = await load.stop();
  // V8 gives back the heap it grew during the burst once idle: RSS 30 s later is what stays.
  await sleep(30_000);
  const rssAfter = rssBytes(h.child.pid!);
  const rows = d
    .prepare(
      `SELECT e.fire_at AS fireAt, p.created_at AS startedAt, p.published_at AS publishedAt FROM schedule_entries e
    JOIN drafts dr ON dr.id = e.draft_id LEFT JOIN publications p ON p.draft_id = e.draft_id AND p.account_id =
        e.account_id WHERE dr.title LIKE ?`,
    )
    .all(`${prefix} %`) as { fireAt: number; startedAt: string | null; publishedAt: string | null }[];
  d.close();
  const { posts, duplicates } = countAtNetworks(sims, prefix);
  return {
    fired: posts,
    duplicates,
    claim: fired,
    dispatch: rows.filter((r) => r.startedAt).map((r) => Date.parse(r.startedAt!) - r.fireAt),
    published: rows.filter((r) => r.publishedAt).map((r) => Date.parse(r.publishedAt!) - r.fireAt),
    rss: { before: rssBefore, pending: rssPending, peak, after: rssAfter },
    scheduleS,
    apiRps: api.requests.average,
    apiP99: api.latency.p99,
  };
}

interface HundredK {
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

/** Connections the 100k scheduling requests are spread over, as a script scheduling a backlog would. */
const CONNECTIONS = Number(process.env.BENCH_SCHED_CONNECTIONS ?? 8);

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

/** The scheduler's start-up line: entries pending, and how long arming its wake-up from the database took. */
async function armed(h: HeraldChild): Promise<{ pending: number; ms: number }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const m = /Scheduler: ([\d,]+) pending, next wake-up \S+ \(armed in ([\d.]+) ms\)/.exec(h.output());
    if (m) return { pending: Number(m[1].replaceAll(',', '')), ms: Number(m[2]) };
    if (Date.now() > deadline) throw new Error(`no scheduler start-up line in: ${h.output().slice(-300)}`);
    await sleep(20);
  }
}

async function hundredThousand(
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
function jobPerEntry(): { n: number; s: number }[] {
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

const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const tenK: TenK[] = [];
const hundredK: HundredK[] = [];
for (let run = 1; run <= RUNS; run++) {
  const sims = await startSimulators();
  // Herald fires every post itself: with the Mastodon hand-off (on by default) the posts due later
  // on the Mastodon accounts would be scheduled on the simulator instead, a quarter of them.
  const env = { ...sims.settings, HERALD_FEDBLOG_HAND_OFF: '0', ...(NO_FSYNC ? { LD_PRELOAD: EATMYDATA } : {}) };
  let h = await startHerald(env);
  try {
    const empty = await armed(h);
    if (empty.pending !== 0) throw new Error(`a new data folder has ${empty.pending} pending`);
    const accounts = await connectMany(h, sims);
    tenK.push(await tenThousand(h, sims, accounts, run));
    const scale = await hundredThousand(h, env, empty, sims, accounts, run);
    h = scale.h;
    hundredK.push(scale.r);
  } finally {
    await h.stop();
    await sims.close();
  }
}

const med = (xs: number[]) => stats(xs).median;
const diag = NO_FSYNC ? ' [diagnostic: fsync disabled with eatmydata]' : '';
printTable(
  `Scheduler: ${ENTRIES.toLocaleString('en')} entries due within 60 s, 40 accounts on 4 simulators, GET /me ` +
    `at 200 req/s alongside; ${RUNS} run(s)${diag}`,
  [
    [
      'run',
      'fired once',
      'duplicates',
      'fired (claimed) p50 / p99 / max ms',
      'dispatch p50 / p99 / max ms',
      'published p50 / p99 / max ms',
      'RSS before → 10k pending → peak → 30 s after',
      'API req/s, p99 ms',
    ],
    ...tenK.map((r, i) => [
      String(i + 1),
      `${r.fired}/${ENTRIES} (${fmt((100 * r.fired) / ENTRIES, 1)}%)`,
      String(r.duplicates),
      `${fmt(percentile(r.claim, 50))} / ${fmt(percentile(r.claim, 99))} / ${fmt(Math.max(...r.claim))} (` +
        `${r.claim.length})`,
      `${fmt(percentile(r.dispatch, 50))} / ${fmt(percentile(r.dispatch, 99))} / ${fmt(Math.max(...r.dispatch))}`,
      `${fmt(percentile(r.published, 50))} / ${fmt(percentile(r.published, 99))} / ${fmt(Math.max(...r.published))}`,
      `${mb(r.rss.before)} → ${mb(r.rss.pending)} → ${mb(r.rss.peak)} → ${mb(r.rss.after)}`,
      `${fmt(r.apiRps)}, ${fmt(r.apiP99)}`,
    ]),
  ],
);
console.log(
  'goal (docs/decisions.md §20.3): 100% fired exactly once; lateness p99 ≤ 25 ms, max ≤ 250 ms. Fired: the ' +
    'scheduler claimed it (polled, upper bound); dispatch: its publication started (after the posts before it ' +
    'on the same account); published: the network answered',
);
printTable(
  `Scheduler scale: ${PENDING.toLocaleString('en')} pending entries; ${SAME_SECOND} due in the same second ` +
    `among them; ${RUNS} run(s)${diag}`,
  [
    [
      'run',
      'scheduler armed at start: 100k pending / empty queue',
      `schedule 100k over HTTP (${PENDING / 40} requests of 40, ${CONNECTIONS} connections)`,
      'bare better-sqlite3, same rows and transactions',
      'HTTP ÷ bare',
      'CPU: server ÷ bare (ms per request)',
      'RSS growth: 2 s / 15 s after',
      'one more schedule p50 / p99 ms',
      '1,000 due: claimed / dispatched / published by',
      'fired once, duplicates',
    ],
    ...hundredK.map((r, i) => [
      String(i + 1),
      `${fmt(r.armedMs)} ms / ${fmt(r.armedEmptyMs)} ms`,
      `${fmt(r.scheduleS)} s (${fmt(PENDING / r.scheduleS)} entries/s)`,
      `${fmt(r.bareS)} s`,
      `${fmt(r.scheduleS / r.bareS)}×`,
      `${fmt(r.scheduleCpuMs / r.bareCpuMs)}× (${fmt(r.scheduleCpuMs / (PENDING / 40), 2)} / ` +
        `${fmt(r.bareCpuMs / (PENDING / 40), 2)})`,
      `${mb(r.rssGrowthSoon)} / ${mb(r.rssGrowth)}`,
      `${fmt(r.oneMoreP50)} / ${fmt(r.oneMoreP99)}`,
      `${fmt(r.claimedMs)} / ${fmt(r.dispatchedMs)} / ${fmt(r.publishedMs)} ms`,
      `${r.fired}/${SAME_SECOND}, ${r.duplicates}`,
    ]),
  ],
);
const naive = jobPerEntry();
const exponent = Math.log(naive[1].s / naive[0].s) / Math.log(naive[1].n / naive[0].n);
// Extrapolated as n² (a lower bound whenever the two points grew faster than that).
const naive100k = naive[1].s * (PENDING / naive[1].n) ** 2;
console.log(
  `one node-schedule job per entry instead (this process): ` +
    `${naive.map((x) => `${x.n.toLocaleString('en')} jobs ${fmt(x.s)} s`).join(', ')}; growth between them ∝ n^` +
    `${fmt(exponent, 1)}; as n², ${PENDING.toLocaleString('en')} would take ${fmt(naive100k)} s`,
);
console.log(
  'goal: scheduling 100k pending ≤ 1 s (the scheduler: one wake-up armed from an indexed table, rebuilt at ' +
    'every start, instead of a node-schedule job per post); RSS growth ≤ 32 MB (15 s after); the 1,000 ' +
    'dispatched within 1 s. Taking the 100k in over HTTP is bound by writing them: compare it with the bare ' +
    'writes',
);
if (RUNS > 1)
  console.log(
    `medians over ${RUNS} runs: fired p99 ${fmt(med(tenK.map((r) => percentile(r.claim, 99))))} ms, dispatch ` +
      `p99 ${fmt(med(tenK.map((r) => percentile(r.dispatch, 99))))} ms, 1,000 dispatched by ` +
      `${fmt(med(hundredK.map((r) => r.dispatchedMs)))} ms`,
  );
console.log(loadNote());
tenK.forEach((r, i) => {
  goal(
    `run ${i + 1}: ${r.fired}/${ENTRIES} fired, ${r.duplicates} duplicates (goal: all, once)`,
    r.fired === ENTRIES && r.duplicates === 0,
  );
  const p99 = percentile(r.claim, 99);
  const max = Math.max(...r.claim);
  goal(`run ${i + 1}: fired p99 ${fmt(p99)} ms (goal ≤ 25 ms)`, p99 <= 25);
  goal(`run ${i + 1}: fired max ${fmt(max)} ms (goal ≤ 250 ms)`, max <= 250);
});
hundredK.forEach((r, i) => {
  goal(
    `run ${i + 1}: ${r.fired}/${SAME_SECOND} due together fired, ${r.duplicates} duplicates`,
    r.fired === SAME_SECOND && r.duplicates === 0,
  );
  goal(`run ${i + 1}: 100k armed in ${fmt(r.armedMs)} ms (goal ≤ 1 s)`, r.armedMs <= 1000);
  goal(`run ${i + 1}: RSS growth ${mb(r.rssGrowth)} (goal ≤ 32 MB)`, r.rssGrowth <= 32 * 1024 * 1024);
  goal(`run ${i + 1}: 1,000 dispatched by ${fmt(r.dispatchedMs)} ms (goal ≤ 1 s)`, r.dispatchedMs <= 1000);
});
finishGoals();
