/**
 * Imports that schedule (docs/decisions.md §22): a CSV row with a time is scheduled then, one entry per
 * target account as POST /microblog/schedule makes, at exactly that time unless
 * `applyJitter=true`; `schedule=false` only creates drafts; each answer item lists its
 * `queueIds`; a row that cannot be scheduled is a row error. Markdown and JSON imports keep the
 * time on the draft unless `schedule=true`. The CLI passes these through. Real HTTP and SQLite,
 * the real `herald` binary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, herald, ok } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 180_000 });

let t: TestServer;
let key: string;
let sky: string;
let fed: string;
let home: string;
const clock = new TestClock(Date.parse('2026-11-26T12:00:00.000Z'));
const header = 'text,networks,scheduledFor,timeZone,media';

const csv = (body: string, q = '') =>
  t.call('POST', `/microblog/drafts/import-csv${q}`, { key, raw: body, headers: { 'content-type': 'text/csv' } });
const md = (body: string, q = '') =>
  t.call('POST', `/microblog/drafts/import${q}`, { key, raw: body, headers: { 'content-type': 'text/markdown' } });
const entries = (draftId: string) =>
  t.server.sqlite
    .prepare(
      `SELECT id, account_id AS accountId, fire_at AS fireAt, requested_at AS requestedAt
  FROM schedule_entries WHERE draft_id = ? AND status = 'pending' ORDER BY account_id`,
    )
    .all(draftId) as { id: string; accountId: string; fireAt: number; requestedAt: number }[];
const status = async (id: string) =>
  (await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.status as string;
const cli = (args: string[]) => herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) });

beforeAll(async () => {
  t = await startServer({ scheduler: false, clock });
  key = await t.login();
  const user = userIdOf(t, OWNER.email);
  sky = addAccount(t, user, 'skyblog').accountId;
  fed = addAccount(t, user, 'fedblog').accountId;
  home = tempDir('herald-cli-import-schedule-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('CSV import schedules rows with a time', () => {
  it("one entry per target account at exactly the row's time; a row without a time stays a draft", async () => {
    const r = await csv([header, 'Timed,skyblog fedblog,2026-12-01T09:00:00+01:00,,', 'Untimed,skyblog,,,'].join('\n'));
    expect(r.status, r.text).toBe(200);
    expect(r.body.errors).toEqual([]);
    const [timed, untimed] = r.body.drafts;
    expect(timed.queueIds).toHaveLength(2);
    expect(untimed.queueIds).toEqual([]);
    const es = entries(timed.id);
    expect(es.map((e) => e.id).sort()).toEqual([...timed.queueIds].sort());
    expect(es.map((e) => e.accountId).sort()).toEqual([sky, fed].sort());
    for (const e of es) expect(new Date(e.fireAt).toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(await status(timed.id)).toBe('scheduled');
    expect(await status(untimed.id)).toBe('draft');
    const listed = (await t.call('GET', '/microblog/schedule', { key })).body.schedules.filter(
      (s: any) => s.draftId === timed.id,
    );
    expect(listed).toHaveLength(2);
  });

  it('applyJitter=true spreads each entry within 3 minutes', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `Jittered ${i},skyblog fedblog,2026-12-02T10:00:00Z,,`);
    const r = await csv([header, ...rows].join('\n'), '?applyJitter=true');
    expect(r.status, r.text).toBe(200);
    const es = r.body.drafts.flatMap((d: any) => entries(d.id));
    expect(es).toHaveLength(20);
    for (const e of es) expect(Math.abs(e.fireAt - e.requestedAt)).toBeLessThanOrEqual(180_000);
    expect(es.some((e: any) => e.fireAt !== e.requestedAt)).toBe(true);
  });

  it('schedule=false only creates drafts, their times kept; a dry run schedules nothing', async () => {
    const body = [header, 'Kept as a draft,skyblog,2026-12-03T10:00:00Z,,'].join('\n');
    const off = await csv(body, '?schedule=false');
    expect(off.status, off.text).toBe(200);
    expect(off.body.drafts[0]).toMatchObject({ scheduledFor: '2026-12-03T10:00:00.000Z', queueIds: [] });
    expect(entries(off.body.drafts[0].id)).toEqual([]);
    const draft = (await t.call('GET', `/microblog/drafts/${off.body.drafts[0].id}`, { key })).body.draft;
    expect(draft).toMatchObject({ status: 'draft', scheduledFor: '2026-12-03T10:00:00.000Z' });
    const before = t.server.sqlite.prepare('SELECT COUNT(*) FROM schedule_entries').pluck().get();
    const dry = await csv(body, '?dryRun=true');
    expect(dry.body).toMatchObject({ dryRun: true, imported: 1, drafts: [{ id: null, queueIds: [] }] });
    expect(t.server.sqlite.prepare('SELECT COUNT(*) FROM schedule_entries').pluck().get()).toBe(before);
  });

  it(
    'a row that cannot be scheduled (too long for Bluesky) is a row error, and nothing is imported unless ' + 'partial',
    async () => {
      const body = [
        header,
        'Fine,skyblog,2026-12-04T10:00:00Z,,',
        `${'long '.repeat(80)},skyblog,2026-12-04T11:00:00Z,,`,
      ].join('\n');
      const strict = await csv(body);
      expect(strict.body).toMatchObject({
        imported: 0,
        drafts: [],
        errors: [{ row: 3, column: 'text', message: expect.stringMatching(/Bluesky/) }],
      });
      const partial = await csv(body, '?partial=true');
      expect(partial.body).toMatchObject({
        imported: 1,
        drafts: [{ row: 2, queueIds: [expect.any(String)] }],
        errors: [{ row: 3 }],
      });
    },
  );
});

describe('Markdown and JSON imports', () => {
  const file = '---\nnetworks: [skyblog, fedblog]\nscheduledFor: 2026-12-05T09:00:00Z\n---\nFrom a file\n';

  it('keep the time on the draft by default', async () => {
    const r = await md(file);
    expect(r.status, r.text).toBe(200);
    expect(r.body.scheduled).toEqual([]);
    expect(r.body.drafts[0]).toMatchObject({ status: 'draft', scheduledFor: '2026-12-05T09:00:00.000Z' });
    expect(entries(r.body.drafts[0].id)).toEqual([]);
  });

  it('schedule=true schedules each draft that has a time, one entry per account', async () => {
    const r = await md(file, '?schedule=true');
    expect(r.status, r.text).toBe(200);
    const id = r.body.drafts[0].id;
    expect(r.body.scheduled).toEqual([{ draftId: id, queueIds: expect.any(Array) }]);
    expect(entries(id).map((e) => new Date(e.fireAt).toISOString())).toEqual([
      '2026-12-05T09:00:00.000Z',
      '2026-12-05T09:00:00.000Z',
    ]);
    expect(await status(id)).toBe('scheduled');
    const json = await t.call('POST', '/microblog/drafts/import?schedule=true', {
      key,
      raw: JSON.stringify({
        drafts: [
          { networks: ['skyblog'], scheduledFor: '2026-12-06T09:00:00Z', posts: [{ text: 'JSON timed' }] },
          { networks: ['skyblog'], posts: [{ text: 'JSON untimed' }] },
        ],
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status, json.text).toBe(200);
    expect(json.body.scheduled).toHaveLength(1);
    expect(json.body.scheduled[0].draftId).toBe(json.body.drafts[0].id);
  });
});

describe('the CLI passes it through', () => {
  it(
    'import-csv schedules by default and not with ' + '--no-schedule; import --schedule schedules on the server',
    async () => {
      const csvFile = path.join(home, 'posts.csv');
      fs.writeFileSync(csvFile, `${header}\nCLI timed,skyblog,2026-12-07T09:00:00Z,,\n`);
      const on = JSON.parse(ok(await cli(['draft', 'import-csv', csvFile, '-o', 'json'])));
      expect(on.drafts[0].queueIds).toHaveLength(1);
      expect(ok(await cli(['draft', 'import-csv', csvFile]))).toMatch(/Imported 1 draft\(s\); scheduled 1 of them/);
      const off = JSON.parse(ok(await cli(['draft', 'import-csv', csvFile, '--no-schedule', '-o', 'json'])));
      expect(off.drafts[0].queueIds).toEqual([]);
      expect(entries(off.drafts[0].id)).toEqual([]);
      const mdFile = path.join(home, 'post.md');
      fs.writeFileSync(mdFile, '---\nnetworks: [skyblog]\nscheduledFor: 2026-12-08T09:00:00Z\n---\nCLI markdown\n');
      const imported = JSON.parse(ok(await cli(['draft', 'import', mdFile, '--schedule', '-o', 'json']))).drafts[0];
      expect(entries(imported.id).map((e) => new Date(e.fireAt).toISOString())).toEqual(['2026-12-08T09:00:00.000Z']);
    },
  );
});
