/** Shared pieces of the benchmarks: child servers, load, statistics, the printed table. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from '../test/helpers/load.js';
import { jsonCaller, type TestServer } from '../test/helpers/server.js';

import { processTree } from '../test/helpers/proc.js';

export { processTree };

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export interface Stats {
  median: number;
  min: number;
  max: number;
}

export function stats(values: number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return { median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, min: s[0], max: s[s.length - 1] };
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export const fmt = (n: number, digits = 2) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(digits));

export function printTable(title: string, rows: string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\n## ${title}`);
  rows.forEach((r, i) => {
    console.log(r.map((c, j) => c.padEnd(widths[j])).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Starts a child process and resolves once it prints a line matching `ready`. */
export function startChild(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; startedAt: bigint; output: () => string }> {
  const startedAt = process.hrtime.bigint();
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    // Everything the child prints, kept (its last 64 KB) for figures it logs after start-up.
    let out = '';
    const output = () => out;
    const onData = (buf: Buffer) => {
      out += buf.toString();
      if (out.length > 131_072) out = out.slice(-65_536);
      const m = out.match(ready);
      if (m) resolve({ child, match: m, startedAt, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code}: ${out.slice(-500)}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Server CPU per answered request, µs (when the server's pid was given). */
  cpuPerRequest?: number;
}

export async function load(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string>; pid?: number },
): Promise<LoadResult> {
  const before = opts.pid ? cpuMicros(opts.pid) : 0;
  const r = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
    pipelining: 1,
  });
  const cpuPerRequest =
    opts.pid && r.requests.total > 0 ? (cpuMicros(opts.pid) - before) / r.requests.total : undefined;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpuPerRequest,
  };
}

/**
 * Builds dist/server/main.mjs (scripts/build.mjs) unless `npm run bench` already did for this
 * run (it sets HERALD_BENCH_BUILT), so every benchmark measures the compiled server.
 */
export function buildServer(): void {
  if (process.env.HERALD_BENCH_BUILT === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  process.env.HERALD_BENCH_BUILT = '1';
}

export const BENCH_OWNER = { email: 'bench@example.test', password: 'bench password 123' };

/** A compiled Herald server in its own process, with an enterprise key (no hourly limit in reach). */
export interface HeraldChild {
  child: ChildProcess;
  /** http://127.0.0.1:PORT/api/v1 */
  base: string;
  dataDir: string;
  key: string;
  /** test/helpers/server.ts's `call`, so test helpers (OAuth connect) work on it. */
  call: TestServer['call'];
  /** call() with the bench key that throws unless the answer is 2xx. */
  ok(method: string, p: string, body?: unknown): Promise<any>;
  /** What the server has printed so far (its last 64 KB or more). */
  output(): string;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
  /** Stops the server and keeps its data folder (to start another on it). */
  halt(): Promise<void>;
}

export async function startHerald(
  env: Record<string, string> = {},
  opts: { dataDir?: string; socialSet?: boolean; fromSources?: boolean } = {},
): Promise<HeraldChild> {
  if (!opts.fromSources) buildServer();
  const dataDir = opts.dataDir ?? tempDir('herald-bench-');
  const args = opts.fromSources ? ['--import', 'tsx', 'server/main.ts'] : ['dist/server/main.mjs'];
  const { child, match, output } = await startChild(
    process.execPath,
    args,
    {
      HERALD_DATA_DIR: dataDir,
      HERALD_PORT: '0',
      HERALD_SECRET_STORE: 'file',
      HERALD_LOG_LEVEL: 'info',
      HERALD_OWNER_EMAIL: BENCH_OWNER.email,
      HERALD_OWNER_PASSWORD: BENCH_OWNER.password,
      // Credits never limit the bench: the grant covers far more than the 110,000 entries it schedules, so
      // scheduling's credit forecast is settled by its bound and never counts the schedule (credits.service.ts).
      HERALD_ENTERPRISE_LIMIT: '1000000000',
      HERALD_MONTHLY_CREDITS: '100000000',
      // The bench key is enterprise, and a key mints only its own tier or lower (docs/decisions.md §2).
      HERALD_DEFAULT_TIER: 'enterprise',
      // The simulators (a Mastodon instance among them) listen on loopback.
      HERALD_ALLOW_PRIVATE_ADDRESSES: '1',
      // The simulators' own posting limits are lifted (networks.ts): Herald's quota gate is too.
      HERALD_POSTING_CAPS: 'off',
      ...env,
    },
    /listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/,
  );
  const base = match[1];
  const call = jsonCaller(base);

  const login = await call('POST', '/auth/login', { body: BENCH_OWNER });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  const created = await call('POST', '/auth/api-keys', {
    key: login.body.apiKey.key,
    body: { name: 'bench', tier: 'enterprise' },
  });
  if (created.status !== 200 && created.status !== 201)
    throw new Error(`key creation answered ${created.status}: ${created.text}`);
  const key = created.body.apiKey.key as string;
  const ok = async (method: string, p: string, body?: unknown) => {
    const r = await call(method, p, { key, body });
    if (r.status < 200 || r.status > 299)
      throw new Error(`${method} ${p} answered ${r.status}: ${r.text.slice(0, 500)}`);
    return r.body;
  };
  if (opts.socialSet) await ok('POST', '/social-sets', { name: 'Bench' });
  return {
    child,
    base,
    dataDir,
    key,
    call,
    ok,
    output,
    stop: async () => {
      await stop(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    halt: () => stop(child),
  };
}

/** Resident set size of another process, from /proc (Linux). */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

/**
 * CPU time another process has used so far, in µs, summed over /proc/<pid>/task/<tid>/schedstat (Linux):
 * time on a CPU only, so unlike wall-clock figures it does not grow when the machine is busy.
 */
export function cpuMicros(pid: number): number {
  let ns = 0;
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* the thread ended */
    }
  }
  return ns / 1000;
}

/** `median (min–max)` of a list of figures. */
export function spread(values: number[], digits = 2): string {
  const s = stats(values);
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}

/** One line noting that figures come from a shared machine, printed under every table. */
export function loadNote(): string {
  const [one] = os.loadavg();
  return (
    `machine: ${os.cpus().length} cores, load average ${one.toFixed(2)} when this table was printed (other ` +
    `work on the machine makes absolute figures noisy; compare the ratios)`
  );
}

const missed: string[] = [];

/**
 * A figure against its goal (docs/decisions.md §20.3): ' ✓' or ' ✗' for the table, and a
 * miss is remembered so that `finishGoals()` makes the bench exit non-zero.
 */
export function goal(what: string, met: boolean): string {
  if (!met) missed.push(what);
  return met ? ' ✓' : ' ✗';
}

/** Prints which goals were missed (or that all were met); a miss makes the process exit 1. */
export function finishGoals(): void {
  if (missed.length === 0) {
    console.log('all goals met');
    return;
  }
  console.log(`goals missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}

/**
 * A process tree at rest: CPU % over `seconds` (CPU time of every process under `pid` against wall
 * time) and the peak of their summed RSS, sampled once a second. A process that ends meanwhile
 * counts as nothing.
 */
export async function idleFigures(pid: number, seconds: number): Promise<{ cpuPct: number; rssMb: number }> {
  const sum = (f: (pid: number) => number) =>
    processTree(pid).reduce((n, p) => {
      try {
        return n + f(p.pid);
      } catch {
        return n;
      }
    }, 0);
  const cpu0 = sum(cpuMicros);
  const t0 = process.hrtime.bigint();
  let peak = 0;
  for (let s = 0; s < seconds; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    peak = Math.max(peak, sum(rssBytes));
  }
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  return { cpuPct: ((sum(cpuMicros) - cpu0) / wallUs) * 100, rssMb: peak / 1e6 };
}
