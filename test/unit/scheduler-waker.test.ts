/**
 * node-schedule's wake-up (nodeScheduleWaker) with fake timers: a date past setTimeout's 24.8-day
 * limit, and re-arming for the same instant.
 */
import { describe, expect, it, vi } from 'vitest';
import schedule from 'node-schedule';
import { nodeScheduleWaker } from '../../server/jobs/scheduler.js';

describe('node-schedule wake-ups', () => {
  it('fires a wake-up 60 days out at its instant, not at once (setTimeout alone overflows past 24.8 days)', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    try {
      const waker = nodeScheduleWaker({ now: () => Date.now() });
      const at = Date.now() + 60 * 86_400_000;
      let firedAt: number | undefined;
      waker.arm(at, () => {
        firedAt = Date.now();
      });
      vi.advanceTimersByTime(60 * 86_400_000 - 1000);
      expect(firedAt).toBeUndefined();
      vi.advanceTimersByTime(1000);
      expect(firedAt).toBe(at);
      // Re-arming replaces the wake-up rather than adding one.
      let count = 0;
      waker.arm(Date.now() + 1000, () => {
        count += 1;
      });
      waker.arm(Date.now() + 2000, () => {
        count += 1;
      });
      vi.advanceTimersByTime(3000);
      expect(count).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the armed job when re-armed for the same instant, and calls the newest callback once', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    const jobs = () => Object.keys(schedule.scheduledJobs);
    try {
      const waker = nodeScheduleWaker({ now: () => Date.now() });
      const at = Date.now() + 5000;
      const calls: string[] = [];
      waker.arm(at, () => calls.push('first'));
      const armed = jobs();
      expect(armed).toHaveLength(1);
      waker.arm(at, () => calls.push('second'));
      expect(jobs()).toEqual(armed);
      vi.advanceTimersByTime(5000);
      expect(calls).toEqual(['second']);
      expect(jobs()).toEqual([]);
      // After it fired, the same instant arms a new job: the first one is spent.
      waker.arm(Date.now(), () => calls.push('third'));
      vi.advanceTimersByTime(10);
      expect(calls).toEqual(['second', 'third']);
      waker.cancel();
    } finally {
      vi.useRealTimers();
    }
  });
});
