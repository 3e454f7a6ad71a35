/**
 * The calendar's model (renderer/src/pages/calendar/model.ts), a table test: the days of a month
 * view (whole weeks, Monday first) and of a week view, across month and year ends; posts grouped
 * into one item per draft, day and hour in the chosen zone (not the machine's), with each
 * network; published posts apart from scheduled ones; failed, missed and held posts on the day
 * that happened; a DST day in New York.
 */
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, buildItems, daysOf, weekday } from '../../renderer/src/pages/calendar/model.js';
import { instantOf, wallOf } from '../../renderer/src/components/zone-time.js';

describe('days of a view', () => {
  it.each([
    // anchor, view, first day, last day, count
    ['2026-12-10', 'month', '2026-11-30', '2027-01-03', 35],
    ['2026-02-14', 'month', '2026-01-26', '2026-03-01', 35], // February 2026 starts on a Sunday
    ['2026-03-01', 'month', '2026-02-23', '2026-04-05', 42],
    ['2026-12-31', 'week', '2026-12-28', '2027-01-03', 7],
    ['2026-11-29', 'week', '2026-11-23', '2026-11-29', 7], // a Sunday ends its week
  ] as const)('%s %s: %s … %s (%i days)', (anchor, view, first, last, count) => {
    const days = daysOf(anchor, view);
    expect({ first: days[0], last: days.at(-1), count: days.length }).toEqual({ first, last, count });
    expect(weekday(days[0])).toBe(1);
  });

  it("every day of the anchor's month is in its month view", () => {
    for (const anchor of ['2026-02-14', '2027-02-01', '2026-08-31', '2028-02-29']) {
      const days = new Set(daysOf(anchor, 'month'));
      const first = `${anchor.slice(0, 7)}-01`;
      for (let d = first; d < addMonths(first, 1); d = addDays(d, 1)) expect(days.has(d), `${anchor}: ${d}`).toBe(true);
    }
  });

  it('date arithmetic crosses month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addMonths('2026-12-10', 1)).toBe('2027-01-01');
    expect(addMonths('2026-01-31', -1)).toBe('2025-12-01');
  });
});

describe('items', () => {
  const kolkata = 'Asia/Kolkata';
  const at = (zone: string, date: string, time: string) => new Date(instantOf(zone, date, time)).toISOString();
  const names = new Map([
    ['x1', 'xuser'],
    ['m1', 'muser'],
  ]);

  it('one item per draft, day and hour in the zone, with its networks; published apart', () => {
    const items = buildItems(
      kolkata,
      [
        {
          id: 'e1',
          draftId: 'd1',
          draftTitle: 'Launch',
          scheduledFor: at(kolkata, '2026-12-10', '10:31'),
          platform: 'microblog',
          accountUuid: 'x1',
        },
        {
          id: 'e2',
          draftId: 'd1',
          draftTitle: 'Launch',
          scheduledFor: at(kolkata, '2026-12-10', '10:29'),
          platform: 'fedblog',
          accountUuid: 'm1',
        },
        {
          id: 'e3',
          draftId: 'd1',
          draftTitle: 'Launch',
          scheduledFor: at(kolkata, '2026-12-11', '08:00'),
          platform: 'problog',
          accountUuid: 'l1',
        },
        {
          id: 'e4',
          draftId: 'd2',
          draftTitle: '',
          scheduledFor: at(kolkata, '2026-12-10', '10:45'),
          platform: 'skyblog',
          accountUuid: 'b1',
        },
      ],
      [
        {
          id: 'p1',
          draftId: 'd1',
          draftTitle: 'Launch',
          accountId: 'x1',
          username: null,
          platform: 'microblog',
          status: 'published',
          url: 'https://x.example/1',
          publishedAt: at(kolkata, '2026-12-01', '09:00'),
        },
        {
          id: 'p2',
          draftId: 'd3',
          draftTitle: 'Failed',
          accountId: 'x1',
          username: 'xuser',
          platform: 'microblog',
          status: 'failed',
          url: null,
          publishedAt: null,
        },
      ],
      names,
    );
    expect(
      items.map((i) => ({
        kind: i.kind,
        date: i.date,
        time: i.time,
        title: i.title,
        nets: i.targets.map((t) => t.platform),
      })),
    ).toEqual([
      { kind: 'published', date: '2026-12-01', time: '09:00', title: 'Launch', nets: ['microblog'] },
      // in time order
      { kind: 'scheduled', date: '2026-12-10', time: '10:29', title: 'Launch', nets: ['fedblog', 'microblog'] },
      { kind: 'scheduled', date: '2026-12-10', time: '10:45', title: 'Untitled', nets: ['skyblog'] },
      { kind: 'scheduled', date: '2026-12-11', time: '08:00', title: 'Launch', nets: ['problog'] },
    ]);
    expect(items[0].targets[0]).toMatchObject({ username: 'xuser', url: 'https://x.example/1' });
  });

  it('a published post without a title: a deleted draft or a direct post, named by how it began', () => {
    const post = (id: string, more: Record<string, unknown>) => ({
      id,
      draftId: null,
      draftTitle: null,
      accountId: 'x1',
      username: 'xuser',
      platform: 'microblog',
      status: 'published',
      url: `https://x.example/${id}`,
      publishedAt: at(kolkata, '2026-12-02', '09:00'),
      ...more,
    });
    const long = 'A thread about local-first software that began with a sentence of more than sixty characters';
    const items = buildItems(
      kolkata,
      [],
      [
        post('p1', { draftDeleted: true, sentText: long }),
        post('p2', { draftDeleted: false, sentText: 'Posted by a script' }),
        post('p3', { draftDeleted: false, sentText: null }),
      ],
      names,
    );
    expect(Object.fromEntries(items.map((i) => [i.targets[0].url, [i.title, i.search]]))).toEqual({
      'https://x.example/p1': [`Deleted draft: “${long.slice(0, 60).trimEnd()}…”`, long.slice(0, 60)],
      'https://x.example/p2': ['Direct post: “Posted by a script”', 'Posted by a script'],
      'https://x.example/p3': ['(direct post)', undefined],
    });
  });

  it(
    'posts that did not go out: one item per draft on the day it happened, each network with its status and ' +
      'reason',
    () => {
      const pub = (id: string, platform: string, status: string, updatedAt: string, error: string | null = null) => ({
        id,
        draftId: 'd9',
        draftTitle: 'Sale',
        accountId: platform === 'microblog' ? 'x1' : 'm1',
        username: null,
        platform,
        status,
        url: null,
        publishedAt: null,
        updatedAt,
        error,
      });
      const items = buildItems(
        kolkata,
        [],
        [
          pub('f1', 'microblog', 'failed', at(kolkata, '2026-12-05', '09:10'), 'X refused the post'),
          pub('m1', 'fedblog', 'missed', at(kolkata, '2026-12-05', '09:40')),
          pub('r1', 'skyblog', 'needs_review', at(kolkata, '2026-12-06', '23:59')),
          pub('c1', 'problog', 'cancelled', at(kolkata, '2026-12-05', '09:00')),
          pub('q1', 'threadblog', 'pending', at(kolkata, '2026-12-05', '09:00')),
          pub('g1', 'threadblog', 'publishing', at(kolkata, '2026-12-05', '09:00')),
        ],
        names,
      );
      expect(
        items.map((i) => ({
          kind: i.kind,
          date: i.date,
          time: i.time,
          nets: i.targets.map((t) => `${t.platform}:${t.status}`),
        })),
      ).toEqual([
        { kind: 'problem', date: '2026-12-05', time: '09:10', nets: ['microblog:failed', 'fedblog:missed'] },
        { kind: 'problem', date: '2026-12-06', time: '23:59', nets: ['skyblog:needs_review'] },
      ]);
      expect(items[0].targets[0]).toMatchObject({ username: 'xuser', error: 'X refused the post' });
    },
  );

  it(
    "a queue slot's networks, jittered minutes apart across the hour, are one card; the same draft hours later " +
      'is another',
    () => {
      const items = buildItems(
        kolkata,
        [
          {
            id: 'j1',
            draftId: 'q1',
            draftTitle: 'Slot post',
            scheduledFor: at(kolkata, '2026-12-10', '08:58'),
            platform: 'microblog',
            accountUuid: 'x1',
          },
          {
            id: 'j2',
            draftId: 'q1',
            draftTitle: 'Slot post',
            scheduledFor: at(kolkata, '2026-12-10', '09:01'),
            platform: 'fedblog',
            accountUuid: 'm1',
          },
          {
            id: 'j3',
            draftId: 'q1',
            draftTitle: 'Slot post',
            scheduledFor: at(kolkata, '2026-12-10', '09:03'),
            platform: 'skyblog',
            accountUuid: 'b1',
          },
          {
            id: 'j4',
            draftId: 'q1',
            draftTitle: 'Slot post',
            scheduledFor: at(kolkata, '2026-12-10', '17:00'),
            platform: 'problog',
            accountUuid: 'l1',
          },
        ],
        [
          {
            id: 'g1',
            draftId: 'q2',
            draftTitle: 'Went out',
            accountId: 'x1',
            username: null,
            platform: 'microblog',
            status: 'published',
            url: null,
            publishedAt: at(kolkata, '2026-12-09', '11:59'),
          },
          {
            id: 'g2',
            draftId: 'q2',
            draftTitle: 'Went out',
            accountId: 'm1',
            username: null,
            platform: 'fedblog',
            status: 'published',
            url: null,
            publishedAt: at(kolkata, '2026-12-09', '12:02'),
          },
        ],
        names,
      );
      expect(
        items.map((i) => ({
          kind: i.kind,
          date: i.date,
          time: i.time,
          hour: i.hour,
          nets: i.targets.map((t) => t.platform),
        })),
      ).toEqual([
        { kind: 'published', date: '2026-12-09', time: '11:59', hour: 11, nets: ['microblog', 'fedblog'] },
        { kind: 'scheduled', date: '2026-12-10', time: '08:58', hour: 8, nets: ['microblog', 'fedblog', 'skyblog'] },
        { kind: 'scheduled', date: '2026-12-10', time: '17:00', hour: 17, nets: ['problog'] },
      ]);
      expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
    },
  );

  it('the zone decides the day: 20:00 UTC is the next day in Kolkata', () => {
    const items = buildItems(
      kolkata,
      [
        {
          id: 'e',
          draftId: 'd',
          draftTitle: 'Late',
          scheduledFor: '2026-12-10T20:00:00.000Z',
          platform: 'microblog',
          accountUuid: 'x1',
        },
      ],
      [],
      names,
    );
    expect([items[0].date, items[0].time, items[0].hour]).toEqual(['2026-12-11', '01:30', 1]);
  });

  it('on a DST day the wall time survives the round trip (New York, 2026-03-08)', () => {
    const ny = 'America/New_York';
    for (const time of ['01:30', '03:30', '12:00'])
      expect(wallOf(ny, instantOf(ny, '2026-03-08', time))).toEqual({ date: '2026-03-08', time });
    // 02:30 does not exist that day: it moves forward by the gap.
    expect(wallOf(ny, instantOf(ny, '2026-03-08', '02:30'))).toEqual({ date: '2026-03-08', time: '03:30' });
    expect(Number.isNaN(instantOf(ny, '2026-03-08', '25:00'))).toBe(true);
    expect(Number.isNaN(instantOf(ny, '2026-02-30', '10:00'))).toBe(true);
    expect(Number.isNaN(instantOf(ny, '2026-13-05', '10:00'))).toBe(true);
    expect(Number.isNaN(instantOf(ny, 'not a date', '10:00'))).toBe(true);
  });
});
