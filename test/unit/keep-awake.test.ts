// Keep-awake decisions (main/keep-awake.ts) without Electron: the pure rule, the summary words,
// and the wiring against stand-ins for powerSaveBlocker and powerMonitor.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { KEEP_AWAKE_LEAD_MS, shouldKeepAwake, wakeSummary, wireKeepAwake } from '../../main/keep-awake.js';
import type { WakeReport } from '../../server/jobs/scheduler.js';

const MIN = 60_000;
const now = Date.parse('2026-11-16T08:00:00Z');

describe('shouldKeepAwake', () => {
  it.each([
    ['nothing to send', null, false],
    ['due in an hour', now + 60 * MIN, false],
    ['due in 2 min 1 s', now + KEEP_AWAKE_LEAD_MS + 1000, false],
    ['due in exactly 2 min', now + KEEP_AWAKE_LEAD_MS, true],
    ['due in 30 s', now + 30_000, true],
    ['due now', now, true],
    ['overdue (being sent or queued behind others)', now - 5 * MIN, true],
    ['being sent (0)', 0, true],
  ])('%s', (_what, due, want) => {
    expect(shouldKeepAwake(due, now)).toBe(want);
  });

  it('takes another lead', () => {
    expect(shouldKeepAwake(now + 4 * MIN, now, 5 * MIN)).toBe(true);
  });
});

const item = (title: string, lateMs: number) => ({
  draftId: title,
  title,
  platform: 'microblog',
  dueAt: now - lateMs,
  lateMs,
  error: null,
});
const report = (r: Partial<WakeReport>): WakeReport => ({
  since: now - 60 * MIN,
  wokeAt: now,
  late: [],
  missed: [],
  failed: [],
  handedOff: [],
  ...r,
});

describe('wakeSummary', () => {
  it('says nothing when nothing fell due', () => {
    expect(wakeSummary(report({}))).toBeNull();
  });
  it('tells what went out late and what was missed, naming them', () => {
    const s = wakeSummary(
      report({
        late: [item('Late one', 9 * MIN)],
        missed: [item('Missed one', 40 * MIN)],
        handedOff: [item('Handed', 50 * MIN)],
      }),
    )!;
    expect(s.title).toBe('While the computer slept, 3 scheduled posts were due');
    expect(s.body).toContain('1 went out late (up to 9 min)');
    expect(s.body).toContain('1 missed (not sent, not charged: schedule it again)');
    expect(s.body).toContain('1 published on time by its instance');
    expect(s.body).toContain('“Missed one”, “Late one”');
  });
});

function fakes() {
  const started = new Set<number>();
  let next = 1;
  const monitor = new EventEmitter();
  const notes: { title: string; body: string }[] = [];
  const e = {
    powerSaveBlocker: {
      start: (type: string) => {
        expect(type).toBe('prevent-app-suspension');
        started.add(next);
        return next++;
      },
      stop: (id: number) => {
        started.delete(id);
      },
      isStarted: (id: number) => started.has(id),
    },
    powerMonitor: monitor,
    notify: (title: string, body: string) => {
      notes.push({ title, body });
    },
  };
  return { e, started, monitor, notes };
}

describe('wireKeepAwake', () => {
  it('blocks suspension from 2 minutes before the next post until it is sent', () => {
    const { e, started } = fakes();
    const clock = {
      t: now,
      now() {
        return this.t;
      },
    };
    let due: number | null = now + 10 * MIN;
    const k = wireKeepAwake(
      e,
      { clock, scheduler: { nextLocalDue: () => due, afterWake: async () => report({}) } },
      { checkMs: 3_600_000 },
    );
    expect(k.blocking()).toBe(false);
    clock.t = now + 8 * MIN + 1;
    k.check();
    expect(k.blocking()).toBe(true);
    expect(started.size).toBe(1);
    clock.t = now + 10 * MIN;
    due = 0; // being sent
    k.check();
    expect(k.blocking()).toBe(true);
    due = null; // sent, nothing else queued
    k.check();
    expect(k.blocking()).toBe(false);
    expect(started.size).toBe(0);
    k.stop();
  });

  it("on resume runs the scheduler's wake hook from the suspend time and notifies", async () => {
    const { e, monitor, notes } = fakes();
    const clock = {
      t: now,
      now() {
        return this.t;
      },
    };
    const calls: number[] = [];
    const k = wireKeepAwake(
      e,
      {
        clock,
        scheduler: {
          nextLocalDue: () => null,
          afterWake: async (since) => {
            calls.push(since);
            return report({ missed: [item('Gone by', 30 * MIN)] });
          },
        },
      },
      { checkMs: 3_600_000 },
    );
    monitor.emit('suspend');
    clock.t = now + 90 * MIN;
    const r = await k.resumed();
    expect(calls).toEqual([now]);
    expect(r.missed).toHaveLength(1);
    expect(notes[0].title).toContain('1 scheduled post was due');
    k.stop();
  });
});
