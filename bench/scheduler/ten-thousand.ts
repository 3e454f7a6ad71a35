/**
 * The scheduler bench's first part: 10,000 entries due within 60 s while the API serves a steady
 * background load. Each entry's lateness (claimed, dispatched, published), the posts counted at
 * the simulators, and the server's RSS before, pending, at its peak and 30 s after.
 */
import autocannon from '../../test/helpers/load.js';
import { rssBytes, type HeraldChild } from '../lib.js';
import type { Simulators } from '../networks.js';
import {
  countAtNetworks,
  createDrafts,
  db,
  ENTRIES,
  NETWORKS,
  PER_NETWORK,
  sleep,
  WINDOW_MS,
  type Net,
} from './common.js';

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

export interface TenK {
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

export async function tenThousand(
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
