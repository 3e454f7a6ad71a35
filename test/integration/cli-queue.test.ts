/**
 * `herald queue add|list|move|slots` as the real binary against a real server with an injected
 * clock (Thursday 2026-11-26 12:00Z): times are printed in the social set's zone (here
 * Australia/Lord_Howe, +11:00 in summer), and a move by list position swaps two drafts.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, herald, ok, parseTable } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestServer;
let key: string;
let setId: string;
let home: string;
const clock = new TestClock(Date.parse('2026-11-26T12:00:00Z'));
const cli = (...args: string[]) =>
  herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) });
const api = async (method: string, p: string, body?: unknown) => (await t.call(method, p, { key, body })).body;

beforeAll(async () => {
  t = await startServer({ clock, scheduler: false });
  key = await t.login();
  home = tempDir('herald-cli-queue-');
  setId = addAccount(t, userIdOf(t, OWNER.email), 'fedblog').socialSetId;
  await api('PUT', '/social-sets', { id: setId, timeZone: 'Australia/Lord_Howe' });
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const draft = async (title: string) =>
  (await api('POST', '/microblog/drafts', { title, tweets: [{ content: title }] })).draft.id as string;

describe('herald queue', () => {
  it("slots --put sets the weekly slots and prints them by day in the set's zone", async () => {
    const out = ok(await cli('queue', 'slots', '--set', setId, '--put', 'mon-fri 09:00 17:30; sat 10:00'));
    expect(out).toMatch(/^Australia\/Lord_Howe/);
    expect(out).toMatch(/mon\s+09:00 17:30/);
    expect(out).toMatch(/sat\s+10:00/);
    expect((await api('GET', `/social-sets/${setId}/slots`)).slots).toHaveLength(11);
    const bad = await cli('queue', 'slots', '--set', setId, '--put', 'mon 25:00');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/slots\.0\.time/);
  });

  it("add prints the slot in the set's zone; list shows the slots with their drafts", async () => {
    // 12:00Z Thursday is 23:00 Thursday at Lord Howe (+11): the next slot is Friday 09:00.
    const a = await draft('first queued');
    expect(ok(await cli('queue', 'add', a, '--no-jitter')).trim()).toBe(
      'Queued for 2026-11-27 09:00 Australia/Lord_Howe (+11:00) on 1 account(s).',
    );
    const b = await draft('second queued');
    expect(ok(await cli('queue', 'add', b))).toMatch(/^Queued for 2026-11-27 17:30 Australia\/Lord_Howe/);
    const rows = parseTable(ok(await cli('queue', 'list', '--count', '3')), ['#', 'WHEN', 'ZONE', 'DRAFT', 'ID']);
    expect(rows.map((r) => [r.WHEN, r.ZONE, r.DRAFT])).toEqual([
      ['2026-11-27 09:00', 'Australia/Lord_Howe +11:00', 'first queued'],
      ['2026-11-27 17:30', 'Australia/Lord_Howe +11:00', 'second queued'],
      ['2026-11-28 10:00', 'Australia/Lord_Howe +11:00', '(free)'],
    ]);
    const json = JSON.parse(ok(await cli('queue', 'list', '--count', '3', '-o', 'json')));
    expect(json).toEqual({ success: true, ...(await api('GET', '/microblog/queue?count=3')) });
  });

  it('move --to <#> swaps with the draft in that slot; --to <local time> moves to a free one', async () => {
    const list = (await api('GET', '/microblog/queue?count=3')).items;
    const [a, b] = [list[0].draft.id, list[1].draft.id];
    expect(ok(await cli('queue', 'move', b, '--to', '1')).trim()).toBe(
      `${b} → 2026-11-27 09:00 Australia/Lord_Howe\n${a} → 2026-11-27 17:30 Australia/Lord_Howe`,
    );
    expect(ok(await cli('queue', 'move', a, '--to', '2026-11-28 10:00')).trim()).toBe(
      `${a} → 2026-11-28 10:00 Australia/Lord_Howe`,
    );
    const after = (await api('GET', '/microblog/queue?count=3')).items.map((i: any) => i.draft?.id ?? null);
    expect(after).toEqual([b, null, a]);
    const none = await cli('queue', 'move', a, '--to', '2026-11-28 11:00');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/No coming slot/);
  });
});
