/**
 * Fan-out: one 3-post draft published to five networks at once (POST /microblog/publish, which
 * answers when every target is done), each network adding 100 ms to every request: the X,
 * Mastodon, Threads and LinkedIn simulators (their latency option) and a real Bluesky PDS
 * (@atproto/pds, test/peers/pds.ts) whose HTTP server is made to wait 100 ms before handling each
 * request. Baseline, same run: the same kind of draft published to each network alone; the
 * slowest of the five. Herald runs compiled in its own process. Goal (docs/decisions.md §20.3, its
 * lower end): ≤ 1.1×; exits 1 when it is missed.
 */
import type http from 'node:http';
import { pdsModule, startPds } from '../test/peers/pds.js';
import { finishGoals, fmt, goal, loadNote, printTable, spread, startHerald, stats } from './lib.js';

const GOAL = 1.1;
import { connectSimulators, startSimulators } from './networks.js';

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
const LATENCY_MS = 100;
type Net = 'microblog' | 'skyblog' | 'fedblog' | 'threadblog' | 'problog';
const NETS: Net[] = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'];
const NAME: Record<Net, string> = {
  microblog: 'X',
  skyblog: 'Bluesky',
  fedblog: 'Mastodon',
  threadblog: 'Threads',
  problog: 'LinkedIn',
};

/** Holds every request `latency()` ms before the server's own handlers see it. */
function delayRequests(server: http.Server, latency: () => number): void {
  const handlers = server.listeners('request') as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const run = () => {
      for (const f of handlers) f.call(server, req, res);
    };
    const ms = latency();
    if (ms > 0) setTimeout(run, ms);
    else run();
  });
}

// The PDS is created inside startPds; its start() is wrapped (in this process only) to put the
// same per-request latency the simulators add in front of its HTTP server.
let pdsLatency = 0;
const { PDS } = pdsModule();
const start = PDS.prototype.start;
PDS.prototype.start = async function (this: InstanceType<typeof PDS>) {
  const server = await start.call(this);
  delayRequests(server, () => pdsLatency);
  return server;
};

const sims = await startSimulators();
const pds = await startPds();
const h = await startHerald(sims.settings);
try {
  const sky = await pds.createAccount('bench');
  const ids: Record<Net, string> = { ...(await connectSimulators(h, sims)), skyblog: '' };
  const connected = await h.ok('POST', '/skyblog/auth', {
    identifier: sky.handle,
    appPassword: sky.appPassword,
    service: pds.url,
  });
  ids.skyblog = connected.account.uuid as string;

  let n = 0;
  const publish = async (nets: Net[]) => {
    n += 1;
    const draft = await h.ok('POST', '/microblog/drafts', {
      title: `Fan-out ${n}`,
      tweets: [1, 2, 3].map((j) => ({ content: `Fan-out run ${n}, post ${j} of 3: Herald benchmark #${n}` })),
    });
    const started = process.hrtime.bigint();
    const r = await h.ok('POST', '/microblog/publish', {
      draftId: draft.draft.id,
      accountIds: nets.map((p) => ids[p]),
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!r.success || r.summary.succeeded !== nets.length)
      throw new Error(`publishing to ${nets.join(', ')} did not succeed everywhere: ${JSON.stringify(r.results)}`);
    return ms;
  };

  // One warm-up publish per network without latency (token exchanges, sessions, JIT).
  for (const p of NETS) await publish([p]);
  sims.setLatency(LATENCY_MS);
  pdsLatency = LATENCY_MS;

  const single: Record<Net, number[]> = { microblog: [], skyblog: [], fedblog: [], threadblog: [], problog: [] };
  const slowest: number[] = [];
  const fanout: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Rotate the order so no network always runs first or last.
    const order = NETS.map((_, k) => NETS[(k + i) % NETS.length]);
    for (const p of order) single[p].push(await publish([p]));
    slowest.push(Math.max(...NETS.map((p) => single[p][i])));
    fanout.push(await publish(NETS));
  }
  sims.setLatency(0);
  pdsLatency = 0;

  const ratio = stats(fanout).median / stats(slowest).median;
  printTable(
    `Fan-out of a 3-post draft, every network adding ${LATENCY_MS} ms per request; ${RUNS} runs, ms, median (min–max)`,
    [
      ['publish', 'ms', 'vs slowest alone', 'per-run ratio'],
      ...NETS.map((p) => [`${NAME[p]} alone`, spread(single[p]), '', '']),
      ['slowest alone (baseline, per run)', spread(slowest), '1×', ''],
      [
        'all five at once',
        spread(fanout),
        `${fmt(ratio)}×${goal(`fan-out ${fmt(ratio)}× the slowest alone (goal ≤ ${GOAL}×)`, ratio <= GOAL)}`,
        spread(fanout.map((f, i) => f / slowest[i])),
      ],
    ],
  );
  console.log(`goal (docs/decisions.md §20.3): ≤ ${GOAL}× the slowest network alone.`);
  console.log(
    'Bluesky is a real PDS (@atproto/pds) with 100 ms added before each request; Threads containers are ' +
      'ready at once (no poll wait)',
  );
  console.log(loadNote());
  finishGoals();
} finally {
  await h.stop();
  await sims.close();
  await pds.close();
}
