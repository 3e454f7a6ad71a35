/**
 * The world of the scheduler dispatch tests: Herald with an injected clock and a manual waker,
 * against the X and Mastodon simulators (accounts connected over Herald's own OAuth). Each test
 * file that calls useSchedulerWorld() gets its own server and simulators.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Waker } from '../../server/jobs/scheduler.js';
import { connectOAuth } from './oauth-connect.js';
import { startServer, TestClock, type TestServer } from './server.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import { startXSimulator, type XSimulator } from '../simulators/x.simulator.js';

export class ManualWaker implements Waker {
  at: number | undefined;
  arm(at: number) {
    this.at = at;
  }
  cancel() {
    this.at = undefined;
  }
}

export const CLIENT = { clientId: 'herald-sched-client', clientSecret: 'herald-sched-secret' };
export let x: XSimulator;
export let masto: MastodonSimulator;
export let t: TestServer;
export let key: string;
export let xId: string;
export let mastoId: string;
export const clock = new TestClock(Date.now());
export const MIN = 60_000;

export function useSchedulerWorld(): void {
  beforeAll(async () => {
    [x, masto] = await Promise.all([startXSimulator({ ...CLIENT, rejectDuplicates: false }), startMastodonSimulator()]);
    t = await startServer({
      clock,
      scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
      settings: {
        HERALD_MICROBLOG_API_URL: x.url,
        HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
        HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
        HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
        HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
      },
    });
    key = await t.login();
    xId = (await connectOAuth(t, key, 'microblog')).body.accountUuid;
    mastoId = (await connectOAuth(t, key, 'fedblog', { instanceUrl: masto.url })).body.accountUuid;
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([x?.close(), masto?.close()]);
  });
}

export async function draft(text: string): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', { key, body: { title: text, tweets: [{ content: text }] } });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id;
}

export async function scheduleAt(
  draftId: string,
  ms: number,
  targets: { accountId: string; platform: string }[],
  extra: Record<string, unknown> = {},
) {
  const r = await t.call('POST', '/microblog/schedule', {
    key,
    body: {
      draftId,
      scheduledFor: new Date(clock.now() + ms).toISOString(),
      targetAccounts: targets,
      applyJitter: false,
      ...extra,
    },
  });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

export const entry = (draftId: string, accountId = xId) =>
  t.server.sqlite
    .prepare(
      'SELECT status, attempts, due_at AS dueAt, last_error AS error FROM schedule_entries WHERE draft_id = ' +
        '? AND account_id = ?',
    )
    .get(draftId, accountId) as { status: string; attempts: number; dueAt: number; error: string | null };
export const draftStatus = (id: string) =>
  (t.server.sqlite.prepare('SELECT status FROM drafts WHERE id = ?').get(id) as { status: string }).status;
export const tweets = (text: string) => x.state.posts.filter((p) => p.text === text).length;
export const fire = () => t.server.scheduler!.tick();
