/**
 * After a wake from sleep the grace/missed rule runs at once (issue #23 item 5b), through the
 * headless server with an injected clock: the desktop's powerMonitor 'resume' calls
 * Scheduler.afterWake (main/keep-awake.ts), here driven with a stand-in powerMonitor. A post due
 * while asleep and found within the grace period goes out late; one past it is missed, not sent.
 */
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualWaker } from '../helpers/scheduler-world.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import { wireKeepAwake } from '../../main/keep-awake.js';

const MIN = 60_000;
const clock = new TestClock(Date.parse('2026-11-16T21:00:00Z'));
let masto: MastodonSimulator;
let t: TestServer;
let key: string;
let acct: string;

beforeAll(async () => {
  masto = await startMastodonSimulator({ now: () => clock.now() });
  // The hand-off stays off (the test server's default): these posts are Herald's own to send.
  t = await startServer({ clock, scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 } });
  key = await t.login();
  acct = (await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url })).body.accountUuid;
});
afterAll(async () => {
  await t?.close();
  await masto?.close();
});

async function schedule(text: string, inMs: number): Promise<string> {
  const d = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId: d.body.draft.id,
      scheduledFor: new Date(clock.now() + inMs).toISOString(),
      targetAccounts: [{ accountId: acct, platform: 'fedblog' }],
      applyJitter: false,
    },
  });
  expect(r.status, r.text).toBe(200);
  return d.body.draft.id;
}

describe('resume from sleep', () => {
  it('runs grace/missed at once: within grace sent late, past it missed; tells what happened', async () => {
    const monitor = new EventEmitter();
    const notes: { title: string; body: string }[] = [];
    let blockers = 0;
    const keep = wireKeepAwake(
      {
        powerSaveBlocker: { start: () => ++blockers, stop: () => {}, isStarted: () => true },
        powerMonitor: monitor,
        notify: (title, body) => notes.push({ title, body }),
      },
      { clock: t.server.deps.clock, scheduler: t.server.scheduler! },
      { checkMs: 3_600_000 },
    );

    const missed = await schedule('Due five minutes into the sleep', 5 * MIN);
    const late = await schedule('Due thirty minutes into the sleep', 30 * MIN);
    expect(t.server.scheduler!.nextLocalDue()).toBe(clock.now() + 5 * MIN);
    keep.check();
    expect(keep.blocking()).toBe(false); // 5 minutes ahead: not yet

    monitor.emit('suspend'); // the lid closes (a real suspend ignores the blocker's absence)
    clock.advance(40 * MIN); // no timer fires while asleep
    const report = await keep.resumed();

    expect(report.missed.map((x) => x.draftId)).toEqual([missed]);
    expect(report.late.map((x) => ({ id: x.draftId, lateMs: x.lateMs }))).toEqual([{ id: late, lateMs: 10 * MIN }]);
    expect(masto.statusesBy('herald').map((s) => s.text)).toEqual(['Due thirty minutes into the sleep']);
    const p = await t.call('GET', `/microblog/publish/progress?draftId=${missed}`, { key });
    expect(p.body.entries[0].status).toBe('missed');
    expect(notes).toHaveLength(1);
    expect(notes[0].body).toContain('1 went out late (up to 10 min)');
    expect(notes[0].body).toContain('1 missed');
    expect(t.server.scheduler!.nextLocalDue()).toBeNull();
    expect(keep.blocking()).toBe(false);
    keep.stop();
  });
});
