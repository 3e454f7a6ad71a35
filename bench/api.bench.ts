/**
 * Keyed API throughput and latency: GET /me and GET /microblog/drafts (20 drafts) through the
 * Host guard, key auth and rate limit, against a raw node:http JSON server measured in the same
 * run with the same load generator (autocannon, from this separate process).
 * Goal (quality.md): ≥ 0.35× raw req/s at 50 connections, p99 ≤ 10 ms; p50 ≤ 0.25 ms at 1 connection.
 */
import { fmt, load, printTable, ROOT, startChild, stats, stop, tempDir, type LoadResult } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

async function herald() {
  const dir = tempDir('herald-bench-api-');
  const { child, match } = await startChild(process.execPath, ['dist/server/main.mjs'], {
    HERALD_DATA_DIR: dir, HERALD_PORT: '0', HERALD_SECRET_STORE: 'file', HERALD_LOG_LEVEL: 'info',
    HERALD_OWNER_EMAIL: 'bench@example.test', HERALD_OWNER_PASSWORD: 'bench password', HERALD_ENTERPRISE_LIMIT: '1000000000',
  }, /listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/);
  const base = match[1];
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'svc-key': key } : {}) }, body: JSON.stringify(body) });
    const json = await res.json() as any;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const login = await post('/auth/login', { email: 'bench@example.test', password: 'bench password' });
  const key = (await post('/auth/api-keys', { name: 'bench', tier: 'enterprise' }, login.apiKey.key)).apiKey.key as string;
  await post('/social-sets', { name: 'Bench' }, key);
  for (let i = 0; i < 20; i++) {
    await post('/microblog/drafts', { title: `Draft ${i}`, tweets: [{ content: `<p>Post ${i} one</p>`, position: 0 }, { content: `<p>Post ${i} two</p>`, position: 1 }] }, key);
  }
  return { child, base, key };
}

async function main() {
  await import('node:child_process').then(({ execFileSync }) => execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' }));
  const raw = await startChild(process.execPath, ['bench/baselines/raw-http.mjs'], {}, /listening (\d+)/);
  const rawUrl = `http://127.0.0.1:${raw.match[1]}/`;
  const h = await herald();
  const headers = { 'svc-key': h.key };
  const results: Record<string, LoadResult[]> = { raw: [], me: [], drafts: [], raw1: [], me1: [] };
  for (let i = 0; i < RUNS; i++) {
    results.raw.push(await load(rawUrl, { connections: 50, seconds: SECONDS }));
    results.me.push(await load(`${h.base}/me`, { connections: 50, seconds: SECONDS, headers }));
    results.drafts.push(await load(`${h.base}/microblog/drafts`, { connections: 50, seconds: SECONDS, headers }));
    results.raw1.push(await load(rawUrl, { connections: 1, seconds: 2 }));
    results.me1.push(await load(`${h.base}/me`, { connections: 1, seconds: 2, headers }));
  }
  for (const [name, rs] of Object.entries(results)) {
    const bad = rs.reduce((n, r) => n + r.errors + r.non2xx, 0);
    if (bad > 0) console.log(`warning: ${name} had ${bad} errors or non-2xx answers`);
  }
  const rawRps = stats(results.raw.map((r) => r.rps));
  const row = (label: string, rs: LoadResult[], base?: number) => {
    const rps = stats(rs.map((r) => r.rps));
    const p99 = stats(rs.map((r) => r.p99));
    const p50 = stats(rs.map((r) => r.p50));
    return [label, `${fmt(rps.median)} (${fmt(rps.min)}–${fmt(rps.max)})`, base ? `${fmt(rps.median / base)}×` : '1×', `${fmt(p50.median)} (${fmt(p50.min)}–${fmt(p50.max)})`, `${fmt(p99.median)} (${fmt(p99.min)}–${fmt(p99.max)})`];
  };
  printTable(`Keyed API, ${RUNS} runs of ${SECONDS}s each, median (min–max); Node ${process.version}`, [
    ['target', 'req/s', 'vs raw', 'p50 ms', 'p99 ms'],
    row('raw node:http, 50 conn', results.raw),
    row('GET /me, 50 conn', results.me, rawRps.median),
    row('GET /microblog/drafts (20), 50 conn', results.drafts, rawRps.median),
    row('raw node:http, 1 conn', results.raw1),
    row('GET /me, 1 conn', results.me1, stats(results.raw1.map((r) => r.rps)).median),
  ]);
  console.log('goal: ≥ 0.35× raw at 50 connections, p99 ≤ 10 ms; p50 ≤ 0.25 ms at 1 connection (autocannon reports whole milliseconds)');
  await stop(raw.child);
  await stop(h.child);
}

await main();
