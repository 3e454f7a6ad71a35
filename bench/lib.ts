/** Shared pieces of the benchmarks: child servers, load, statistics, the printed table. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export interface Stats { median: number; min: number; max: number }

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
export function startChild(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray; startedAt: bigint }> {
  const startedAt = process.hrtime.bigint();
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (buf: Buffer) => {
      out += buf.toString();
      const m = out.match(ready);
      if (m) resolve({ child, match: m, startedAt });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => { out += b.toString(); });
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code}: ${out.slice(-500)}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); });
}

export interface LoadResult { rps: number; p50: number; p99: number; errors: number; non2xx: number }

export async function load(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const r = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers, pipelining: 1 });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}
