/**
 * `herald schedule create --at` reads a local time in the target social set's zone (the same
 * rule the composer uses), not the zone of the machine the CLI runs on; `--zone` reads it in
 * another; the output names the zone used and, where the DST rule applied, says it in words;
 * `herald schedule list` shows each post in its set's zone, with ISO instants kept in -o json.
 * The CLI runs under TZ=America/New_York and the user's zone is Asia/Kolkata, so a time read or
 * shown in either of them by mistake shows.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, herald, ok, parseTable } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';
import { localToInstant } from '../../time/index.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestServer;
let key: string;
let berlin: string;
let home: string;
const clock = new TestClock(Date.parse('2026-11-26T12:00:00Z'));
const cli = (...args: string[]) =>
  herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base, TZ: 'America/New_York' }) });
const api = async (method: string, p: string, body?: unknown) => (await t.call(method, p, { key, body })).body;
const draft = async (title: string, socialSetId?: string) =>
  (
    await api('POST', '/microblog/drafts', {
      title,
      tweets: [{ content: title }],
      ...(socialSetId ? { socialSetId } : {}),
    })
  ).draft.id as string;
const firesOf = async (draftId: string) =>
  (await api('GET', '/microblog/schedule')).schedules
    .filter((s: any) => s.draftId === draftId)
    .map((s: any) => s.scheduledFor);

beforeAll(async () => {
  t = await startServer({ clock, scheduler: false, settings: { HERALD_TIME_ZONE: 'Asia/Kolkata' } });
  key = await t.login();
  home = tempDir('herald-cli-zone-');
  berlin = addAccount(t, userIdOf(t, OWNER.email), 'fedblog').socialSetId;
  await api('PUT', '/social-sets', { id: berlin, timeZone: 'Europe/Berlin' });
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("herald schedule create --at: local time in the set's zone", () => {
  it('"2026-12-01 09:00" for a Berlin set is the instant the UI means by 09:00 Berlin (08:00Z)', async () => {
    const id = await draft('nine in Berlin', berlin);
    const r = await cli('schedule', 'create', id, '--at', '2026-12-01 09:00', '--no-jitter');
    expect(ok(r).trim()).toBe('Scheduled for 2026-12-01 09:00 Europe/Berlin (UTC+01:00) on 1 account(s).');
    // The composer turns its 09:00 into an instant with the same function (time/zones.ts).
    const ui = new Date(localToInstant('Europe/Berlin', 2026, 12, 1, 9, 0)).toISOString();
    expect(ui).toBe('2026-12-01T08:00:00.000Z');
    expect(await firesOf(id)).toEqual([ui]);
  });

  it('--zone reads it in another zone; an unknown --zone is refused naming it', async () => {
    const id = await draft('nine in Kolkata', berlin);
    expect(
      ok(await cli('schedule', 'create', id, '--at', '2026-12-01 09:00', '--zone', 'Asia/Kolkata', '--no-jitter')),
    ).toMatch(/^Scheduled for 2026-12-01 09:00 Asia\/Kolkata \(UTC\+05:30\)/);
    expect(await firesOf(id)).toEqual(['2026-12-01T03:30:00.000Z']);
    const bad = await cli('schedule', 'create', id, '--at', '2026-12-01 09:00', '--zone', 'Mars/Olympus');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Unknown time zone "Mars\/Olympus" for --zone/);
  });

  it(
    'a time that does not exist moves forward and one that ' + 'happens twice takes the earlier, said in words',
    async () => {
      const gap = await draft('in the gap', berlin);
      const a = await cli('schedule', 'create', gap, '--at', '2027-03-28 02:30', '--no-jitter');
      expect(ok(a)).toMatch(/^Scheduled for 2027-03-28 03:30 Europe\/Berlin \(UTC\+02:00\)/);
      expect(a.err).toContain(
        'Note: 02:30 does not exist in Europe/Berlin that day (the clocks jump forward): moved forward by 60 ' +
          'minutes to 03:30 (UTC+02:00).',
      );
      expect(await firesOf(gap)).toEqual(['2027-03-28T01:30:00.000Z']);
      const twice = await draft('twice', berlin);
      const b = await cli('schedule', 'create', twice, '--at', '2027-10-31 02:30', '--no-jitter');
      expect(b.err).toContain(
        'Note: 02:30 happens twice in Europe/Berlin that day (the clocks go back): took the earlier, 02:30 ' +
          '(UTC+02:00).',
      );
      expect(await firesOf(twice)).toEqual(['2027-10-31T00:30:00.000Z']);
      const plain = await draft('plain', berlin);
      expect((await cli('schedule', 'create', plain, '--at', '2027-01-05 10:00', '--no-jitter')).err).not.toMatch(
        /Note:/,
      );
    },
  );

  it('an ISO instant is taken as given', async () => {
    const id = await draft('iso', berlin);
    ok(await cli('schedule', 'create', id, '--at', '2026-12-02T10:00:00Z', '--no-jitter'));
    expect(await firesOf(id)).toEqual(['2026-12-02T10:00:00.000Z']);
  });
});

describe('herald schedule list', () => {
  it("shows each post in its set's zone; -o json keeps the ISO instants", async () => {
    const rows = parseTable(ok(await cli('schedule', 'list')), [
      'WHEN',
      'ZONE',
      'DRAFT',
      'NETWORK',
      'ACCOUNT',
      'ATTEMPTS',
      'ID',
    ]);
    const nine = rows.find((r) => r.DRAFT === 'nine in Berlin')!;
    expect([nine.WHEN, nine.ZONE]).toEqual(['2026-12-01 09:00', 'Europe/Berlin +01:00']);
    expect(rows.find((r) => r.DRAFT === 'nine in Kolkata')!.WHEN).toBe('2026-12-01 04:30');
    const json = JSON.parse(ok(await cli('schedule', 'list', '-o', 'json')));
    // The API's own words and instants, plus the names the CLI adds for people.
    const withoutNames = json.schedules.map(({ platformName, accountHandle, ...rest }: any) => {
      expect(platformName).toMatch(/^(X|Bluesky|Mastodon|Threads|LinkedIn)$/);
      expect(accountHandle).toBeTruthy();
      return rest;
    });
    expect({ ...json, schedules: withoutNames }).toEqual({
      success: true,
      schedules: (await api('GET', '/microblog/schedule')).schedules,
    });
    const entry = json.schedules.find((s: any) => s.draftTitle === 'nine in Berlin');
    expect(entry).toMatchObject({ scheduledFor: '2026-12-01T08:00:00.000Z', timeZone: 'Europe/Berlin' });
  });
});
