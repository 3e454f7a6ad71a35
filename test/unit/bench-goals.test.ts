/**
 * Every bench states its goal and exits non-zero when a figure misses it; the API, scheduler and
 * fan-out benches hold the project's performance goals (docs/decisions.md §20.3; the API's p99 ≤ 5 ms
 * and fan-out's ≤ 1.1× are the bar's stricter ends).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve('bench');
const benches = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));

describe('benches', () => {
  it.each(benches)('%s prints its goal and exits non-zero on a miss', (f) => {
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    expect(src).toMatch(/goal/i);
    expect(src).toMatch(/finishGoals\(\)|process\.exitCode = 1|process\.exit\(1\)/);
  });

  it('the API bench holds the goals: ≥ 0.35× raw, p99 ≤ 5 ms, p50 ≤ 0.25 ms at 1 connection', () => {
    const src = fs.readFileSync(path.join(dir, 'api.bench.ts'), 'utf8');
    expect(src).toContain('const GOAL = { ratio: 0.35, p99Ms: 5, p50OneMs: 0.25 };');
    expect(src).not.toMatch(/p99 ≤ 10 ms|0\.5×/);
  });

  it('the scheduler and fan-out benches hold the goals', () => {
    const sched = fs.readFileSync(path.join(dir, 'scheduler.bench.ts'), 'utf8');
    expect(sched).toMatch(/p99 ≤ 25 ms, max ≤ 250 ms/);
    expect(sched).not.toMatch(/p99 ≤ 100 ms/);
    expect(fs.readFileSync(path.join(dir, 'fanout.bench.ts'), 'utf8')).toContain('const GOAL = 1.1;');
  });
});
