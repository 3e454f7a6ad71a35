/**
 * `herald publish` (live per-account progress, --accounts by handle, --force), `herald schedule`
 * (create in local time, ISO with Z and with an offset; list; cancel) and `herald credits`,
 * `herald credits-usage`, in every output format (table, json, minimal), run as the real binary
 * against a real server with two Mastodon accounts connected through the Mastodon simulator, so
 * `publish` really posts, and a Bluesky account whose publishing fails. JSON must equal what the
 * API answers; tables must be aligned; minimal prints ids only. Other commands: cli-commands.test.ts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ok, parseKeyValues, parseTable } from '../helpers/cli.js';
import {
  accountsNow,
  api,
  cli,
  clipped,
  connectAccounts,
  createOwner,
  fed1,
  fed2,
  handleOf,
  inEach,
  lines,
  named,
  sim,
  sky,
  useCliCommandsWorld,
} from '../helpers/cli-commands-world.js';
import { formatLocal } from '../../time/index.js';

// Each test runs several CLI children (about half a second each, more on a loaded machine).
vi.setConfig({ testTimeout: 180_000 });

useCliCommandsWorld();

beforeAll(async () => {
  await createOwner();
  await connectAccounts();
});

describe('herald publish', () => {
  it('posts to Mastodon with live per-account progress on stderr, in each format', async () => {
    const draft = async (text: string, accounts: string[]) =>
      (
        await api('POST', '/microblog/drafts', {
          title: text,
          tweets: [
            { content: `${text} part 1`, position: 0 },
            { content: `${text} part 2`, position: 1 },
          ],
          selectedAccountIds: accounts,
        })
      ).draft.id as string;
    const [a, b, c] = await Promise.all([
      draft('Table run', [fed1, fed2]),
      draft('Json run', [fed1, fed2]),
      draft('Minimal run', [fed1, sky]),
    ]);
    sim.faults.latencyMs = 150; // progress has states to show
    const [table, json, minimal] = await Promise.all([
      cli(['publish', a], 'table'),
      // An account by the handle the tables show, as well as by its id.
      cli(['publish', b, '--accounts', `@second@${new URL(sim.url).host}`], 'json'),
      cli(['publish', c], 'minimal'),
    ]);
    sim.faults.latencyMs = 0;

    // table: progress lines then the result table; every account published, with its URL.
    const full = await accountsNow();
    const [h1, h2, hs] = [fed1, fed2, sky].map((id) => handleOf(full.get(id)));
    const rows = parseTable(ok(table), ['NETWORK', 'ACCOUNT', 'STATUS', 'URL / ERROR', 'ACCOUNT ID']);
    expect(rows.map((r) => [r.NETWORK, r.ACCOUNT, r.STATUS, r['ACCOUNT ID']]).sort()).toEqual(
      [
        // A thread says its parts.
        ['Mastodon', h1, 'published (2 parts)', fed1],
        ['Mastodon', h2, 'published (2 parts)', fed2],
      ].sort(),
    );
    for (const r of rows) expect(r['URL / ERROR']).toMatch(new RegExp(`^${sim.url}/@(herald|second)/\\d+$`));
    const progress = table.err.split('\n').filter(Boolean);
    expect(progress[0]).toBe(`Publishing ${a} to 2 account(s)…`);
    // Each line says a thread's parts, as the table does.
    for (const r of rows)
      expect(progress).toContain(`✓ Mastodon  ${r.ACCOUNT}  published (2 parts)  ${r['URL / ERROR']}`);
    expect(progress.at(-1)).toBe('Done: 2 published, 0 failed of 2.');
    expect(
      sim.state.statuses
        .filter((s) => s.text.startsWith('Table run'))
        .map((s) => s.text)
        .sort(),
    ).toEqual(['Table run part 1', 'Table run part 1', 'Table run part 2', 'Table run part 2']);

    // json: only the result on stdout (no progress), equal to the API's progress for that job.
    const result = JSON.parse(ok(json));
    expect(json.err).toBe('');
    const apiProgress = await api('GET', `/microblog/publish/progress?jobId=${result.jobId}`);
    expect(result).toEqual({
      ...apiProgress,
      entries: apiProgress.entries.map((e: any) => named(e, full.get(e.accountUuid))),
      jobId: result.jobId,
      draftId: b,
    });
    expect(result.entries.map((e: any) => [e.accountUuid, e.status])).toEqual([[fed2, 'published']]);

    // minimal: the entry ids; one account failed, so exit 1, and stderr says which.
    expect(minimal.code).toBe(1);
    const entries = (await api('GET', `/microblog/publish/progress?draftId=${c}`)).entries;
    expect(minimal.out.trim().split('\n').sort()).toEqual(entries.map((e: any) => e.id).sort());
    expect(minimal.err).toContain(`✓ Mastodon  ${h1}  published`);
    expect(minimal.err).toMatch(new RegExp(`✗ Bluesky   ${hs}  failed  \\S`));
    expect(`${table.err}${minimal.err}`).not.toMatch(/(^|\s)(fedblog|skyblog|acc-\S+)(\s|$)/m);
    expect(minimal.err).toContain('Done: 1 published, 1 failed of 2.');
  });
});

describe('herald schedule', () => {
  it('create (local time, ISO with Z, ISO with offset), list and cancel in each format', async () => {
    const draft = async (title: string) =>
      (
        await api('POST', '/microblog/drafts', {
          title,
          tweets: [{ content: `${title} text`, position: 0 }],
          selectedAccountIds: [fed1, fed2],
        })
      ).draft.id as string;
    const ids = {
      table: await draft('Sched table 中文'),
      json: await draft('Sched json'),
      minimal: await draft('Sched minimal'),
    };
    const year = new Date().getUTCFullYear() + 1;
    const made = await Promise.all([
      // Local time read in --zone Tokyo (UTC+9, no DST): 09:30 there is 00:30 UTC.
      cli(
        ['schedule', 'create', ids.table, '--at', `${year}-03-01 09:30`, '--zone', 'Asia/Tokyo', '--no-jitter'],
        'table',
      ),
      cli(
        [
          'schedule',
          'create',
          ids.json,
          '--at',
          `${year}-03-02T10:00:00Z`,
          '--accounts',
          fed1,
          '--priority',
          '5',
          '--no-jitter',
        ],
        'json',
      ),
      cli(['schedule', 'create', ids.minimal, '--at', `${year}-03-03T12:00:00+02:00`], 'minimal'),
    ]);
    expect(ok(made[0])).toBe(`Scheduled for ${year}-03-01 09:30 Asia/Tokyo (UTC+09:00) on 2 account(s).\n`);
    const createdJson = JSON.parse(ok(made[1]));
    expect(createdJson).toEqual({
      success: true,
      message: expect.any(String),
      queueIds: [expect.any(String)],
      scheduledFor: `${year}-03-02T10:00:00.000Z`,
      accountCount: 1,
    });

    const apiList = (await api('GET', '/microblog/schedule')).schedules;
    const of = (draftId: string) => apiList.filter((s: any) => s.draftId === draftId);
    expect(of(ids.table).map((s: any) => s.scheduledFor)).toEqual([
      `${year}-03-01T00:30:00.000Z`,
      `${year}-03-01T00:30:00.000Z`,
    ]);
    expect(of(ids.json).map((s: any) => [s.accountUuid, s.priority, s.scheduledFor])).toEqual([
      [fed1, 5, `${year}-03-02T10:00:00.000Z`],
    ]);
    expect(ok(made[2]).trim().split('\n').sort()).toEqual(
      of(ids.minimal)
        .map((s: any) => s.id)
        .sort(),
    );
    for (const s of of(ids.minimal))
      expect(Math.abs(Date.parse(s.scheduledFor) - Date.parse(`${year}-03-03T10:00:00Z`))).toBeLessThanOrEqual(
        3 * 60_000,
      );

    const list = await inEach(() => ['schedule', 'list']);
    const full = await accountsNow();
    expect(JSON.parse(ok(list.json))).toEqual({
      success: true,
      schedules: apiList.map((s: any) => named(s, full.get(s.accountUuid))),
    });
    // Each in its set's zone.
    expect(parseTable(ok(list.table), ['WHEN', 'ZONE', 'DRAFT', 'NETWORK', 'ACCOUNT', 'ATTEMPTS', 'ID'])).toEqual(
      apiList.map((s: any) => ({
        WHEN: formatLocal(s.timeZone, Date.parse(s.scheduledFor)).local.replace('T', ' '),
        ZONE: `${s.timeZone} ${formatLocal(s.timeZone, Date.parse(s.scheduledFor)).offset}`,
        DRAFT: s.draftTitle,
        NETWORK: 'Mastodon',
        ACCOUNT: handleOf(full.get(s.accountUuid)),
        ATTEMPTS: String(s.attempts),
        ID: s.id,
      })),
    );
    expect(lines(list.minimal)).toEqual(apiList.map((s: any) => s.id));

    const cancel = await inEach((f) => ['schedule', 'cancel', ids[f]]);
    expect(ok(cancel.table)).toMatch(/\S/);
    expect(JSON.parse(ok(cancel.json))).toEqual({
      success: true,
      message: expect.any(String),
      cancelled: 1,
      draftId: ids.json,
    });
    expect(ok(cancel.minimal)).toBe(`${ids.minimal}\n`);
    expect((await api('GET', '/microblog/schedule')).schedules).toEqual([]);
  });
});

describe('herald credits, credits-usage', () => {
  it('print the balance and the ledger in each format', async () => {
    const [credits, usage] = await Promise.all([
      inEach(() => ['credits']),
      inEach(() => ['credits-usage', '--limit', '3']),
    ]);
    const bal = await api('POST', '/credits');
    expect(JSON.parse(ok(credits.json))).toEqual(bal);
    // The month's end as the user's wall clock shows it; the instant stays in -o json.
    const end = formatLocal(bal.timeZone, Date.parse(bal.expiresAt));
    expect(parseKeyValues(ok(credits.table))).toEqual({
      balance: String(bal.balance),
      reserved: `${bal.reserved} by posts scheduled this month`,
      monthly: String(bal.monthlyCredits),
      expires: `${end.local.replace('T', ' ')} ${bal.timeZone} (UTC${end.offset})`,
      'x-spend': `${bal.xSpend.monthUsd} USD spent, ${bal.xSpend.scheduledUsd} scheduled, cap none`,
    });
    expect(ok(credits.minimal)).toBe(`${bal.balance}\n`);
    // Publishing above: 2 + 1 + 2 targets charged, the failed one refunded.
    expect(bal.balance).toBe(10_000 - 50 + 10);

    const page = await api('GET', '/credits/usage?page=1&limit=3');
    expect(page.pagination.hasMore).toBe(true);
    expect(JSON.parse(ok(usage.json))).toEqual(page);
    expect(parseTable(ok(usage.table), ['DATE', 'TYPE', 'CREDITS', 'SOURCE', 'DETAIL'])).toEqual(
      page.records.map((x: any) => ({
        DATE: x.created_at,
        TYPE: x.trans_type,
        CREDITS: x.credits > 0 ? `+${x.credits}` : String(x.credits),
        SOURCE: x.source_type ?? '',
        DETAIL: clipped(x.source_detail, 40),
      })),
    );
    expect(usage.table.err).toMatch(/--page 2 for more/);
    expect(lines(usage.minimal)).toEqual(page.records.map((x: any) => x.trans_no));

    // --type, --from and --to reach the API's filters: the same records as asking it directly.
    const today = new Date().toISOString().slice(0, 10);
    const refunds = JSON.parse(
      ok(await cli(['credits-usage', '--type', 'refund', '--from', today, '--to', today], 'json')),
    );
    expect(refunds).toEqual(await api('GET', `/credits/usage?trans_type=refund&start_date=${today}&end_date=${today}`));
    expect(refunds.records.length).toBeGreaterThan(0);
    expect(refunds.records.every((x: any) => x.trans_type === 'refund')).toBe(true);
    const none = JSON.parse(ok(await cli(['credits-usage', '--from', '2000-01-01', '--to', '2000-01-31'], 'json')));
    expect(none.records).toEqual([]);
    const wrong = await cli(['credits-usage', '--type', 'gift'], 'table');
    expect(wrong.code).toBe(2);
  });
});

// After the credit figures above, which count every publish before this.
describe('herald publish --force', () => {
  it('without --force an account that has the draft is skipped; with it, the draft goes out again', async () => {
    const id = (
      await api('POST', '/microblog/drafts', {
        title: 'Force run',
        tweets: [{ content: 'Force run once', position: 0 }],
        selectedAccountIds: [fed1],
      })
    ).draft.id as string;
    const count = () => sim.state.statuses.filter((s) => s.text === 'Force run once').length;
    ok(await cli(['publish', id], 'minimal'));
    expect(count()).toBe(1);
    const again = await cli(['publish', id], 'json');
    expect(count()).toBe(1);
    expect(JSON.parse(again.out).entries.map((e: any) => e.status)).not.toContain('publishing');
    const forced = JSON.parse(ok(await cli(['publish', id, '--force'], 'json')));
    expect(forced.entries.map((e: any) => [e.accountUuid, e.status])).toEqual([[fed1, 'published']]);
    expect(count()).toBe(2);
  });
});
