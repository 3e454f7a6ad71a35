/**
 * docs/decisions.md §20.1 "Clock jumps": the headless app runs under libfaketime (the machine's wall clock,
 * moved while Herald runs; its monotonic clock is left alone, as NTP and a person changing the
 * time leave it) in America/New_York, publishing scheduled posts to the Mastodon simulator.
 *
 * - +2 h: a post whose instant the jump skipped by more than the grace period is missed (not
 *   published stale), one within the grace publishes at once, later ones fire at their instants;
 * - −1 h: nothing fires early while the clock reads before a post's instant, and posts already
 *   published do not fire again when the clock passes their instants a second time;
 * - DST both ways: the repeated hour of the fall-back night (01:30 EDT and 01:30 EST are two
 *   instants, each fired once) and the skipped hour of the spring-forward night.
 * Every due post fires exactly once; the figure is the largest firing error (publication start
 * minus the post's instant, both on Herald's clock), under 5 s where the sweep alone would leave
 * up to 20 s. The scheduler runs with its default sweep.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import type { ChildServer } from '../helpers/child-server.js';
import { postsOn, startNetworks, type Networks } from '../helpers/networks.js';
import { tempDir } from '../helpers/server.js';
import { childEnv, createDrafts, readDb, schedule, startConnected, until } from './harness.js';
import { reportFigure } from './quality.js';

const HOUR = 3_600_000;
let nets: Networks;
let child: ChildServer;
let key: string;
let ids: Record<Platform, string>;
let dataDir: string;
let stamp: string;
/** libfaketime's offset from the real clock, whole seconds. */
let offset = 0;
const errors: { label: string; ms: number }[] = [];
let doubleFires = 0;

const fakeNow = () => Date.now() + offset * 1000;
function setOffset(seconds: number): void {
  offset = seconds;
  fs.writeFileSync(stamp, `${seconds >= 0 ? '+' : ''}${seconds}\n`);
}
/** Moves Herald's wall clock so that it reads `at` now. */
const setFakeTime = (at: number) => setOffset(Math.round((at - Date.now()) / 1000));

interface Fired {
  status: string;
  fireAt: number;
  starts: number[];
  error: string | null;
}
function entry(draftId: string): Fired {
  return readDb(dataDir, (db) => {
    const e = db
      .prepare('SELECT status, fire_at AS fireAt, last_error AS error FROM schedule_entries WHERE draft_id = ?')
      .get(draftId) as { status: string; fireAt: number; error: string | null };
    const starts = (
      db.prepare('SELECT created_at AS at FROM publications WHERE draft_id = ?').all(draftId) as { at: string }[]
    ).map((r) => Date.parse(r.at));
    return { ...e, starts };
  });
}
const texts = new Map<string, string>();
async function onNetwork(draftId: string): Promise<number> {
  return (await postsOn(nets, 'fedblog')).filter((p) => p.text === texts.get(draftId)).length;
}

async function scheduleAt(label: string, at: string | number): Promise<string> {
  const [draftId] = await createDrafts(child, key, [[label]]);
  texts.set(draftId, label);
  const scheduledFor = typeof at === 'number' ? new Date(at).toISOString() : at;
  await schedule(child, key, {
    draftId,
    scheduledFor,
    applyJitter: false,
    targetAccounts: [{ accountId: ids.fedblog, platform: 'fedblog' }],
  });
  return draftId;
}

/** Waits for the post to be published, checks it went out once, and records its firing error. */
async function firedOnce(draftId: string, label: string): Promise<void> {
  await until(`"${texts.get(draftId)}" to publish`, () => entry(draftId).status === 'done' || undefined, 90_000, 200);
  const e = entry(draftId);
  expect(e.starts, `${label}: one publication`).toHaveLength(1);
  expect(await onNetwork(draftId), `${label}: once on the network`).toBe(1);
  const ms = e.starts[0] - e.fireAt;
  expect(ms, `${label}: fired before its instant`).toBeGreaterThanOrEqual(0);
  // Well under the 20 s sweep that would otherwise catch a post whose timer a jump left wrong.
  expect(ms, `${label}: fired late`).toBeLessThan(5_000);
  errors.push({ label, ms });
}

async function stillOnce(draftIds: string[]): Promise<void> {
  for (const d of draftIds) {
    const n = entry(d).starts.length;
    const held = await onNetwork(d);
    if (n > 1 || held > 1) doubleFires += 1;
    expect(n, `${texts.get(d)}: publications`).toBeLessThanOrEqual(1);
    expect(held, `${texts.get(d)}: on the network`).toBeLessThanOrEqual(1);
  }
}

beforeAll(async () => {
  nets = await startNetworks({ containerReadyMs: 0 });
  dataDir = tempDir('herald-clock-');
  stamp = path.join(dataDir, 'faketime');
  fs.writeFileSync(stamp, '+0\n');
  ({ child, key, ids } = await startConnected(nets, {
    dataDir,
    // Herald's own sweep interval, not the 1 s the other whole-process tests use.
    env: childEnv(nets, { HERALD_SWEEP_SECONDS: undefined, TZ: 'America/New_York', FAKETIME_DONT_FAKE_MONOTONIC: '1' }),
    faketime: { file: stamp },
  }));
}, 120_000);

afterAll(async () => {
  // A clean stop: libfaketime removes its /dev/shm segment at exit (a SIGKILL leaves it behind).
  await child?.kill('SIGTERM');
  await nets?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  const worst = errors.reduce((w, e) => (e.ms > w.ms ? e : w), { label: '-', ms: 0 });
  reportFigure(
    'Clock jumps',
    `double fires ${doubleFires}; largest firing error ${worst.ms} ms (${worst.label}); ${errors.length} ` +
      `posts fired across +2 h, −1 h, DST fall-back and spring-forward (America/New_York), default sweep`,
  );
});

describe("Herald's wall clock jumps while it runs", () => {
  const done: string[] = [];

  it(
    '+2 h: the skipped post past the grace is missed, the one ' + 'within it publishes at once, later ones on time',
    async () => {
      const f0 = fakeNow();
      const skipped = await scheduleAt('Clock +2h: due in the skipped hours', f0 + HOUR);
      const inGrace = await scheduleAt('Clock +2h: due 5 minutes before the landing', f0 + 2 * HOUR - 5 * 60_000);
      const after1 = await scheduleAt('Clock +2h: due 5 s after the landing', f0 + 2 * HOUR + 5_000);
      const after2 = await scheduleAt('Clock +2h: due 10 s after the landing', f0 + 2 * HOUR + 10_000);
      await new Promise((r) => setTimeout(r, 500));
      setOffset(offset + Math.round((f0 + 2 * HOUR - fakeNow()) / 1000));
      await firedOnce(after1, '+2 h, 5 s after');
      await firedOnce(after2, '+2 h, 10 s after');
      await until(
        'the skipped and in-grace posts to settle',
        () => (entry(skipped).status !== 'pending' && entry(inGrace).status !== 'pending') || undefined,
        30_000,
        200,
      );
      expect(entry(skipped)).toMatchObject({ status: 'missed', starts: [] });
      expect(entry(skipped).error).toMatch(/^Missed/);
      expect(await onNetwork(skipped)).toBe(0);
      const g = entry(inGrace);
      expect(g.status).toBe('done');
      expect(g.starts).toHaveLength(1);
      expect(await onNetwork(inGrace)).toBe(1);
      done.push(inGrace, after1, after2);
    },
    120_000,
  );

  it(
    '−1 h: nothing fires before its instant, and published posts do not fire again when the clock passes them ' +
      'twice',
    async () => {
      const due = await scheduleAt('Clock −1h: due 6 s after scheduling', fakeNow() + 6_000);
      const realDue = Date.now() + 6_000;
      setOffset(offset - 3600);
      // Past the moment the post's timer was armed for: the wall clock now reads an hour earlier.
      await new Promise((r) => setTimeout(r, Math.max(0, realDue - Date.now()) + 3_000));
      expect(entry(due)).toMatchObject({ status: 'pending', starts: [] });
      expect(await onNetwork(due)).toBe(0);
      // The clock comes back: the post is due (a few seconds ago) and fires once; the ones
      // published before the jump, whose instants the clock passed again, stay once.
      setOffset(offset + 3600);
      await until('the post to publish', () => entry(due).status === 'done' || undefined, 90_000, 200);
      expect(entry(due).starts).toHaveLength(1);
      expect(await onNetwork(due)).toBe(1);
      await stillOnce([...done, due]);
      done.push(due);
    },
    120_000,
  );

  it('DST fall-back: 01:30 EDT and 01:30 EST are two instants an hour apart, each fired once', async () => {
    setFakeTime(Date.parse('2026-11-01T05:29:54Z')); // 01:29:54 EDT
    const edt = await scheduleAt('DST fall-back: 01:30 EDT', '2026-11-01T01:30:00-04:00');
    const est = await scheduleAt('DST fall-back: 01:30 EST', '2026-11-01T01:30:00-05:00');
    expect(entry(edt).fireAt).toBe(Date.parse('2026-11-01T05:30:00Z'));
    expect(entry(est).fireAt).toBe(Date.parse('2026-11-01T06:30:00Z'));
    await firedOnce(edt, 'fall-back 01:30 EDT');
    expect(entry(est)).toMatchObject({ status: 'pending', starts: [] });
    setFakeTime(Date.parse('2026-11-01T06:29:54Z')); // 01:29:54 EST: the local hour again
    await firedOnce(est, 'fall-back 01:30 EST');
    await stillOnce([...done, edt, est]);
  }, 120_000);

  it('DST spring-forward: posts on both sides of the skipped local hour fire once at their instants', async () => {
    setFakeTime(Date.parse('2026-03-08T06:59:54Z')); // 01:59:54 EST; 02:00 local never comes
    const before = await scheduleAt('DST spring-forward: 01:59:58 EST', '2026-03-08T01:59:58-05:00');
    const after = await scheduleAt('DST spring-forward: 03:00:02 EDT', '2026-03-08T03:00:02-04:00');
    expect(entry(after).fireAt - entry(before).fireAt).toBe(4_000);
    await firedOnce(before, 'spring-forward 01:59:58 EST');
    await firedOnce(after, 'spring-forward 03:00:02 EDT');
    await stillOnce([...done, before, after]);
  }, 120_000);
});
