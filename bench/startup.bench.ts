/**
 * Start-up: process start to the first 200, compiled Herald (dist/server/main.mjs) against a
 * bare Express + better-sqlite3 app (bench/baselines/bare-express.mjs) measured in the same run,
 * alternating, each from `spawn` until a GET answered 200 (polled as soon as the process prints
 * its listening line). Two cases: a fresh data folder (Herald runs its migrations, the bare app
 * creates its table) and the same folder again (what every later start does).
 * The request is each app's cheapest JSON answer backed by one query: the bare app's
 * GET /api/v1/health (SELECT COUNT(*)) and Herald's GET /api/v1/auth/setup (the first call its
 * UI makes; counts users). Herald's /openapi.json is built on first request by design, so
 * start-up does not pay for ~70 schemas' documentation; it is shown as a separate row.
 * Herald runs two ways: `node dist/server/main.mjs`, and what people start, `npm run serve`'s
 * `node scripts/start.mjs --headless` (which first checks that the builds are up to date, then
 * runs the same server in its own process).
 * Beside the wall time, each process's CPU time until that answer (Linux: /proc/<pid>/schedstat),
 * which other work on a shared machine moves far less than the wall time.
 * Goal (docs/decisions.md §20.3): ≤ 1.2× the bare app.
 */
import fs from 'node:fs';
import {
  buildServer,
  finishGoals,
  fmt,
  goal,
  loadNote,
  printTable,
  spread,
  startChild,
  stats,
  stop,
  tempDir,
} from './lib.js';

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));

/** CPU ms the process has run (Linux), or NaN where /proc is not there. */
function cpuMs(pid: number | undefined): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** CPU ms of each timed start, by the array its wall time went to. */
const cpuOf = new Map<number[], number[]>();
const timed = async (into: number[], run: Promise<{ ms: number; cpu: number }>) => {
  const { ms, cpu } = await run;
  into.push(ms);
  cpuOf.set(into, [...(cpuOf.get(into) ?? []), cpu]);
};

async function timeToFirst200(
  args: string[],
  env: Record<string, string>,
  path: string,
): Promise<{ ms: number; cpu: number }> {
  const started = process.hrtime.bigint();
  const { child, match } = await startChild(
    process.execPath,
    args,
    env,
    /(?:listening (\d+))|(?:listening on http:\/\/127\.0\.0\.1:(\d+))/,
  );
  const port = match[1] ?? match[2];
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      /* not yet */
    }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = cpuMs(child.pid);
  await stop(child);
  return { ms, cpu };
}

buildServer();
const GOAL = 1.2;
const bare = { fresh: [] as number[], again: [] as number[] };
const herald = { fresh: [] as number[], again: [] as number[], openapi: [] as number[] };
const serve = { fresh: [] as number[], again: [] as number[] };
const bareApp = (dir: string) =>
  timeToFirst200(['bench/baselines/bare-express.mjs'], { BARE_DB: `${dir}/bare.db` }, '/api/v1/health');
const heraldEnv = (dir: string) => ({ HERALD_DATA_DIR: dir, HERALD_PORT: '0', HERALD_SECRET_STORE: 'file' });
const heraldApp = (dir: string, path = '/api/v1/auth/setup') =>
  timeToFirst200(['dist/server/main.mjs'], heraldEnv(dir), path);
const serveApp = (dir: string) =>
  timeToFirst200(['scripts/start.mjs', '--headless'], heraldEnv(dir), '/api/v1/auth/setup');
const dirs: string[] = [];
const freshDir = () => {
  const d = tempDir('herald-bench-start-');
  dirs.push(d);
  return d;
};
// Warm the file cache (and Node's compile cache) for each.
await bareApp(freshDir());
await heraldApp(freshDir());
await serveApp(freshDir());
for (let i = 0; i < RUNS; i++) {
  const dir = freshDir();
  const serveDir = freshDir();
  await timed(bare.fresh, bareApp(dir));
  await timed(herald.fresh, heraldApp(dir));
  await timed(serve.fresh, serveApp(serveDir));
  await timed(bare.again, bareApp(dir));
  await timed(herald.again, heraldApp(dir));
  await timed(serve.again, serveApp(serveDir));
  await timed(herald.openapi, heraldApp(dir, '/api/v1/openapi.json'));
}
const vs = (a: number[], b: number[], max?: number, what = '') => {
  const x = stats(a).median / stats(b).median;
  return `${fmt(x)}×${max === undefined ? '' : goal(`${what} ${fmt(x)}× the bare app (goal ≤ ${max}×)`, x <= max)}`;
};
const perRun = (a: number[], b: number[]) => spread(a.map((x, i) => x / b[i]));
printTable(`Start-up to first 200, ${RUNS} runs, ms, median (min–max)`, [
  ['app', 'ms', 'vs bare', 'per-run ratio'],
  ['bare Express + better-sqlite3, fresh folder', spread(bare.fresh), '1×', ''],
  [
    'Herald, fresh folder (migrations run)',
    spread(herald.fresh),
    vs(herald.fresh, bare.fresh, GOAL, 'Herald, fresh folder:'),
    perRun(herald.fresh, bare.fresh),
  ],
  [
    'npm run serve path: node scripts/start.mjs --headless, fresh folder',
    spread(serve.fresh),
    vs(serve.fresh, bare.fresh, GOAL, 'npm run serve path, fresh folder:'),
    perRun(serve.fresh, bare.fresh),
  ],
  ['bare Express + better-sqlite3, existing folder', spread(bare.again), '1×', ''],
  [
    'Herald, existing folder',
    spread(herald.again),
    vs(herald.again, bare.again, GOAL, 'Herald, existing folder:'),
    perRun(herald.again, bare.again),
  ],
  [
    'npm run serve path: node scripts/start.mjs --headless, existing folder',
    spread(serve.again),
    vs(serve.again, bare.again, GOAL, 'npm run serve path, existing folder:'),
    perRun(serve.again, bare.again),
  ],
  ['Herald, existing folder, first GET /openapi.json', spread(herald.openapi), vs(herald.openapi, bare.again), ''],
]);
const cpuMedian = (a: number[]) => stats(cpuOf.get(a) ?? []).median;
if (!Number.isNaN(cpuMedian(bare.again))) {
  const row = (label: string, a: number[], b: number[]) => [
    label,
    fmt(cpuMedian(a)),
    `${fmt(cpuMedian(a) / cpuMedian(b))}×`,
  ];
  printTable('CPU time to first 200 (ms, median; /proc), steadier than wall time on a shared machine', [
    ['app', 'CPU ms', 'vs bare'],
    row('bare, fresh folder', bare.fresh, bare.fresh),
    row('Herald, fresh folder', herald.fresh, bare.fresh),
    row('npm run serve path, fresh folder', serve.fresh, bare.fresh),
    row('bare, existing folder', bare.again, bare.again),
    row('Herald, existing folder', herald.again, bare.again),
    row('npm run serve path, existing folder', serve.again, bare.again),
  ]);
}
console.log(`goal (docs/decisions.md §20.3): ≤ ${GOAL}× the bare app`);
console.log(loadNote());
finishGoals();
for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
