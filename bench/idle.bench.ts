/**
 * Idle (docs/decisions.md §20.3, issue #26): the headless app as `npm run serve` leaves it (npm's own wrapper
 * aside: `node scripts/start.mjs --headless`), on a data folder with 10,000 scheduled posts, left
 * alone: every process of the tree it starts, their summed RSS, and their CPU use while idle.
 * Beside it, in the same run on the same folder, Herald as it started before it was compiled
 * (`tsx server/main.ts`: tsx's CLI and the Node process its loader compiles into).
 * Goals: one Node process; RSS ≤ 150 MB; CPU ≤ 0.5 %. The idle bar asks for 10 minutes;
 * BENCH_IDLE_SECONDS (default 30, after 10 s to settle) keeps `npm run bench` within budget.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  finishGoals,
  fmt,
  goal,
  idleFigures,
  loadNote,
  printTable,
  processTree,
  ROOT,
  startChild,
  startHerald,
  stop,
  tempDir,
} from './lib.js';
import { connectSimulators, startSimulators } from './networks.js';

const SCHEDULED = 10_000;
const SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const SETTLE_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fills a data folder: 2,500 drafts, each scheduled to 4 accounts a day from now. */
async function prepare(
  settings: Record<string, string>,
  sims: Awaited<ReturnType<typeof startSimulators>>,
): Promise<string> {
  const dataDir = tempDir('herald-bench-idle-');
  const h = await startHerald(settings, { dataDir });
  try {
    const accounts = await connectSimulators(h, sims);
    const targetAccounts = Object.entries(accounts).map(([platform, accountId]) => ({ accountId, platform }));
    const perDraft = targetAccounts.length;
    const drafts: string[] = [];
    for (let b = 0; b < SCHEDULED / perDraft / 100; b++) {
      const body = {
        drafts: Array.from({ length: 100 }, (_, i) => ({
          title: `Idle ${b * 100 + i}`,
          tweets: [{ content: `Scheduled post ${b * 100 + i} ${crypto.randomUUID()}` }],
        })),
      };
      const r = await h.ok('POST', '/microblog/drafts/batch', body);
      drafts.push(...(r.drafts as { id: string }[]).map((d) => d.id));
    }
    const at = new Date(Date.now() + 24 * 3600_000).toISOString();
    for (const draftId of drafts)
      await h.ok('POST', '/microblog/schedule', { draftId, scheduledFor: at, targetAccounts, applyJitter: true });
    const progress = await h.ok('GET', `/microblog/publish/progress?draftId=${drafts[0]}`);
    if ((progress.entries as unknown[]).length !== perDraft)
      throw new Error(`expected ${perDraft} pending entries per draft, progress shows ${JSON.stringify(progress)}`);
  } finally {
    await h.halt();
  }
  return dataDir;
}

interface Idle {
  processes: number;
  nodes: number;
  rssMb: number;
  cpuPct: number;
  commands: string[];
  pending: string;
}

async function idle(name: string, args: string[], env: Record<string, string>): Promise<Idle> {
  const { child, output } = await startChild(
    process.execPath,
    args,
    env,
    /listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1/,
  );
  try {
    await sleep(SETTLE_MS);
    const { cpuPct, rssMb } = await idleFigures(child.pid!, SECONDS);
    const procs = processTree(child.pid!);
    const pending = /Scheduler: ([\d,]+ pending)/.exec(output())?.[1] ?? '?';
    return {
      processes: procs.length,
      nodes: procs.filter((p) => /(^|\/)node(\s|$)/.test(p.cmd)).length,
      rssMb,
      cpuPct,
      commands: procs.map((p) => `${name}: ${p.cmd.replace(ROOT + path.sep, '')}`),
      pending,
    };
  } finally {
    await stop(child);
  }
}

const sims = await startSimulators();
try {
  const dataDir = await prepare(sims.settings, sims);
  const env = {
    ...sims.settings,
    HERALD_DATA_DIR: dataDir,
    HERALD_PORT: '0',
    HERALD_SECRET_STORE: 'file',
    HERALD_ALLOW_PRIVATE_ADDRESSES: '1',
  };
  const now = await idle('npm run serve', ['scripts/start.mjs', '--headless'], env);
  const before = await idle('before', [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], env);
  const row = (label: string, r: Idle) => [
    label,
    r.pending,
    String(r.processes),
    String(r.nodes),
    fmt(r.rssMb),
    fmt(r.cpuPct, 3),
  ];
  printTable(
    `Idle with ${SCHEDULED.toLocaleString('en')} scheduled posts: ${SECONDS} s after ${SETTLE_MS / 1000} s to settle`,
    [
      ['how it runs', 'scheduler', 'processes', 'node processes', 'RSS MB (all, peak)', 'CPU %'],
      row('node scripts/start.mjs --headless (npm run serve, npm aside)', now),
      row('before: tsx server/main.ts (loader at run time)', before),
    ],
  );
  for (const c of [...now.commands, ...before.commands]) console.log(`  ${c}`);
  const nodes = goal(`${now.nodes} Node processes (goal: one)`, now.nodes === 1);
  const rss = goal(`RSS ${fmt(now.rssMb)} MB (goal ≤ 150 MB)`, now.rssMb <= 150);
  const cpu = goal(`CPU ${fmt(now.cpuPct, 3)} % (goal ≤ 0.5 %)`, now.cpuPct <= 0.5);
  console.log(
    `goals (docs/decisions.md §20.3), npm run serve: one Node process${nodes}; RSS ≤ 150 MB${rss}; CPU ≤ 0.5 %${cpu}`,
  );
  console.log(loadNote());
  finishGoals();
  fs.rmSync(dataDir, { recursive: true, force: true });
} finally {
  await sims.close();
}
