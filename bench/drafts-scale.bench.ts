/**
 * Draft list at scale: 10,000 drafts of 3 posts (30,000 posts), written through Herald's own
 * batch endpoint, for a user with four connected accounts (simulators), so every post carries
 * four networks' counts. GET /microblog/drafts (all of them, and a first page of 50) against a
 * node:http + better-sqlite3 server answering the same rows from the same file with bare queries
 * (bench/baselines/bare-drafts.mjs), both in their own process, one request at a time from here.
 * Goal (docs/decisions.md §20.3): ≤ 2× the bare query.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { finishGoals, fmt, goal, loadNote, printTable, spread, startChild, startHerald, stats, stop } from './lib.js';
import { connectSimulators, startSimulators } from './networks.js';

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
const DRAFTS = Number(process.env.BENCH_DRAFTS ?? 10_000);
const POSTS = 3;
const BATCH = 100;

async function timed(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; bytes: number; count: number; networks: number }> {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const drafts = (JSON.parse(text) as { drafts: { tweets: { validation?: object }[] }[] }).drafts;
  return {
    ms,
    bytes: Buffer.byteLength(text),
    count: drafts.length,
    networks: Object.keys(drafts[0]?.tweets[0]?.validation ?? {}).length,
  };
}

const sims = await startSimulators();
const h = await startHerald(sims.settings);
try {
  await connectSimulators(h, sims);
  const fillStarted = Date.now();
  for (let b = 0; b < DRAFTS / BATCH; b++) {
    const drafts = Array.from({ length: BATCH }, (_, i) => {
      const n = b * BATCH + i;
      return {
        title: `Draft ${n}`,
        tweets: Array.from({ length: POSTS }, (_, j) => ({
          content:
            `<p>Draft ${n}, post ${j + 1}: notes on <b>release ${n % 97}</b> #herald https://example.com/${n}/` +
            `${j}</p>`,
        })),
      };
    });
    await h.ok('POST', '/microblog/drafts/batch', { drafts });
  }
  const fillSeconds = (Date.now() - fillStarted) / 1000;

  const dbFile = path.join(h.dataDir, 'herald.db');
  const userId = (new Database(dbFile, { readonly: true }).prepare('SELECT id FROM users').get() as { id: string }).id;
  const bare = await startChild(
    process.execPath,
    ['bench/baselines/bare-drafts.mjs'],
    { BARE_DB: dbFile },
    /listening (\d+)/,
  );
  const bareUrl = `http://127.0.0.1:${bare.match[1]}/?user=${encodeURIComponent(userId)}`;
  const keyed = { 'svc-key': h.key };

  // The bare queries alone, in this process: what any server must at least spend.
  const db = new Database(dbFile, { readonly: true });
  const q1 = db.prepare('SELECT * FROM drafts WHERE user_id = ? ORDER BY created_at DESC, id DESC');
  const q2 = db.prepare(
    'SELECT * FROM tweets WHERE draft_id IN (SELECT value FROM json_each(?)) ORDER BY draft_id, position',
  );
  const queryOnce = () => {
    const started = process.hrtime.bigint();
    const rows = q1.all(userId) as { id: string }[];
    const posts = q2.all(JSON.stringify(rows.map((r) => r.id)));
    if (rows.length !== DRAFTS || posts.length !== DRAFTS * POSTS)
      throw new Error(`bare query found ${rows.length} drafts, ${posts.length} posts`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };

  const r = {
    query: [] as number[],
    bareAll: [] as number[],
    heraldAll: [] as number[],
    barePage: [] as number[],
    heraldPage: [] as number[],
  };
  const sizes = { bare: 0, herald: 0 };
  // One warm-up of each, then alternate so both see the same machine load.
  queryOnce();
  await timed(bareUrl);
  await timed(`${h.base}/microblog/drafts`, keyed);
  for (let i = 0; i < RUNS; i++) {
    r.query.push(queryOnce());
    const b = await timed(bareUrl);
    const a = await timed(`${h.base}/microblog/drafts`, keyed);
    if (a.count !== DRAFTS || b.count !== DRAFTS)
      throw new Error(`listed ${a.count} (Herald) and ${b.count} (bare) of ${DRAFTS}`);
    if (a.networks !== 4)
      throw new Error(
        `Herald's posts carry ${a.networks} networks' counts, not 4: the accounts are not the drafts' targets`,
      );
    r.bareAll.push(b.ms);
    r.heraldAll.push(a.ms);
    sizes.bare = b.bytes;
    sizes.herald = a.bytes;
    r.barePage.push((await timed(`${bareUrl}&limit=50`)).ms);
    r.heraldPage.push((await timed(`${h.base}/microblog/drafts?limit=50`, keyed)).ms);
  }
  db.close();
  await stop(bare.child);

  const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);
  const vs = (a: number[], b: number[], what: string) => {
    const x = stats(a).median / stats(b).median;
    return [`${fmt(x)}×${goal(`${what} ${fmt(x)}× the bare query (goal ≤ 2×)`, x <= 2)}`, spread(ratio(a, b))];
  };
  printTable(
    `Draft list at scale: ${DRAFTS} drafts, ${DRAFTS * POSTS} posts, 4 target networks; ${RUNS} runs, ms, ` +
      `median (min–max)`,
    [
      ['request', 'ms', 'vs bare', 'per-run ratio', 'answer'],
      ['bare queries only, in-process (no JSON, no HTTP)', spread(r.query), '', '', ''],
      ['bare node:http + better-sqlite3, all', spread(r.bareAll), '1×', '', `${fmt(sizes.bare / 1e6)} MB`],
      [
        'Herald GET /microblog/drafts, all',
        spread(r.heraldAll),
        ...vs(r.heraldAll, r.bareAll, 'all drafts:'),
        `${fmt(sizes.herald / 1e6)} MB`,
      ],
      ['bare, first 50', spread(r.barePage), '1×', '', ''],
      ['Herald GET /microblog/drafts?limit=50', spread(r.heraldPage), ...vs(r.heraldPage, r.barePage, 'first 50:'), ''],
    ],
  );
  console.log(
    `goal (docs/decisions.md §20.3): ≤ 2× the bare query (Herald's answer also carries each post's ` +
      `per-network counts); filling ${DRAFTS} drafts through POST /microblog/drafts/batch took ` +
      `${fmt(fillSeconds)} s`,
  );
  console.log(loadNote());
  finishGoals();
} finally {
  await h.stop();
  await sims.close();
}
