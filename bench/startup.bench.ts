/**
 * Start-up: process start to the first 200, compiled Herald (dist/server/main.mjs) against a
 * bare Express + better-sqlite3 app measured in the same run. Goal: ≤ 1.5× the bare app.
 */
import { execFileSync } from 'node:child_process';
import { fmt, printTable, ROOT, startChild, stats, stop, tempDir } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

async function timeToFirst200(args: string[], env: Record<string, string>, path: string): Promise<number> {
  const started = process.hrtime.bigint();
  const { child, match } = await startChild(process.execPath, args, env, /(?:listening (\d+))|(?:listening on http:\/\/127\.0\.0\.1:(\d+))/);
  const port = match[1] ?? match[2];
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch { /* not yet */ }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await stop(child);
  return ms;
}

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
const bare: number[] = [];
const herald: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = tempDir('herald-bench-start-');
  bare.push(await timeToFirst200(['bench/baselines/bare-express.mjs'], { BARE_DB: `${dir}/bare.db` }, '/api/v1/health'));
  herald.push(await timeToFirst200(['dist/server/main.mjs'], { HERALD_DATA_DIR: dir, HERALD_PORT: '0', HERALD_SECRET_STORE: 'file' }, '/api/v1/openapi.json'));
}
const b = stats(bare), h = stats(herald);
printTable(`Start-up to first 200, ${RUNS} runs, ms, median (min–max)`, [
  ['app', 'ms', 'vs bare'],
  ['bare Express + better-sqlite3', `${fmt(b.median)} (${fmt(b.min)}–${fmt(b.max)})`, '1×'],
  ['Herald (compiled, fresh data folder: migrations run)', `${fmt(h.median)} (${fmt(h.min)}–${fmt(h.max)})`, `${fmt(h.median / b.median)}×`],
]);
console.log('goal: ≤ 1.5× the bare app');
