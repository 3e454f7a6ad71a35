#!/usr/bin/env node
// `npm run bench`: runs every benchmark in turn; each prints its own table of figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = fs.readdirSync(dir).filter((f) => /\.bench\.(ts|mjs)$/.test(f)).filter((f) => only.length === 0 || only.some((o) => f.includes(o))).sort();
const tsx = path.join(dir, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
let failed = 0;
for (const f of benches) {
  console.log(`\n# ${f}`);
  const r = spawnSync(process.execPath, [tsx, path.join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) { failed += 1; console.log(`${f} failed (exit ${r.status})`); }
}
process.exit(failed ? 1 : 0);
