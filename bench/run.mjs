#!/usr/bin/env node
// `npm run bench`: builds the compiled server once, then runs every bench/*.bench.ts (or those
// whose names contain one of the arguments) in its own process, in turn; each prints its own
// table. Prints how long each took; the whole run is meant to stay under 10 minutes on 2 cores.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestPeers } from '../scripts/test-peers.mjs';

const dir = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(dir, '..');
const only = process.argv.slice(2);
const benches = fs
  .readdirSync(dir)
  .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const started = Date.now();
console.log(
  `Herald benchmarks on Node ${process.version}, ${os.cpus().length} cores (` +
    `${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${os.loadavg()[0].toFixed(2)}`,
);
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
// The load generator, the browser driver and the PDS are test-only packages (test/package.json).
const peersProblem = ensureTestPeers();
if (peersProblem) {
  console.error(peersProblem);
  process.exit(1);
}
const times = [];
let failed = 0;
for (const f of benches) {
  console.log(`\n# ${f}`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [tsx, path.join(dir, f)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, HERALD_BENCH_BUILT: '1' },
  });
  const seconds = (Date.now() - t0) / 1000;
  times.push(`${f} ${seconds.toFixed(0)} s${r.status === 0 ? '' : ` (failed, exit ${r.status ?? r.signal})`}`);
  if (r.status !== 0) failed += 1;
}
const total = (Date.now() - started) / 1000;
console.log(
  `\n${times.join('; ')}\ntotal ${(total / 60).toFixed(1)} min` +
    `${total > 600 ? ' (over the 10-minute budget)' : ''}${failed ? `; ${failed} failed` : ''}`,
);
process.exit(failed ? 1 : 0);
