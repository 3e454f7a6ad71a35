/**
 * The scheduler working through the queue with an injected clock and waker: the grace rule for
 * posts missed while closed (and scheduling one again), its wake-up rebuilt from the database at
 * start, a user's monthly grant looked up once per batch, and one scheduler per data folder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { insertAccount, insertDraft } from '../helpers/fixtures.js';
import { startServer } from '../helpers/server.js';
import {
  closeServers,
  ManualWaker,
  scheduleInAMinute,
  scheduleOnTwo,
  servers,
  setup,
} from './scheduler-queue-setup.js';

afterEach(closeServers);

describe('scheduling', () => {
  it('marks a post missed when it is later than the grace period, without charging', async () => {
    const { t, key, user, clock } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const draftId = insertDraft(t, user, ['while closed']);
    await scheduleInAMinute(t, key, draftId, a, clock);
    const before = (await t.call('POST', '/credits', { key })).body.balance;
    clock.advance(60_000 + 16 * 60_000); // 16 minutes late: past the 15-minute grace
    await t.server.scheduler!.tick();
    const progress = await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key });
    expect(progress.body.entries).toHaveLength(1);
    expect(progress.body.entries[0].status).toBe('missed');
    expect(progress.body.summary).toMatchObject({ total: 1, failed: 1, completed: 0, pending: 0 });
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(before);
    const draft = t.server.sqlite.prepare('SELECT status FROM drafts WHERE id = ?').get(draftId) as any;
    expect(draft.status).toBe('draft');
  });

  it('a missed post scheduled again shows as pending in progress, and once it fires, as published', async () => {
    const { t, key, user, clock } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const draftId = insertDraft(t, user, ['missed, then again']);
    await scheduleInAMinute(t, key, draftId, a, clock);
    clock.advance(60_000 + 16 * 60_000);
    await t.server.scheduler!.tick();
    const progress = async () => (await t.call('GET', `/microblog/publish/progress?draftId=${draftId}`, { key })).body;
    expect((await progress()).entries.map((e: any) => e.status)).toEqual(['missed']);
    const again = new Date(clock.now() + 3_600_000).toISOString();
    const r = await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: again, accountUuid: a, platform: 'fedblog', applyJitter: false },
    });
    expect(r.status, r.text).toBe(200);
    const p = await progress();
    expect(p.entries).toEqual([expect.objectContaining({ status: 'pending', scheduledFor: again, accountUuid: a })]);
    expect(p.summary).toMatchObject({ total: 1, pending: 1, failed: 0 });
    const draft = t.server.sqlite
      .prepare('SELECT status, scheduled_for AS s FROM drafts WHERE id = ?')
      .get(draftId) as any;
    expect(draft).toEqual({ status: 'scheduled', s: again });
  });

  it('rebuilds its wake-up from the database at start and says what it armed', async () => {
    const { t, key, user, clock } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const b = insertAccount(t, user, 'skyblog');
    const draftId = insertDraft(t, user, ['across a restart']);
    const at = clock.now() + 3_600_000;
    await scheduleOnTwo(t, key, draftId, [a, b], at);
    await t.server.close();
    const lines: string[] = [];
    const waker = new ManualWaker();
    const log = { info: (m: string) => lines.push(m), warn: () => {}, error: () => {} };
    const again = await startServer({ dataDir: t.dataDir, clock, log, scheduler: { waker, sweepMs: 3_600_000 } });
    servers.push(again);
    expect(waker.at).toBe(at);
    expect(lines.filter((l) => l.startsWith('Scheduler:'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Scheduler: 2 pending, next wake-up ${new Date(at).toISOString().replaceAll('.', '\\.')} \\(armed ` +
            `in \\d+\\.\\d ms\\)$`,
        ),
      ),
    ]);
  });

  it(
    "looks a user's monthly grant up once per batch, outside " + "the batch's transaction, so it is remembered",
    async () => {
      const { t, key, user, clock } = await setup();
      const a = insertAccount(t, user, 'fedblog');
      const b = insertAccount(t, user, 'skyblog');
      const at = clock.now() + 60_000;
      for (const text of ['one', 'two', 'three']) {
        const draftId = insertDraft(t, user, [text]);
        await scheduleOnTwo(t, key, draftId, [a, b], at);
      }
      const credits = t.server.services.credits;
      const calls: boolean[] = [];
      const ensureGrant = credits.ensureGrant.bind(credits);
      credits.ensureGrant = (userId) => {
        calls.push(t.server.sqlite.inTransaction);
        return ensureGrant(userId);
      };
      clock.advance(60_000);
      await t.server.scheduler!.tick();
      // Six posts begun in one batch: the first look is on its own (and so remembered); the ones
      // inside the batch's transaction find it remembered.
      expect(calls.length).toBeGreaterThanOrEqual(7);
      expect(calls[0]).toBe(false);
      expect(
        t.server.sqlite
          .prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE user_id = ? AND trans_type = 'grant'")
          .get(user),
      ).toEqual({ n: 1 });
    },
  );

  it('runs one scheduler per data folder: a second server on the same folder fires nothing', async () => {
    const { t, key, user, clock } = await setup();
    const waker2 = new ManualWaker();
    const second = await startServer({ dataDir: t.dataDir, clock, scheduler: { waker: waker2, sweepMs: 3_600_000 } });
    expect(t.server.scheduler!.active).toBe(true);
    expect(second.server.scheduler!.active).toBe(false);
    const a = insertAccount(t, user, 'fedblog');
    const draftId = insertDraft(t, user, ['only once']);
    await scheduleInAMinute(second, key, draftId, a, clock);
    clock.advance(60_000 + 20 * 60_000);
    await second.server.scheduler!.tick();
    const entry = t.server.sqlite.prepare('SELECT status FROM schedule_entries WHERE draft_id = ?').get(draftId) as any;
    expect(entry.status).toBe('pending');
    expect(waker2.arms).toBe(0);
    await second.server.close();
  });
});
