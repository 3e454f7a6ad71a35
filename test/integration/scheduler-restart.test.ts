/**
 * The scheduler after a kill, with an injected clock and a manual waker against the X and
 * Mastodon simulators: a draft scheduled again while a killed process had claimed it, and a post
 * begun when it fell due but still queued when Herald stopped.
 */
import { describe, expect, it } from 'vitest';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  CLIENT,
  clock,
  draft,
  entry,
  key,
  ManualWaker,
  MIN,
  scheduleAt,
  t,
  tweets,
  useSchedulerWorld,
  x,
  xId,
} from '../helpers/scheduler-world.js';

useSchedulerWorld();

describe('a draft scheduled again while a killed process had claimed it', () => {
  it('starts cleanly: the new entry stands, the stale claim is dropped, and the post goes out once', async () => {
    const id = await draft('Claimed, killed, scheduled again');
    await scheduleAt(id, 30 * MIN, [{ accountId: xId, platform: 'microblog' }]);
    // What a process killed mid-dispatch leaves behind.
    t.server.sqlite.prepare("UPDATE schedule_entries SET status = 'claimed' WHERE draft_id = ?").run(id);
    await scheduleAt(id, 2 * MIN, [{ accountId: xId, platform: 'microblog' }]);
    const rows = () =>
      t.server.sqlite
        .prepare('SELECT status, due_at AS dueAt FROM schedule_entries WHERE draft_id = ? ORDER BY status')
        .all(id) as { status: string; dueAt: number }[];
    expect(rows().map((r) => r.status)).toEqual(['claimed', 'pending']);
    // A new process on the folder (this one lets the lock go first).
    await t.server.scheduler!.stop();
    const next = await startServer({
      dataDir: t.dataDir,
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
    try {
      expect(next.server.scheduler!.active).toBe(true);
      expect(rows()).toEqual([{ status: 'pending', dueAt: clock.now() + 2 * MIN }]);
      clock.advance(2 * MIN);
      await next.server.scheduler!.tick();
      expect(rows()[0].status).toBe('done');
      expect(tweets('Claimed, killed, scheduled again')).toBe(1);
    } finally {
      await next.server.close();
    }
  });
});

describe("a post begun when it fell due, still queued behind its account's earlier post when Herald stopped", () => {
  it(
    'goes back to its schedule, refunded, and is missed rather than sent stale when Herald returns past the ' +
      'grace period',
    async () => {
      const settings = {
        HERALD_MICROBLOG_API_URL: x.url,
        HERALD_MICROBLOG_AUTHORIZE_URL: x.authorizeUrl,
        HERALD_MICROBLOG_TOKEN_URL: x.tokenUrl,
        HERALD_MICROBLOG_CLIENT_ID: CLIENT.clientId,
        HERALD_MICROBLOG_CLIENT_SECRET: CLIENT.clientSecret,
      };
      const own = await startServer({ clock, scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 }, settings });
      let next: TestServer | undefined;
      try {
        const ownKey = await own.login();
        const account = (await connectOAuth(own, ownKey, 'microblog')).body.accountUuid as string;
        const make = async (text: string) =>
          (
            await own.call('POST', '/microblog/drafts', {
              key: ownKey,
              body: { title: text, tweets: [{ content: text }] },
            })
          ).body.draft.id as string;
        const [first, second] = [
          await make('Sent just before Herald stopped'),
          await make('Begun, queued behind it when Herald stopped'),
        ];
        for (const [id, priority] of [
          [first, 5],
          [second, 0],
        ] as const) {
          const r = await own.call('POST', '/microblog/schedule', {
            key: ownKey,
            body: {
              draftId: id,
              scheduledFor: new Date(clock.now() + MIN).toISOString(),
              targetAccounts: [{ accountId: account, platform: 'microblog' }],
              applyJitter: false,
              priority,
            },
          });
          expect(r.status, r.text).toBe(200);
        }
        const db = own.server.sqlite;
        const pub = (id: string) =>
          db.prepare('SELECT status FROM publications WHERE draft_id = ?').get(id) as { status: string } | undefined;
        const balance = async (srv: TestServer) =>
          (await srv.call('POST', '/credits', { key: ownKey })).body.balance as number;
        const before = await balance(own);

        // Both fall due: the first goes out slowly; the second is begun (planned, charged) and waits.
        clock.advance(MIN);
        x.faults.latencyMs = 300;
        const firing = own.server.scheduler!.tick();
        for (let i = 0; i < 200 && pub(second)?.status !== 'publishing'; i++)
          await new Promise((r) => setTimeout(r, 5));
        expect(pub(second)?.status).toBe('publishing');
        await own.server.scheduler!.stop();
        await firing;
        x.faults.latencyMs = 0;
        expect(tweets('Sent just before Herald stopped')).toBe(1);
        expect(tweets('Begun, queued behind it when Herald stopped')).toBe(0);
        expect(pub(second)?.status).toBe('publishing');

        // Back 16 minutes later, past the 15-minute grace: the second is missed, not published now.
        clock.advance(16 * MIN);
        next = await startServer({
          dataDir: own.dataDir,
          clock,
          scheduler: { waker: new ManualWaker(), sweepMs: 3_600_000 },
          settings,
        });
        await next.server.scheduler!.tick();
        const e = db.prepare('SELECT status FROM schedule_entries WHERE draft_id = ?').get(second) as {
          status: string;
        };
        expect(e.status).toBe('missed');
        expect(tweets('Begun, queued behind it when Herald stopped')).toBe(0);
        expect(pub(second)).toBeUndefined();
        expect((db.prepare('SELECT status FROM drafts WHERE id = ?').get(second) as { status: string }).status).toBe(
          'draft',
        );
        // Charged for the one that went out only.
        expect(before - (await balance(next))).toBe(10);
      } finally {
        x.faults.latencyMs = 0;
        await next?.close();
        await own.close();
      }
    },
  );
});
