/**
 * The one formatter of shown times (time/format.ts) and the zone rules beside it (time/zones.ts):
 * a table of instants, zones and locales with the text each must give, the zone named only when a
 * scheduled item's set is not in the user's zone, the one zone-validity rule, and the DST rule in
 * words for a local time that does not exist or happens twice. Runs under any machine zone: no
 * answer here may depend on it (the test runs the table under TZ set to each zone in turn too).
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  formatIn,
  formatScheduled,
  formatTime,
  isValidTimeZone,
  readLocal,
  zoneChoices,
  type TimeView,
} from '../../time/index.js';

// Some ICU versions put a narrow no-break space before AM/PM: compare the words, not the spaces.
const norm = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

// [instant, zone, locale, expected]
const table: [string, string, string, string][] = [
  ['2026-12-01T08:00:00Z', 'Europe/Berlin', 'en-GB', '1 Dec 2026, 09:00'],
  ['2026-12-01T08:00:00Z', 'Europe/Berlin', 'en-US', 'Dec 1, 2026, 9:00 AM'],
  ['2026-12-01T08:00:00Z', 'Europe/Berlin', 'de-DE', '01.12.2026, 09:00'],
  ['2026-12-01T08:00:00Z', 'Asia/Kolkata', 'en-GB', '1 Dec 2026, 13:30'],
  ['2026-12-01T08:00:00Z', 'America/New_York', 'en-US', 'Dec 1, 2026, 3:00 AM'],
  ['2026-07-01T08:00:00Z', 'America/New_York', 'en-US', 'Jul 1, 2026, 4:00 AM'],
  ['2026-12-31T20:00:00Z', 'Asia/Kolkata', 'en-GB', '1 Jan 2027, 01:30'],
  ['2026-03-29T01:30:00Z', 'Europe/Berlin', 'en-GB', '29 Mar 2026, 03:30'],
  ['2026-10-25T00:30:00Z', 'Europe/Berlin', 'en-GB', '25 Oct 2026, 02:30'],
  ['2026-10-25T01:30:00Z', 'Europe/Berlin', 'en-GB', '25 Oct 2026, 02:30'],
  ['2026-12-01T08:00:00Z', 'UTC', 'en-GB', '1 Dec 2026, 08:00'],
];

describe("formatIn: an instant in a zone, in the locale's own clock", () => {
  it.each(table)('%s in %s (%s) is %s', (iso, zone, locale, expected) => {
    expect(norm(formatIn(iso, zone, locale))).toBe(expected);
    expect(norm(formatIn(Date.parse(iso), zone, locale))).toBe(expected);
  });

  it('gives nothing for no time or a broken one', () => {
    for (const none of [null, undefined, '', 'not a date']) expect(formatIn(none, 'UTC', 'en-GB')).toBe('');
  });

  it('time only and date only', () => {
    expect(norm(formatIn('2026-12-01T08:00:00Z', 'Europe/Berlin', 'en-US', 'time'))).toBe('9:00 AM');
    expect(formatIn('2026-12-01T08:00:00Z', 'Europe/Berlin', 'en-GB', 'date')).toBe('1 Dec 2026');
  });
});

describe('formatTime and formatScheduled', () => {
  const view: TimeView = { userZone: 'Europe/Berlin', locale: 'en-GB' };
  it("everything that is not scheduled is in the user's zone", () => {
    expect(formatTime('2026-12-01T08:00:00Z', view)).toBe('1 Dec 2026, 09:00');
    expect(formatTime('2026-12-01T08:00:00Z', { userZone: 'Asia/Kolkata', locale: 'en-GB' })).toBe('1 Dec 2026, 13:30');
  });
  it("a scheduled item is in its set's zone, named only when it is not the user's", () => {
    expect(formatScheduled('2026-12-01T08:00:00Z', 'Europe/Berlin', view)).toBe('1 Dec 2026, 09:00');
    expect(formatScheduled('2026-12-01T08:00:00Z', 'America/New_York', view)).toBe(
      '1 Dec 2026, 03:00 (America/New_York)',
    );
    expect(formatScheduled(null, 'America/New_York', view)).toBe('');
  });
});

describe('one zone-validity rule', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Mars/Olympus', undefined],
    ['+05:30', undefined],
    ['', undefined],
    ['Europe/Berlin; DROP', undefined],
    [`A/${'x'.repeat(70)}`, undefined],
  ])('%s → %s', (zone, canonical) => {
    expect(canonicalTimeZone(zone)).toBe(canonical);
    expect(isValidTimeZone(zone)).toBe(canonical !== undefined);
  });
  it('a non-string is no zone', () => expect(canonicalTimeZone(42)).toBeUndefined());
});

describe('readLocal: the DST rule, said in words where it applied', () => {
  it.each([
    ['Europe/Berlin', '2026-12-01 09:00', '2026-12-01T08:00:00.000Z', null, undefined],
    ['Europe/Berlin', '2026-12-01T09:00', '2026-12-01T08:00:00.000Z', null, undefined],
    [
      'Europe/Berlin',
      '2026-03-29 02:30',
      '2026-03-29T01:30:00.000Z',
      'gap',
      '02:30 does not exist in Europe/Berlin that day (the clocks jump forward): moved forward by 60 minutes ' +
        'to 03:30 (UTC+02:00)',
    ],
    [
      'Australia/Lord_Howe',
      '2026-10-04 02:15',
      '2026-10-03T15:45:00.000Z',
      'gap',
      '02:15 does not exist in Australia/Lord_Howe that day (the clocks jump forward): moved forward by 30 ' +
        'minutes to 02:45 (UTC+11:00)',
    ],
    [
      'America/New_York',
      '2026-11-01 01:30',
      '2026-11-01T05:30:00.000Z',
      'overlap',
      '01:30 happens twice in America/New_York that day (the clocks go back): took the earlier, 01:30 (UTC-04:00)',
    ],
    ['Asia/Kolkata', '2026-11-01 01:30', '2026-10-31T20:00:00.000Z', null, undefined],
  ])('%s %s', (zone, text, iso, rule, words) => {
    const r = readLocal(zone, text)!;
    expect(new Date(r.instant).toISOString()).toBe(iso);
    expect(r.rule).toBe(rule);
    expect(r.words).toBe(words);
  });
  it('is null for what is not a date and time', () => {
    for (const bad of ['2026-02-30 09:00', '2026-12-01 24:00', '2026-13-01 09:00', 'tomorrow', '2026-12-01'])
      expect(readLocal('UTC', bad)).toBeNull();
  });
});

describe('zoneChoices: the searchable list', () => {
  it('has every zone with its offset now, UTC included, sorted by offset', () => {
    const list = zoneChoices(Date.parse('2026-12-01T00:00:00Z'));
    expect(list.length).toBeGreaterThan(300);
    expect(list.find((z) => z.zone === 'UTC')?.label).toBe('UTC (UTC+00:00)');
    expect(list.find((z) => z.zone === 'Asia/Kolkata')?.label).toBe('Asia/Kolkata (UTC+05:30)');
    expect(list.find((z) => z.zone === 'America/New_York')?.label).toBe('America/New York (UTC-05:00)');
    const summer = zoneChoices(Date.parse('2026-07-01T00:00:00Z'));
    expect(summer.find((z) => z.zone === 'America/New_York')?.offset).toBe('-04:00');
    const i = (z: string) => list.findIndex((x) => x.zone === z);
    expect(i('America/New_York')).toBeLessThan(i('UTC'));
    expect(i('UTC')).toBeLessThan(i('Asia/Kolkata'));
  });
});
