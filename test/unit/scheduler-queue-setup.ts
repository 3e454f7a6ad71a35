/**
 * Shared by the schedule queue tests: a server with an injected clock, random source and a manual
 * waker (it records what the scheduler armed), the servers to close after each test, and the
 * schedule requests the scheduler tests make.
 */
import type { Waker } from '../../server/jobs/scheduler.js';
import { ownerId } from '../helpers/fixtures.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

export class ManualWaker implements Waker {
  at: number | undefined;
  arms = 0;
  arm(at: number) {
    this.at = at;
    this.arms += 1;
  }
  cancel() {
    this.at = undefined;
  }
}

export const servers: TestServer[] = [];
export async function closeServers(): Promise<void> {
  while (servers.length) await servers.pop()!.close();
}

export async function setup(randoms: number[] = [0.5]) {
  const clock = new TestClock(Date.parse('2026-11-15T12:00:00Z'));
  const waker = new ManualWaker();
  let i = 0;
  const t = await startServer({
    clock,
    random: () => randoms[i++ % randoms.length],
    scheduler: { waker, sweepMs: 3_600_000 },
  });
  servers.push(t);
  const key = await t.login();
  const user = ownerId(t);
  return { t, key, user, clock, waker };
}

/** Schedules the draft on one Mastodon account, due a minute from the clock's now, without jitter. */
export function scheduleInAMinute(
  server: TestServer,
  key: string,
  draftId: string,
  accountUuid: string,
  clock: TestClock,
) {
  return server.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + 60_000).toISOString(),
      accountUuid,
      platform: 'fedblog',
      applyJitter: false,
    },
  });
}

/** Schedules the draft on a Mastodon account and a Bluesky account, due at `at`, without jitter. */
export function scheduleOnTwo(t: TestServer, key: string, draftId: string, [fedblog, skyblog]: string[], at: number) {
  return t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(at).toISOString(),
      targetAccounts: [
        { accountId: fedblog, platform: 'fedblog' },
        { accountId: skyblog, platform: 'skyblog' },
      ],
      applyJitter: false,
    },
  });
}
