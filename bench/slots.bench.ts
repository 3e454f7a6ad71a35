/**
 * Slots and the queue (issue #23). In-process Herald (real SQLite file, real zone data):
 *
 * 1. 10,000 queued posts over 20 social sets (500 each; 14 slots a week, sets spread over New
 *    York, Berlin, Lord Howe, Kolkata and UTC). next-free-slot p99, three ways: the pure function
 *    (time.ts) given the taken slots; the queue's full look-up (the SQL for the set's taken slots
 *    plus the pure function); and POST /microblog/queue over HTTP, which also writes (group
 *    commit, fsync). Goal: next-free-slot p99 ≤ 1 ms.
 * 2. The scheduler with slots in use: with the 10,000 queued posts pending, 20 queued drafts (one
 *    per set, the sets sharing a slot) and 180 entries with per-network times at random instants
 *    of the next 10 s fire on the X simulator. Lateness of each entry's dispatch (its publication
 *    row written) against its fire time. Goal: p99 ≤ 25 ms.
 */
import { formatLocal, nextFreeSlot, nextSlots, type Slot } from '../time/index.js';
import { QueueRepo } from '../server/db/repos/queue.repo.js';
import { addAccount, userIdOf } from '../test/helpers/drafts.js';
import { insertDraft } from '../test/helpers/fixtures.js';
import { connectOAuth } from '../test/helpers/oauth-connect.js';
import { OWNER, startServer } from '../test/helpers/server.js';
import { startXSimulator } from '../test/simulators/x.simulator.js';
import { finishGoals, fmt, goal, loadNote, percentile, printTable } from './lib.js';

const SETS = 20;
const PER_SET = 500;
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
const SLOTS: Slot[] = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
  { day, time: '09:00' },
  { day, time: '17:30' },
]);
const p = (xs: number[], q: number) => fmt(percentile(xs, q), 3);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A clock a little ahead of real time, so that a shared slot (every 6 minutes in UTC) is due
// a few seconds after the queue is filled; it runs at real speed, so lateness is real.
let offset = 0;
const clock = { now: () => Date.now() + offset };

const CLIENT = { clientId: 'bench-slots', clientSecret: 'bench-slots-secret' };
const x = await startXSimulator({ ...CLIENT, rejectDuplicates: false });
const t = await startServer({
  clock,
  scheduler: { sweepMs: 1000 },
  settings: {
    HERALD_MICROBLOG_API_URL: x.url,
    HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
    HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
    HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
    HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
    // The product's default (the test server turns it off): the hand-off's passes run at every
    // change and sweep, over the 10,000 queued Mastodon entries (their accounts have no tokens
    // here, so each is tried once and kept local), while the look-ups and the firing are measured.
    HERALD_FEDBLOG_HAND_OFF: process.env.BENCH_HAND_OFF ?? '1',
  },
});
try {
  const key = await t.login();
  const owner = userIdOf(t, OWNER.email);
  const { services, deps, sqlite } = t.server;
  const queueRepo = new QueueRepo(sqlite);

  // 1. 20 sets, 500 queued posts each, written straight to the table (the bench is the look-up).
  const sets: { id: string; zone: string; accountId: string }[] = [];
  const now0 = clock.now();
  const insert =
    sqlite.prepare(`INSERT INTO schedule_entries (id, user_id, draft_id, account_id, platform, fire_at, due_at,
        requested_at, priority, attempts, status, created_at, queue_set_id)
    VALUES (?, ?, ?, ?, 'fedblog', ?, ?, ?, 0, 0, 'pending', ?, ?)`);
  for (let i = 0; i < SETS; i++) {
    const zone = ZONES[i % ZONES.length];
    const { accountId, socialSetId } = addAccount(t, owner, 'fedblog', { mode: 'create_new' });
    services.socialSets.update(owner, { id: socialSetId, timeZone: zone });
    services.socialSets.setSlots(owner, socialSetId, SLOTS);
    sets.push({ id: socialSetId, zone, accountId });
    const at = nextSlots(zone, SLOTS, now0, PER_SET, Number.MAX_SAFE_INTEGER);
    const drafts = at.map((_, k) => insertDraft(t, owner, [`queued ${i}-${k}`], { socialSetId }));
    sqlite.transaction(() => {
      at.forEach((slotAt, k) =>
        insert.run(
          deps.ids.ordered(),
          owner,
          drafts[k],
          accountId,
          slotAt + 3_600_000 * 24 * 365,
          slotAt + 3_600_000 * 24 * 365,
          slotAt,
          new Date(now0).toISOString(),
          socialSetId,
        ),
      );
    })();
  }

  const pure: number[] = [];
  const full: number[] = [];
  const best: number[] = [];
  const ROUNDS = 2_000;
  for (let r = 0; r < ROUNDS; r++) {
    const set = sets[r % SETS];
    const now = clock.now();
    const t0 = performance.now();
    const taken = queueRepo.taken(set.id, now);
    const t1 = performance.now();
    const free = nextFreeSlot(set.zone, SLOTS, now, taken, now + 2 * 365 * 86_400_000);
    const t2 = performance.now();
    if (free === null) throw new Error('no free slot');
    pure.push(t2 - t1);
    full.push(t2 - t0);
    // The same look-up four more times, keeping the fastest: what it costs when the process is
    // not preempted (on a loaded machine the wall-clock p99 above is mostly other processes).
    let b = t2 - t0;
    for (let k = 0; k < 4; k++) {
      const s0 = performance.now();
      nextFreeSlot(set.zone, SLOTS, now, queueRepo.taken(set.id, now), now + 2 * 365 * 86_400_000);
      b = Math.min(b, performance.now() - s0);
    }
    best.push(b);
  }
  // Cold: the first look-up in a zone and years not seen yet (builds the offset tables).
  const coldZones = ['Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu', 'Europe/Dublin'];
  const cold = coldZones.map((zone) => {
    const s = performance.now();
    nextFreeSlot(zone, SLOTS, clock.now(), new Set(), clock.now() + 2 * 365 * 86_400_000);
    return performance.now() - s;
  });

  const http: number[] = [];
  for (let r = 0; r < 200; r++) {
    const set = sets[r % SETS];
    const id = insertDraft(t, owner, [`over http ${r}`], { socialSetId: set.id });
    const s = performance.now();
    const res = await t.call('POST', '/microblog/queue', { key, body: { draftId: id, socialSetId: set.id } });
    http.push(performance.now() - s);
    if (res.status !== 200) throw new Error(`queue: ${res.status} ${res.text}`);
  }

  // 2. The scheduler with slots in use.
  const xId = (await connectOAuth(t, key, 'microblog')).body.accountUuid as string;
  // Move the clock so the next 6-minute mark (UTC) is 6 s ahead; the fire sets have slots every
  // 6 minutes from that mark for two hours.
  const real = Date.now();
  const next = Math.ceil(real / 360_000) * 360_000;
  offset = next - real - 6_000;
  const slotAt = next;
  const every6: Slot[] = Array.from({ length: 20 }, (_, k) => {
    const d = new Date(next + k * 360_000);
    return {
      day: d.getUTCDay() === 0 ? 7 : d.getUTCDay(),
      time: `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`,
    };
  });
  const fireSets: string[] = [];
  for (let i = 0; i < SETS; i++) {
    const r = await t.call('POST', '/social-sets', {
      key,
      body: { name: `fire ${i}`, timeZone: 'UTC', accountIds: [xId] },
    });
    const put = await t.call('PUT', `/social-sets/${r.body.socialSet.id}/slots`, { key, body: { slots: every6 } });
    if (put.status !== 200) throw new Error(`slots: ${put.status} ${put.text}`);
    fireSets.push(r.body.socialSet.id);
  }
  for (const [i, setId] of fireSets.entries()) {
    const id = insertDraft(t, owner, [`slot fire ${i}`], { socialSetId: setId });
    const r = await t.call('POST', '/microblog/queue', {
      key,
      body: { draftId: id, socialSetId: setId, applyJitter: false },
    });
    if (r.status !== 200 || Date.parse(r.body.slot.at) !== slotAt)
      throw new Error(`queue fire: ${r.status} ${r.text} ${formatLocal('UTC', slotAt).local}`);
  }
  const base = clock.now();
  for (let i = 0; i < 180; i++) {
    const id = insertDraft(t, owner, [`per network ${i}`]);
    const at = new Date(Math.max(base + 1_000 + Math.floor(Math.random() * 10_000), clock.now() + 500)).toISOString();
    const r = await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId: id, applyJitter: false, targetAccounts: [{ accountId: xId, scheduledFor: at }] },
    });
    if (r.status !== 200) throw new Error(`schedule: ${r.status} ${r.text}`);
  }
  const q = sqlite.prepare(`SELECT e.fire_at AS fireAt, (SELECT MIN(created_at) FROM publications p WHERE p.draft_id =
        e.draft_id AND p.account_id = e.account_id) AS startedAt
    FROM schedule_entries e WHERE e.account_id = ? AND e.fire_at <= ?`);
  const deadline = Date.now() + 60_000;
  let rows: { fireAt: number; startedAt: string | null }[] = [];
  while (Date.now() < deadline) {
    rows = q.all(xId, slotAt + 60_000) as typeof rows;
    if (rows.length >= 200 && rows.every((r) => r.startedAt)) break;
    await sleep(500);
  }
  // publications.created_at is stamped by the same injected clock as fire_at.
  const fired = rows.filter((r) => r.startedAt);
  const late = fired.map((r) => Date.parse(r.startedAt!) - r.fireAt);
  const burst = fired.filter((r) => r.fireAt === slotAt).map((r) => Date.parse(r.startedAt!) - r.fireAt);
  const spread = fired.filter((r) => r.fireAt !== slotAt).map((r) => Date.parse(r.startedAt!) - r.fireAt);

  console.log(loadNote());
  printTable(
    `next-free-slot, ${SETS * PER_SET} queued over ${SETS} sets (${PER_SET} each, ${SLOTS.length} slots a ` +
      `week), ${ROUNDS} look-ups`,
    [
      ['what', 'p50 ms', 'p99 ms', 'max ms'],
      ['pure function (taken slots given)', p(pure, 50), p(pure, 99), fmt(Math.max(...pure), 3)],
      ['queue look-up: SQL of taken slots + function', p(full, 50), p(full, 99), fmt(Math.max(...full), 3)],
      ['queue look-up, fastest of 5 runs of each look-up', p(best, 50), p(best, 99), fmt(Math.max(...best), 3)],
      ['first look-up in a new zone (cold tables), 4 zones', p(cold, 50), '', fmt(Math.max(...cold), 3)],
      ['POST /microblog/queue over HTTP (writes, fsync), 200', p(http, 50), p(http, 99), fmt(Math.max(...http), 3)],
    ],
  );
  printTable('scheduler lateness with slots in use (dispatch: publication written − fire time)', [
    ['entries', 'fired', 'p50 ms', 'p99 ms', 'max ms'],
    [
      `all: 20 queued at one slot + 180 per-network, ${SETS * PER_SET} queued pending`,
      String(late.length),
      fmt(percentile(late, 50)),
      fmt(percentile(late, 99)),
      fmt(Math.max(...late)),
    ],
    [
      'the 20 queued drafts due at the same slot (one account)',
      String(burst.length),
      fmt(percentile(burst, 50)),
      fmt(percentile(burst, 99)),
      fmt(Math.max(...burst)),
    ],
    [
      'the 180 per-network entries (random instants over 10 s)',
      String(spread.length),
      fmt(percentile(spread, 50)),
      fmt(percentile(spread, 99)),
      fmt(Math.max(...spread)),
    ],
  ]);
  console.log(
    'goal: next-free-slot p99 ≤ 1 ms (the queue look-up row); scheduler lateness p99 ≤ 25 ms (docs/decisions.md §20.3)',
  );
  goal(`queue look-up p99 ${p(full, 99)} ms (goal ≤ 1 ms)`, percentile(full, 99) <= 1);
  goal(`lateness p99 ${fmt(percentile(late, 99))} ms (goal ≤ 25 ms)`, percentile(late, 99) <= 25);
  goal(
    `${fired.length} of the ${rows.length} entries due in the window fired (goal: all)`,
    fired.length === rows.length,
  );
  finishGoals();
} finally {
  await t.close();
  await x.close();
}
