/**
 * CLI cold start: wall time of `herald --version`, `herald --help` and `herald whoami` (one
 * request to a running server), as the user runs them (bin/herald.mjs: the CLI compiled to
 * dist/cli), against bare `node -e 0` measured in the same run; and, for comparison, the same
 * commands through tsx's loader from the TypeScript sources, as Herald ran them before it was
 * compiled. Goal (issue #26): `herald --version` ≤ 150 ms.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { addAccount, userIdOf } from '../test/helpers/drafts.js';
import { OWNER, startServer } from '../test/helpers/server.js';
import { finishGoals, fmt, goal, printTable, ROOT, stats, tempDir } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);

/** Wall time of one run (async: the server answering `whoami` lives in this process). */
function time(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve(ms);
    }),
  );
}

const t = await startServer({ scheduler: false });
const key = await t.login();
const home = tempDir('herald-bench-cli-');
const env = { ...process.env, HERALD_API_KEY: key, HERALD_BASE_URL: t.base, XDG_CONFIG_HOME: home };
const cases: [string, string[]][] = [
  ['node -e 0 (baseline)', ['-e', '0']],
  ['herald --version', ['bin/herald.mjs', '--version']],
  ['herald --help', ['bin/herald.mjs', '--help']],
  ['herald whoami (1 request)', ['bin/herald.mjs', 'whoami']],
  [
    'herald draft create --content (text rules)',
    ['bin/herald.mjs', 'draft', 'create', '--content', 'x', '-o', 'minimal'],
  ],
  ['before: tsx loader, herald --version', ['--import', 'tsx', 'cli/herald.ts', '--version']],
  ['before: tsx loader, herald whoami', ['--import', 'tsx', 'cli/herald.ts', 'whoami']],
];
// draft create needs a social set: one account row, as the drafts tests add it.
addAccount(t, userIdOf(t, OWNER.email), 'skyblog');
for (const [, args] of cases) await time(args, env); // warm the tsx cache and the page cache
const samples = cases.map(() => [] as number[]);
// Interleaved, so a burst of load from other work on the machine hits every case alike.
for (let i = 0; i < RUNS; i++) for (const [c, [, args]] of cases.entries()) samples[c].push(await time(args, env));
const results = cases.map(([name], c) => ({ name, s: stats(samples[c]) }));
const base = results[0].s.median;
printTable(`CLI cold start, ${RUNS} runs each, ms, median (min–max)`, [
  ['command', 'ms', 'vs node -e 0'],
  ...results.map(({ name, s }) => [name, `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`, `${fmt(s.median / base)}×`]),
]);
const version = results.find((r) => r.name === 'herald --version')!.s.median;
console.log(
  `herald --version: ${fmt(version)} ms; goal ≤ 150 ms` +
    `${goal(`herald --version ${fmt(version)} ms (goal ≤ 150 ms)`, version <= 150)}`,
);
finishGoals();
await t.close();
fs.rmSync(home, { recursive: true, force: true });
