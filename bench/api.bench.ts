/**
 * Keyed API throughput and latency: GET /me and GET /microblog/drafts (20 drafts) through the
 * Host guard, key auth and rate limit of the compiled server, against a raw node:http JSON server
 * measured in the same run with the same load generator (autocannon, from this process; each
 * server runs in its own). The runs alternate between targets so both see the same machine load.
 * Autocannon counts latency in whole milliseconds, so the 1-connection latencies come from a
 * plain keep-alive client here, timed per request with hrtime.
 * On a small shared machine req/s ratios move with the load (the load generator and the server
 * share the cores, and the raw server needs the generator's full speed), so the table also gives
 * each server's CPU time per request (from /proc), which other work on the machine barely moves,
 * and a reference row: bare Express with one JSON route (bench/baselines/express-json.mjs), the
 * framework's own cost before any of Herald's work.
 * Goal (docs/decisions.md §20.3, and p99 ≤ 5 ms from the performance bar): ≥ 0.35× raw req/s at 50
 * connections, p99 ≤ 5 ms; p50 ≤ 0.25 ms at 1 connection. Exits 1 when a figure misses its goal.
 */
import http from 'node:http';
import {
  finishGoals,
  fmt,
  goal,
  load,
  loadNote,
  percentile,
  printTable,
  startChild,
  startHerald,
  stats,
  stop,
  type LoadResult,
} from './lib.js';

const GOAL = { ratio: 0.35, p99Ms: 5, p50OneMs: 0.25 };

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const SEQUENTIAL = 2000;

/** `count` requests one after another on one keep-alive connection; latencies in ms. */
async function sequential(url: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      http
        .get(url, { agent, headers }, (res) => {
          res.on('data', () => {});
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(Number(process.hrtime.bigint() - started) / 1e6)
              : reject(new Error(`${url} answered ${res.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  for (let i = 0; i < 200; i++) await once();
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await once());
  agent.destroy();
  return out;
}

const raw = await startChild(process.execPath, ['bench/baselines/raw-http.mjs'], {}, /listening (\d+)/);
const rawUrl = `http://127.0.0.1:${raw.match[1]}/`;
const bareExpress = await startChild(process.execPath, ['bench/baselines/express-json.mjs'], {}, /listening (\d+)/);
const expressUrl = `http://127.0.0.1:${bareExpress.match[1]}/api/v1/hello`;
const h = await startHerald({}, { socialSet: true });
try {
  for (let i = 0; i < 20; i++) {
    await h.ok('POST', '/microblog/drafts', {
      title: `Draft ${i}`,
      tweets: [{ content: `<p>Post ${i} one</p>` }, { content: `<p>Post ${i} two</p>` }],
    });
  }
  const headers = { 'svc-key': h.key };
  const me = `${h.base}/me`;
  const drafts = `${h.base}/microblog/drafts`;
  const listed = await h.ok('GET', '/microblog/drafts');
  if (listed.drafts.length !== 20)
    throw new Error(`GET /microblog/drafts listed ${listed.drafts.length} drafts, not 20`);

  const results: Record<'raw' | 'express' | 'me' | 'drafts' | 'raw1' | 'me1', LoadResult[]> = {
    raw: [],
    express: [],
    me: [],
    drafts: [],
    raw1: [],
    me1: [],
  };
  const lat: Record<'raw' | 'me' | 'drafts', { p50: number[]; p99: number[] }> = {
    raw: { p50: [], p99: [] },
    me: { p50: [], p99: [] },
    drafts: { p50: [], p99: [] },
  };
  await load(rawUrl, { connections: 50, seconds: 1 });
  await load(me, { connections: 50, seconds: 1, headers });
  for (let i = 0; i < RUNS; i++) {
    results.raw.push(await load(rawUrl, { connections: 50, seconds: SECONDS, pid: raw.child.pid }));
    results.express.push(await load(expressUrl, { connections: 50, seconds: SECONDS, pid: bareExpress.child.pid }));
    results.me.push(await load(me, { connections: 50, seconds: SECONDS, headers, pid: h.child.pid }));
    results.drafts.push(await load(drafts, { connections: 50, seconds: SECONDS, headers, pid: h.child.pid }));
    results.raw1.push(await load(rawUrl, { connections: 1, seconds: 1 }));
    results.me1.push(await load(me, { connections: 1, seconds: 1, headers }));
    for (const [name, url, hd] of [
      ['raw', rawUrl, {}],
      ['me', me, headers],
      ['drafts', drafts, headers],
    ] as const) {
      const ms = await sequential(url, hd, SEQUENTIAL);
      lat[name].p50.push(percentile(ms, 50));
      lat[name].p99.push(percentile(ms, 99));
    }
  }
  for (const [name, rs] of Object.entries(results)) {
    const bad = rs.reduce((n, r) => n + r.errors + r.non2xx, 0);
    if (bad > 0) throw new Error(`${name}: ${bad} errors or non-2xx answers under load`);
  }

  const sp = (xs: number[], d = 2) => {
    const s = stats(xs);
    return `${fmt(s.median, d)} (${fmt(s.min, d)}–${fmt(s.max, d)})`;
  };
  const ratioCell = (rs: LoadResult[], base: LoadResult[], what?: string) => {
    const x = stats(rs.map((r) => r.rps)).median / stats(base.map((r) => r.rps)).median;
    return (
      `${fmt(x)}×` +
      `${what === undefined ? '' : goal(`${what} ${fmt(x)}× raw (goal ≥ ${GOAL.ratio}×)`, x >= GOAL.ratio)}`
    );
  };
  const p99Cell = (rs: LoadResult[], what?: string) => {
    const p99 = stats(rs.map((r) => r.p99)).median;
    return `${sp(
      rs.map((r) => r.p99),
      0,
    )}${what === undefined ? '' : goal(`${what} p99 ${p99} ms (goal ≤ ${GOAL.p99Ms} ms)`, p99 <= GOAL.p99Ms)}`;
  };
  const perRun = (rs: LoadResult[], base: LoadResult[]) => sp(rs.map((r, i) => r.rps / base[i].rps));
  const cpu = (rs: LoadResult[]) =>
    sp(
      rs.map((r) => r.cpuPerRequest ?? NaN),
      1,
    );
  const cpuMedian = (rs: LoadResult[]) => stats(rs.map((r) => r.cpuPerRequest ?? NaN)).median;
  const cpuRatio = (rs: LoadResult[]) => `${fmt(cpuMedian(results.raw) / cpuMedian(rs))}×`;
  printTable(
    `Keyed API, 50 connections, ${RUNS} runs of ${SECONDS} s each (autocannon), median (min–max); Node ` +
      `${process.version}`,
    [
      ['target', 'req/s', 'vs raw', 'per-run ratio', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'raw CPU ÷ this'],
      [
        'raw node:http JSON',
        sp(
          results.raw.map((r) => r.rps),
          0,
        ),
        '1×',
        '',
        sp(
          results.raw.map((r) => r.p50),
          0,
        ),
        p99Cell(results.raw),
        cpu(results.raw),
        '1×',
      ],
      [
        'reference: bare Express 5, one JSON route',
        sp(
          results.express.map((r) => r.rps),
          0,
        ),
        ratioCell(results.express, results.raw),
        perRun(results.express, results.raw),
        sp(
          results.express.map((r) => r.p50),
          0,
        ),
        p99Cell(results.express),
        cpu(results.express),
        cpuRatio(results.express),
      ],
      [
        'GET /me',
        sp(
          results.me.map((r) => r.rps),
          0,
        ),
        ratioCell(results.me, results.raw, 'GET /me'),
        perRun(results.me, results.raw),
        sp(
          results.me.map((r) => r.p50),
          0,
        ),
        p99Cell(results.me, 'GET /me'),
        cpu(results.me),
        cpuRatio(results.me),
      ],
      [
        'GET /microblog/drafts (20 drafts)',
        sp(
          results.drafts.map((r) => r.rps),
          0,
        ),
        ratioCell(results.drafts, results.raw, 'GET /microblog/drafts'),
        perRun(results.drafts, results.raw),
        sp(
          results.drafts.map((r) => r.p50),
          0,
        ),
        p99Cell(results.drafts, 'GET /microblog/drafts'),
        cpu(results.drafts),
        cpuRatio(results.drafts),
      ],
    ],
  );
  printTable(
    `One connection: autocannon ${RUNS} × 1 s; latency from ${SEQUENTIAL} sequential keep-alive requests per run, ms`,
    [
      ['target', 'req/s', 'vs raw', 'p50 ms', 'p99 ms'],
      [
        'raw node:http JSON',
        sp(
          results.raw1.map((r) => r.rps),
          0,
        ),
        '1×',
        sp(lat.raw.p50, 3),
        sp(lat.raw.p99, 3),
      ],
      [
        'GET /me',
        sp(
          results.me1.map((r) => r.rps),
          0,
        ),
        ratioCell(results.me1, results.raw1),
        sp(lat.me.p50, 3) +
          goal(
            `GET /me p50 ${fmt(stats(lat.me.p50).median, 3)} ms at 1 connection (goal ≤ ${GOAL.p50OneMs} ms)`,
            stats(lat.me.p50).median <= GOAL.p50OneMs,
          ),
        sp(lat.me.p99, 3),
      ],
      ['GET /microblog/drafts (20 drafts)', '', '', sp(lat.drafts.p50, 3), sp(lat.drafts.p99, 3)],
    ],
  );
  console.log(
    `goal (docs/decisions.md §20.3): ≥ ${GOAL.ratio}× raw req/s at 50 connections, p99 ≤ ${GOAL.p99Ms} ms; ` +
      `p50 ≤ ${GOAL.p50OneMs} ms at 1 connection`,
  );
  console.log(
    '"raw CPU ÷ this" is the req/s ratio the server would reach with a core of its own and a load generator ' +
      'that keeps up',
  );
  console.log(loadNote());
  finishGoals();
} finally {
  await stop(raw.child);
  await stop(bareExpress.child);
  await h.stop();
}
