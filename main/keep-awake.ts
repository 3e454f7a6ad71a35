/**
 * Sleep-proof scheduling on the desktop (issue #23 item 5b): the app keeps the system from
 * suspending from shortly before a post Herald itself must send until it is sent
 * (powerSaveBlocker 'prevent-app-suspension'), and after a wake from sleep (powerMonitor
 * 'resume') runs the grace/missed rule at once through the scheduler's one hook
 * (Scheduler.afterWake) and tells what went out late or was missed. Posts handed off to their
 * network (Mastodon) need neither: the network publishes them.
 *
 * The decisions are pure functions (unit-tested without Electron); wireKeepAwake() only connects
 * them to Electron's modules, passed in like the rest of desktop.ts.
 */
import type { WakeReport } from '../server/jobs/scheduler.js';

/** How long before a due post the system is kept awake. */
export const KEEP_AWAKE_LEAD_MS = 2 * 60_000;
/** How often the next due time is looked at again (the queue changes, posts go out). */
export const KEEP_AWAKE_CHECK_MS = 15_000;

/**
 * Whether the system should be kept awake now: a post Herald sends itself is due within
 * `leadMs`, or overdue (being sent, or waiting for its turn). `nextDueAt` null: nothing to send.
 */
export function shouldKeepAwake(nextDueAt: number | null, now: number, leadMs = KEEP_AWAKE_LEAD_MS): boolean {
  return nextDueAt !== null && nextDueAt - now <= leadMs;
}

/** One notification's words about what fell due while the machine slept; null when nothing did. */
export function wakeSummary(r: WakeReport): { title: string; body: string } | null {
  const parts: string[] = [];
  const mins = (ms: number) => `${Math.max(1, Math.round(ms / 60_000))} min`;
  if (r.late.length)
    parts.push(`${r.late.length} went out late (up to ${mins(Math.max(...r.late.map((x) => x.lateMs)))})`);
  if (r.missed.length)
    parts.push(
      `${r.missed.length} missed (not sent, not charged: schedule ${r.missed.length === 1 ? 'it' : 'them'} again)`,
    );
  if (r.failed.length) parts.push(`${r.failed.length} failed`);
  if (r.handedOff.length)
    parts.push(
      `${r.handedOff.length} published on time by ${r.handedOff.length === 1 ? 'its instance' : 'their instances'}`,
    );
  if (parts.length === 0) return null;
  const n = r.late.length + r.missed.length + r.failed.length + r.handedOff.length;
  const titles = [...r.missed, ...r.failed, ...r.late]
    .map((x) => `“${x.title}”`)
    .slice(0, 3)
    .join(', ');
  return {
    title: `While the computer slept, ${n === 1 ? '1 scheduled post was due' : `${n} scheduled posts were due`}`,
    body: `${parts.join('; ')}.${titles ? ` ${titles}.` : ''} See History.`.slice(0, 300),
  };
}

/** The parts of Electron keep-awake uses. */
export interface PowerModules {
  powerSaveBlocker: {
    start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number;
    stop(id: number): void;
    isStarted(id: number): boolean;
  };
  powerMonitor: { on(event: 'suspend' | 'resume', listener: () => void): unknown };
  notify(title: string, body: string): void;
}

/** What keep-awake needs of the server: the scheduler's two calls, and its clock. */
export interface KeepAwakeServer {
  clock: { now(): number };
  scheduler: { nextLocalDue(): number | null; afterWake(since: number): Promise<WakeReport> };
}

export interface KeepAwake {
  /** Looks at the next due time and starts or stops blocking suspension. */
  check(): void;
  /** The machine woke (also called by powerMonitor 'resume'): grace/missed at once, then tell. */
  resumed(): Promise<WakeReport>;
  blocking(): boolean;
  stop(): void;
}

export function wireKeepAwake(
  e: PowerModules,
  server: KeepAwakeServer,
  opts: { checkMs?: number; leadMs?: number } = {},
): KeepAwake {
  let blocker: number | undefined;
  let sleptAt: number | undefined;
  const check = () => {
    const want = shouldKeepAwake(server.scheduler.nextLocalDue(), server.clock.now(), opts.leadMs);
    if (want && blocker === undefined) blocker = e.powerSaveBlocker.start('prevent-app-suspension');
    else if (!want && blocker !== undefined) {
      if (e.powerSaveBlocker.isStarted(blocker)) e.powerSaveBlocker.stop(blocker);
      blocker = undefined;
    }
  };
  const resumed = async () => {
    // Without a 'suspend' seen (a crash of the app meanwhile, a platform that skips it): the last day.
    const since = sleptAt ?? server.clock.now() - 24 * 60 * 60_000;
    sleptAt = undefined;
    const report = await server.scheduler.afterWake(since);
    const words = wakeSummary(report);
    if (words) e.notify(words.title, words.body);
    check();
    return report;
  };
  e.powerMonitor.on('suspend', () => {
    sleptAt = server.clock.now();
  });
  e.powerMonitor.on('resume', () => {
    void resumed();
  });
  const timer = setInterval(check, opts.checkMs ?? KEEP_AWAKE_CHECK_MS);
  timer.unref();
  check();
  return {
    check,
    resumed,
    blocking: () => blocker !== undefined,
    stop() {
      clearInterval(timer);
      if (blocker !== undefined && e.powerSaveBlocker.isStarted(blocker)) e.powerSaveBlocker.stop(blocker);
      blocker = undefined;
    },
  };
}
