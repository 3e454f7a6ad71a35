/**
 * The time module (server/domain/scheduling/time.ts) against the platform's real zone data: a
 * DST table for four zones (New York and Berlin with their one-hour shifts on different days,
 * Lord Howe with its 30-minute shift, Kolkata at +05:30 with none), then weekly slots, the
 * next free slot and slot validation. No clock is read: every "now" is a constant here.
 */
import { describe, expect, it } from 'vitest';
import {
  formatLocal,
  isValidTimeZone,
  localParts,
  localToInstant,
  nextFreeSlot,
  nextSlots,
  offsetAt,
  slotProblems,
} from '../../time/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

// [zone, local wall time, expected UTC instant, what the case shows]
const table: [string, string, string, string][] = [
  ['America/New_York', '2026-01-15T09:00', '2026-01-15T14:00:00.000Z', 'winter, EST -05:00'],
  ['America/New_York', '2026-07-01T09:00', '2026-07-01T13:00:00.000Z', 'summer, EDT -04:00'],
  ['America/New_York', '2026-03-08T01:59', '2026-03-08T06:59:00.000Z', 'last minute before the gap'],
  ['America/New_York', '2026-03-08T02:00', '2026-03-08T07:00:00.000Z', 'gap start: 02:00 does not exist, 03:00 EDT'],
  [
    'America/New_York',
    '2026-03-08T02:30',
    '2026-03-08T07:30:00.000Z',
    'in the gap: moves forward by the hour to 03:30 EDT',
  ],
  ['America/New_York', '2026-03-08T03:00', '2026-03-08T07:00:00.000Z', 'first time after the gap'],
  ['America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z', 'happens twice: the earlier (EDT)'],
  ['America/New_York', '2026-11-01T00:59', '2026-11-01T04:59:00.000Z', 'before the overlap'],
  ['America/New_York', '2026-11-01T02:00', '2026-11-01T07:00:00.000Z', 'after the overlap, EST'],
  ['Europe/Berlin', '2026-01-10T12:00', '2026-01-10T11:00:00.000Z', 'winter, CET +01:00'],
  ['Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z', 'in the gap: 03:30 CEST'],
  ['Europe/Berlin', '2026-03-29T03:00', '2026-03-29T01:00:00.000Z', 'first time after the gap'],
  ['Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z', 'happens twice: the earlier (CEST)'],
  ['Europe/Berlin', '2026-10-25T03:00', '2026-10-25T02:00:00.000Z', 'after the overlap, CET'],
  ['Australia/Lord_Howe', '2026-07-01T09:00', '2026-06-30T22:30:00.000Z', 'standard +10:30'],
  ['Australia/Lord_Howe', '2026-01-15T09:00', '2026-01-14T22:00:00.000Z', 'daylight +11:00'],
  ['Australia/Lord_Howe', '2026-10-04T02:00', '2026-10-03T15:30:00.000Z', 'gap start: 02:00 does not exist, 02:30 +11'],
  [
    'Australia/Lord_Howe',
    '2026-10-04T02:15',
    '2026-10-03T15:45:00.000Z',
    'in the 30-minute gap: moves forward 30 min to 02:45',
  ],
  ['Australia/Lord_Howe', '2026-10-04T02:30', '2026-10-03T15:30:00.000Z', 'first time after the gap'],
  [
    'Australia/Lord_Howe',
    '2026-04-05T01:45',
    '2026-04-04T14:45:00.000Z',
    'happens twice (01:30-02:00): the earlier (+11)',
  ],
  ['Australia/Lord_Howe', '2026-04-05T01:29', '2026-04-04T14:29:00.000Z', 'just before the overlap'],
  ['Australia/Lord_Howe', '2026-04-05T02:00', '2026-04-04T15:30:00.000Z', 'after the overlap, +10:30'],
  ['Asia/Kolkata', '2026-03-08T09:00', '2026-03-08T03:30:00.000Z', '+05:30, no DST'],
  ['Asia/Kolkata', '2026-11-01T01:30', '2026-10-31T20:00:00.000Z', 'no overlap either'],
  ['Asia/Kolkata', '2026-12-31T23:45', '2026-12-31T18:15:00.000Z', 'across the year end'],
];

describe('local time → UTC instant, with the DST rule', () => {
  it.each(table)('%s %s → %s (%s)', (zone, local, expected) => {
    const [date, time] = local.split('T');
    const [y, m, d] = date.split('-').map(Number);
    const [h, min] = time.split(':').map(Number);
    expect(iso(localToInstant(zone, y, m, d, h, min))).toBe(expected);
  });

  it('offsets come from the zone data, half hours included', () => {
    expect(offsetAt('Australia/Lord_Howe', Date.parse('2026-07-01T00:00Z')) / 60_000).toBe(630);
    expect(offsetAt('Australia/Lord_Howe', Date.parse('2026-01-01T00:00Z')) / 60_000).toBe(660);
    expect(offsetAt('Asia/Kolkata', Date.parse('2026-07-01T00:00Z')) / 60_000).toBe(330);
    // One second either side of New York's spring-forward instant.
    expect(offsetAt('America/New_York', Date.parse('2026-03-08T06:59:59Z')) / 60_000).toBe(-300);
    expect(offsetAt('America/New_York', Date.parse('2026-03-08T07:00:00Z')) / 60_000).toBe(-240);
  });

  it('instants read back as local parts and a shown time with its offset', () => {
    const at = Date.parse('2026-03-08T07:30:00Z');
    expect(localParts('America/New_York', at)).toMatchObject({
      year: 2026,
      month: 3,
      day: 8,
      hour: 3,
      minute: 30,
      weekday: 7,
    });
    expect(formatLocal('America/New_York', at)).toEqual({ local: '2026-03-08T03:30', offset: '-04:00' });
    expect(formatLocal('Australia/Lord_Howe', Date.parse('2026-10-03T15:45:00Z'))).toEqual({
      local: '2026-10-04T02:45',
      offset: '+11:00',
    });
    expect(formatLocal('Asia/Kolkata', Date.parse('2026-03-08T03:30:00Z'))).toEqual({
      local: '2026-03-08T09:00',
      offset: '+05:30',
    });
  });

  it('knows real zones only', () => {
    for (const z of ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'])
      expect(isValidTimeZone(z)).toBe(true);
    for (const z of ['Mars/Olympus_Mons', '+05:30', '', 'America/New_York\n', 'x'.repeat(100), '../etc'])
      expect(isValidTimeZone(z)).toBe(false);
  });
});

const weekdays = [1, 2, 3, 4, 5].flatMap((day) => [
  { day, time: '09:00' },
  { day, time: '17:30' },
]);
const FAR = Date.parse('2030-01-01T00:00Z');

describe('weekly slots in a zone', () => {
  it('Mon–Fri 09:00 and 17:30 in New York: from Friday evening the next is Monday 09:00', () => {
    const friday = Date.parse('2026-01-16T23:00:00Z'); // 18:00 EST
    expect(nextSlots('America/New_York', weekdays, friday, 3, FAR).map(iso)).toEqual([
      '2026-01-19T14:00:00.000Z',
      '2026-01-19T22:30:00.000Z',
      '2026-01-20T14:00:00.000Z',
    ]);
  });

  it('keeps the wall time across a DST change (09:00 is 14:00Z before and 13:00Z after)', () => {
    const got = nextSlots('America/New_York', [{ day: 1, time: '09:00' }], Date.parse('2026-03-01T00:00Z'), 2, FAR).map(
      iso,
    );
    expect(got).toEqual(['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z']);
  });

  it('a slot in the gap moves forward; two slots the gap brings together count once, in order', () => {
    const sunday = [
      { day: 7, time: '03:30' },
      { day: 7, time: '02:30' },
      { day: 7, time: '03:45' },
    ];
    const got = nextSlots('America/New_York', sunday, Date.parse('2026-03-07T12:00Z'), 2, FAR).map(iso);
    expect(got).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-08T07:45:00.000Z']);
  });

  it('Lord Howe: a slot at 02:15 on the spring day is at 02:45 +11; the next week at 02:15 +11', () => {
    const got = nextSlots('Australia/Lord_Howe', [{ day: 7, time: '02:15' }], Date.parse('2026-10-01T00:00Z'), 2, FAR);
    expect(got.map((t) => formatLocal('Australia/Lord_Howe', t).local)).toEqual([
      '2026-10-04T02:45',
      '2026-10-11T02:15',
    ]);
  });

  it('Kolkata: a slot later today in the zone is still ahead when UTC already shows tomorrow', () => {
    // 2026-03-08T20:00Z is Monday 01:30 in Kolkata; the slot is Monday 02:00 = 20:30Z.
    const got = nextSlots('Asia/Kolkata', [{ day: 1, time: '02:00' }], Date.parse('2026-03-08T20:00Z'), 1, FAR).map(
      iso,
    );
    expect(got).toEqual(['2026-03-08T20:30:00.000Z']);
  });

  it('the next FREE slot skips the taken ones, and is null when none is left before the limit', () => {
    const from = Date.parse('2026-01-16T23:00:00Z');
    const taken = new Set([Date.parse('2026-01-19T14:00:00Z'), Date.parse('2026-01-19T22:30:00Z')]);
    expect(iso(nextFreeSlot('America/New_York', weekdays, from, taken, FAR)!)).toBe('2026-01-20T14:00:00.000Z');
    expect(nextFreeSlot('America/New_York', weekdays, from, taken, Date.parse('2026-01-20T00:00Z'))).toBeNull();
    expect(nextFreeSlot('America/New_York', [], from, new Set(), FAR)).toBeNull();
  });

  it('a slot exactly at "now" is not next: slots are strictly after', () => {
    const at = Date.parse('2026-01-19T14:00:00Z');
    expect(iso(nextSlots('America/New_York', weekdays, at, 1, FAR)[0])).toBe('2026-01-19T22:30:00.000Z');
  });
});

describe('slot validation names the slot and field', () => {
  it.each([
    [[{ day: 1, time: '25:00' }], 0, 'time', /not a time of day/],
    [[{ day: 1, time: '9:00' }], 0, 'time', /not a time of day/],
    [[{ day: 8, time: '09:00' }], 0, 'day', /1 \(Monday\) to 7/],
    [
      [
        { day: 1, time: '09:00' },
        { day: 1, time: '09:00' },
      ],
      1,
      'time',
      /overlaps slot 0/,
    ],
    [
      [
        { day: 2, time: '09:00' },
        { day: 2, time: '09:05' },
      ],
      1,
      'time',
      /overlaps slot 0/,
    ],
    [
      [
        { day: 7, time: '23:58' },
        { day: 1, time: '00:02' },
      ],
      1,
      'time',
      /overlaps slot 0/,
    ],
  ])('%j → slot %i %s', (slots, index, field, message) => {
    const problems = slotProblems(slots);
    expect(problems[0]).toMatchObject({ index, field });
    expect(problems[0].message).toMatch(message);
  });

  it('Mon–Fri 09:00 and 17:30 are fine, as are slots 6 minutes apart', () => {
    expect(slotProblems(weekdays)).toEqual([]);
    expect(
      slotProblems([
        { day: 3, time: '09:00' },
        { day: 3, time: '09:06' },
      ]),
    ).toEqual([]);
  });
});
