/**
 * The schedule queue with an injected clock, random source and waker: jitter bounds, time zones,
 * one pending entry per draft and account, races with a publish or a delete, ordering and
 * cancellation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { insertAccount, insertDraft } from '../helpers/fixtures.js';
import { closeServers, setup } from './scheduler-queue-setup.js';

afterEach(closeServers);

describe('scheduling', () => {
  it('gives each entry its own jitter within ±180 s and echoes the requested time', async () => {
    const { t, key, user, clock } = await setup([0, 0.999999, 0.25]);
    const a = insertAccount(t, user, 'fedblog');
    const b = insertAccount(t, user, 'skyblog');
    const c = insertAccount(t, user, 'threadblog');
    const draftId = insertDraft(t, user, ['hello']);
    const at = new Date(clock.now() + 3_600_000).toISOString();
    const r = await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId,
        scheduledFor: at,
        targetAccounts: [
          { accountId: a, platform: 'fedblog' },
          { accountId: b, platform: 'skyblog' },
          { accountId: c, platform: 'threadblog' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, scheduledFor: at, accountCount: 3 });
    expect(r.body.queueIds).toHaveLength(3);
    const list = await t.call('GET', '/microblog/schedule', { key });
    const offsets = list.body.schedules
      .map((s: any) => Date.parse(s.scheduledFor) - Date.parse(at))
      .sort((x: number, y: number) => x - y);
    expect(offsets).toEqual([-180_000, -90_000, 180_000]);
    const draft = t.server.sqlite
      .prepare('SELECT status, scheduled_for AS s FROM drafts WHERE id = ?')
      .get(draftId) as any;
    expect(draft).toEqual({ status: 'scheduled', s: at });
  });

  it('never puts a jittered entry in the past and refuses a time already past', async () => {
    const { t, key, user, clock } = await setup([0]);
    const a = insertAccount(t, user, 'fedblog');
    const draftId = insertDraft(t, user, ['soon']);
    const soon = new Date(clock.now() + 30_000).toISOString();
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: soon, accountUuid: a, platform: 'fedblog' },
    });
    const [entry] = (await t.call('GET', '/microblog/schedule', { key })).body.schedules;
    expect(Date.parse(entry.scheduledFor)).toBeGreaterThan(clock.now());
    const past = await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: new Date(clock.now() - 1000).toISOString(), accountUuid: a, platform: 'fedblog' },
    });
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('INVALID_INPUT');
  });

  // docs/decisions.md §13 replaced the earlier reading of a zone-less time as UTC: a scheduledFor
  // must now carry Z or an offset, and one without is refused rather than guessed.
  it(
    'refuses a scheduledFor without a zone designator, and reads an offset as the instant it names, whatever ' +
      "the machine's time zone",
    async () => {
      const { t, key, user } = await setup();
      const a = insertAccount(t, user, 'fedblog');
      const draftId = insertDraft(t, user, ['zone-less']);
      const tz = process.env.TZ;
      process.env.TZ = 'America/New_York';
      try {
        const r = await t.call('POST', '/microblog/schedule', {
          key,
          body: {
            draftId,
            scheduledFor: '2026-11-15T14:00:00',
            accountUuid: a,
            platform: 'fedblog',
            applyJitter: false,
          },
        });
        expect(r.status, r.text).toBe(400);
        expect(r.body.details.map((d: any) => d.path)).toEqual(['body.scheduledFor']);
        expect((await t.call('GET', '/microblog/schedule', { key })).body.schedules).toEqual([]);
        // An explicit offset counts.
        await t.call('POST', '/microblog/schedule', {
          key,
          body: {
            draftId,
            scheduledFor: '2026-11-15T09:30:00-05:00',
            accountUuid: a,
            platform: 'fedblog',
            applyJitter: false,
          },
        });
        expect((await t.call('GET', '/microblog/schedule', { key })).body.schedules[0].scheduledFor).toBe(
          '2026-11-15T14:30:00.000Z',
        );
        const draft = t.server.sqlite.prepare('SELECT scheduled_for AS s FROM drafts WHERE id = ?').get(draftId) as {
          s: string;
        };
        expect(draft.s).toBe('2026-11-15T14:30:00.000Z');
      } finally {
        if (tz === undefined) delete process.env.TZ;
        else process.env.TZ = tz;
      }
    },
  );

  it('keeps one pending entry per draft and account: scheduling again moves it', async () => {
    const { t, key, user, clock } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const draftId = insertDraft(t, user, ['move me']);
    const first = new Date(clock.now() + 3_600_000).toISOString();
    const second = new Date(clock.now() + 7_200_000).toISOString();
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: first, accountUuid: a, platform: 'fedblog', applyJitter: false },
    });
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: second, accountUuid: a, platform: 'fedblog', applyJitter: false },
    });
    const list = (await t.call('GET', '/microblog/schedule', { key })).body.schedules;
    expect(list).toHaveLength(1);
    expect(list[0].scheduledFor).toBe(second);
  });

  it('moves the accounts that had a pending entry and adds the others, in one request', async () => {
    const { t, key, user, clock } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const b = insertAccount(t, user, 'skyblog');
    const other = insertDraft(t, user, ['other draft, same account']);
    const draftId = insertDraft(t, user, ['partly scheduled']);
    const at = (ms: number) => new Date(clock.now() + ms).toISOString();
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId: other, scheduledFor: at(1_800_000), accountUuid: a, platform: 'fedblog', applyJitter: false },
    });
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: at(3_600_000), accountUuid: a, platform: 'fedblog', applyJitter: false },
    });
    const r = await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId,
        scheduledFor: at(7_200_000),
        targetAccounts: [
          { accountId: a, platform: 'fedblog' },
          { accountId: b, platform: 'skyblog' },
        ],
        applyJitter: false,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: 'Scheduled for 2 account(s)', accountCount: 2 });
    const list = (await t.call('GET', '/microblog/schedule', { key })).body.schedules;
    expect(
      list
        .map(
          (s: any) =>
            `${s.draftId === draftId ? 'draft' : 'other'} ${s.accountUuid === a ? 'a' : 'b'} ${s.scheduledFor}`,
        )
        .sort(),
    ).toEqual([`draft a ${at(7_200_000)}`, `draft b ${at(7_200_000)}`, `other a ${at(1_800_000)}`]);
    expect(
      list
        .filter((s: any) => s.draftId === draftId)
        .map((s: any) => s.id)
        .sort(),
    ).toEqual([...r.body.queueIds].sort());
  });

  it('writes nothing when a publish of the draft began between the checks and the commit', async () => {
    const { t, user, clock } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const draftId = insertDraft(t, user, ['racing a publish']);
    const pending = t.server.services.scheduling.schedule(user, {
      draftId,
      scheduledFor: new Date(clock.now() + 3_600_000).toISOString(),
      accountUuid: a,
      platform: 'fedblog',
    });
    // The checks ran; the entries wait for the next group commit. A publish starts now.
    t.server.sqlite.prepare("UPDATE drafts SET status = 'publishing' WHERE id = ?").run(draftId);
    await expect(pending).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/being published/),
    });
    expect(
      t.server.sqlite.prepare('SELECT COUNT(*) AS n FROM schedule_entries WHERE draft_id = ?').get(draftId),
    ).toEqual({ n: 0 });
    expect(t.server.sqlite.prepare('SELECT status FROM drafts WHERE id = ?').get(draftId)).toEqual({
      status: 'publishing',
    });
  });

  it(
    'answers NOT_FOUND, not a database error, when the draft ' + 'is deleted between the checks and the commit',
    async () => {
      const { t, user, clock } = await setup();
      const a = insertAccount(t, user, 'fedblog');
      const draftId = insertDraft(t, user, ['deleted meanwhile']);
      const pending = t.server.services.scheduling.schedule(user, {
        draftId,
        scheduledFor: new Date(clock.now() + 3_600_000).toISOString(),
        accountUuid: a,
        platform: 'fedblog',
      });
      // Deleted before the next turn of the event loop, where the group commit writes.
      t.server.sqlite.prepare('DELETE FROM drafts WHERE id = ?').run(draftId);
      await expect(pending).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Draft not found' });
      expect(t.server.sqlite.prepare('SELECT COUNT(*) AS n FROM schedule_entries').get()).toEqual({ n: 0 });
    },
  );

  it('lists soonest first with the spec fields, and arms the waker for the earliest entry', async () => {
    const { t, key, user, clock, waker } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const later = insertDraft(t, user, ['later'], { title: 'Later' });
    const sooner = insertDraft(t, user, ['sooner'], { title: 'Sooner' });
    const at = (ms: number) => new Date(clock.now() + ms).toISOString();
    await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId: later,
        scheduledFor: at(7_200_000),
        accountUuid: a,
        platform: 'fedblog',
        applyJitter: false,
        priority: 5,
      },
    });
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId: sooner, scheduledFor: at(3_600_000), accountUuid: a, platform: 'fedblog', applyJitter: false },
    });
    const list = (await t.call('GET', '/microblog/schedule', { key })).body.schedules;
    expect(list.map((s: any) => s.draftTitle)).toEqual(['Sooner', 'Later']);
    expect(Object.keys(list[0]).sort()).toEqual(
      [
        'accountUuid',
        'attempts',
        'createdAt',
        'draftId',
        'draftTitle',
        'id',
        'platform',
        'priority',
        'scheduledFor',
        'networkScheduledId',
        'handedOffTo',
        'handOffNote',
        'timeZone',
      ].sort(),
    );
    expect(list[1].priority).toBe(5);
    expect(waker.at).toBe(clock.now() + 3_600_000);
  });

  it("cancels a draft's pending entries and returns the draft to draft status", async () => {
    const { t, key, user, clock, waker } = await setup();
    const a = insertAccount(t, user, 'fedblog');
    const b = insertAccount(t, user, 'problog');
    const draftId = insertDraft(t, user, ['cancel me']);
    await t.call('POST', '/microblog/schedule', {
      key,
      body: { draftId, scheduledFor: new Date(clock.now() + 3_600_000).toISOString() },
    });
    expect((await t.call('GET', '/microblog/schedule', { key })).body.schedules).toHaveLength(2);
    const r = await t.call('DELETE', `/microblog/schedule?draftId=${draftId}`, { key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, cancelled: 2 });
    expect((await t.call('GET', '/microblog/schedule', { key })).body.schedules).toHaveLength(0);
    const draft = t.server.sqlite
      .prepare('SELECT status, scheduled_for AS s FROM drafts WHERE id = ?')
      .get(draftId) as any;
    expect(draft).toEqual({ status: 'draft', s: null });
    expect(waker.at).toBeUndefined();
    void a;
    void b;
  });
});
