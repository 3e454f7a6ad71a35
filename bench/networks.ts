/**
 * The networks for benchmarks: the X, Mastodon, Threads and LinkedIn simulators (in this
 * process, on loopback), the HERALD_* settings that point a Herald child process at them, and
 * accounts connected through Herald's own OAuth flows (test/helpers/oauth-connect.ts).
 */
import type { TestServer } from '../test/helpers/server.js';
import { simulatorSettings } from '../test/helpers/networks.js';
import { connectOAuth } from '../test/helpers/oauth-connect.js';
import {
  startLinkedInSimulator,
  startMastodonSimulator,
  startThreadsSimulator,
  startXSimulator,
  type LinkedInSimulator,
  type MastodonSimulator,
  type ThreadsSimulator,
  type XSimulator,
} from '../test/simulators/index.js';
import type { HeraldChild } from './lib.js';

export interface Simulators {
  x: XSimulator;
  masto: MastodonSimulator;
  threads: ThreadsSimulator;
  li: LinkedInSimulator;
  settings: Record<string, string>;
  /** Latency every simulator adds to each request from now on. */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

const X_CLIENT = { clientId: 'herald-bench-client', clientSecret: 'herald-bench-secret' };

export async function startSimulators(): Promise<Simulators> {
  // Containers are ready at once, so Threads' time is its requests' latency, not Herald's
  // production poll interval (3 s); duplicate refusals off, as every run posts new text anyway.
  const [x, masto, threads, li] = await Promise.all([
    startXSimulator({ ...X_CLIENT, rejectDuplicates: false, checkAfterSecs: 0, tweetLimit: 100_000 }),
    startMastodonSimulator(),
    // Threads' 250 posts a day per account lifted too (the scheduler bench posts 275 per account).
    startThreadsSimulator({ containerReadyMs: 0, postsPerDay: 100_000 }),
    startLinkedInSimulator({ rejectDuplicates: false }),
  ]);
  return {
    x,
    masto,
    threads,
    li,
    settings: simulatorSettings(x, threads, li, X_CLIENT),
    setLatency(ms) {
      for (const s of [x, masto, threads, li]) s.faults.latencyMs = ms;
    },
    close: async () => {
      await Promise.all([x.close(), masto.close(), threads.close(), li.close()]);
    },
  };
}

/** Connects one account per simulator through Herald's HTTP API; returns the account ids. */
export async function connectSimulators(
  h: HeraldChild,
  sims: Simulators,
): Promise<Record<'microblog' | 'fedblog' | 'threadblog' | 'problog', string>> {
  const t = { call: h.call } as unknown as TestServer;
  const one = async (platform: string, body: Record<string, unknown> = {}) => {
    const r = await connectOAuth(t, h.key, platform, body);
    if (r.status !== 200) throw new Error(`connecting ${platform} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.accountUuid as string;
  };
  return {
    microblog: await one('microblog'),
    fedblog: await one('fedblog', { instanceUrl: sims.masto.url }),
    threadblog: await one('threadblog'),
    problog: await one('problog'),
  };
}
