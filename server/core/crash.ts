/**
 * Crash points for the crash harness (docs/decisions.md §20.1, test/reliability): with
 * HERALD_CRASH_AT=<point>:<n>[,<point>:<n>…] in the environment the process SIGKILLs itself on
 * the nth hit of a named point, leaving the database and the networks exactly as a power cut
 * would. Unset (always, outside the harness), `crashPoint()` returns at its first comparison.
 *
 * The points, in the order a scheduled publish meets them:
 * - `claim`: a batch of due schedule entries is claimed (committed), nothing dispatched yet.
 * - `plan`: inside the transaction that charges credits and lays out a publication's parts (for
 *   scheduled posts, the one transaction that begins a whole claimed batch: a kill undoes it all).
 * - `send`: a part's `sending` is on disk (its group commit fsynced); its network call has not started.
 * - `answered`: the network answered with the post's id; Herald has not recorded it.
 * - `sent`: a part is recorded `sent`.
 * - `mid-thread`: a part other than the last of its thread is recorded `sent`.
 * - `finish`: a publication is recorded published/failed; its schedule entry is not yet done.
 * - `refresh`: the network issued new tokens; Herald has not saved them.
 * - `done`: schedule entries' outcomes are recorded (written together, once per event-loop turn).
 */
import fs from 'node:fs';

export const CRASH_POINTS = [
  'claim',
  'plan',
  'send',
  'answered',
  'sent',
  'mid-thread',
  'finish',
  'refresh',
  'done',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Hits left before the kill, per armed point; undefined when nothing is armed. */
let armed: Map<string, number> | undefined;

/** Parses `point:n,…` (n defaults to 1) and arms those points; '' or undefined disarms. */
export function armCrashPoints(spec: string | undefined): void {
  armed = undefined;
  if (!spec) return;
  const plan = new Map<string, number>();
  for (const item of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, count = '1'] = item.split(':');
    const n = Number(count);
    if (!(CRASH_POINTS as readonly string[]).includes(name) || !Number.isInteger(n) || n < 1) {
      throw new Error(`HERALD_CRASH_AT: "${item}" is not <point>:<n> with a point among ${CRASH_POINTS.join(', ')}`);
    }
    plan.set(name, n);
  }
  armed = plan;
}

export function crashPoint(name: CrashPoint): void {
  if (armed === undefined) return;
  const left = armed.get(name);
  if (left === undefined) return;
  if (left > 1) {
    armed.set(name, left - 1);
    return;
  }
  // Written synchronously: the harness reads which point fired from stderr.
  fs.writeSync(2, `Herald crash point ${name}: SIGKILL\n`);
  process.kill(process.pid, 'SIGKILL');
}
