/**
 * GET /publish/history filters (the History page's): network, status, a time range (publication
 * time, else last change; bounds with an offset mean the same instant in UTC) and text in the
 * title, account, link or error, case-insensitive and literal (no wildcards). Bad bounds are 400
 * naming the field; another user's publications never show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { addUser, OWNER, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
const ids = async (query: string, k = key) => {
  const r = await t.call('GET', `/publish/history?${query}`, { key: k });
  expect(r.status, r.text).toBe(200);
  return (r.body.publications as { id: string }[]).map((p) => p.id).sort();
};

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  const owner = userIdOf(t, OWNER.email);
  const x = addAccount(t, owner, 'microblog').accountId;
  const fed = addAccount(t, owner, 'fedblog').accountId;
  const draft = async (title: string) =>
    (await t.call('POST', '/microblog/drafts', { key, body: { title, tweets: [{ content: title }] } })).body.draft
      .id as string;
  const launch = await draft('Launch Day');
  const promo = await draft('100% off_sale');
  const insert = t.server.sqlite
    .prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts, error, url,
        published_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`);
  insert.run(
    'p-x',
    owner,
    launch,
    x,
    'microblog',
    'published',
    null,
    'https://x.example/status/1',
    '2026-11-20T10:00:00.000Z',
    '2026-11-20T10:00:00.000Z',
    '2026-11-20T10:00:00.000Z',
  );
  insert.run(
    'p-fed',
    owner,
    launch,
    fed,
    'fedblog',
    'published',
    null,
    'https://mastodon.example/@me/2',
    '2026-11-21T23:30:00.000Z',
    '2026-11-21T23:30:00.000Z',
    '2026-11-21T23:30:00.000Z',
  );
  insert.run(
    'p-fail',
    owner,
    promo,
    x,
    'microblog',
    'failed',
    'Rate limit reached',
    null,
    null,
    '2026-10-01T08:00:00.000Z',
    '2026-10-01T08:00:00.000Z',
  );
  const other = await addUser(t, 'other@example.test');
  const otherId = userIdOf(t, 'other@example.test');
  const theirs = addAccount(t, otherId, 'microblog').accountId;
  const theirDraft = (
    await t.call('POST', '/microblog/drafts', {
      key: other,
      body: { title: 'Launch Day too', tweets: [{ content: 'x' }] },
    })
  ).body.draft.id;
  insert.run(
    'p-other',
    otherId,
    theirDraft,
    theirs,
    'microblog',
    'published',
    null,
    'https://x.example/status/9',
    '2026-11-20T10:00:00.000Z',
    '2026-11-20T10:00:00.000Z',
    '2026-11-20T10:00:00.000Z',
  );
});

afterAll(async () => {
  await t?.close();
});

describe('history filters', () => {
  it('network and status', async () => {
    expect(await ids('')).toEqual(['p-fail', 'p-fed', 'p-x']);
    expect(await ids('platform=microblog')).toEqual(['p-fail', 'p-x']);
    expect(await ids('platform=microblog&status=published')).toEqual(['p-x']);
    expect(await ids('platform=problog')).toEqual([]);
  });

  it('a time range: from inclusive, to exclusive, offsets read as UTC', async () => {
    expect(await ids('from=2026-11-20T10:00:00Z')).toEqual(['p-fed', 'p-x']);
    expect(await ids('to=2026-11-20T10:00:00Z')).toEqual(['p-fail']);
    // 2026-11-22T00:00 in Kolkata is 2026-11-21T18:30Z: the Mastodon post (23:30Z) is after it.
    expect(await ids(`from=${encodeURIComponent('2026-11-22T00:00:00+05:30')}`)).toEqual(['p-fed']);
    expect(await ids(`from=2026-11-01T00:00:00Z&to=${encodeURIComponent('2026-11-21T00:00:00-01:00')}`)).toEqual([
      'p-x',
    ]);
  });

  it('text in the title, link or error, case-insensitive and literal', async () => {
    expect(await ids('q=launch%20day')).toEqual(['p-fed', 'p-x']);
    expect(await ids('q=MASTODON.EXAMPLE')).toEqual(['p-fed']);
    expect(await ids('q=rate%20limit')).toEqual(['p-fail']);
    expect(await ids('q=100%25')).toEqual(['p-fail']);
    expect(await ids('q=%25')).toEqual(['p-fail']);
    expect(await ids('q=_')).toEqual(['p-fail']);
    expect(await ids('q=nothing%20like%20it')).toEqual([]);
  });

  it('bad bounds are 400 naming the field', async () => {
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['to=2026-13-01T00:00:00Z', 'to'],
      ['platform=myspace', 'platform'],
    ]) {
      const r = await t.call('GET', `/publish/history?${query}`, { key });
      expect(r.status, query).toBe(400);
      expect(JSON.stringify(r.body)).toContain(field);
    }
  });
});
