/**
 * The draft list is kept while the database is unchanged (server/db/change-token.ts). These
 * tests change the database every way it can change under a kept answer and expect the next GET
 * to show it: a write through the API, a write through another service (accounts, media), a
 * commit by another SQLite connection (another process, the CLI), and a cascade delete.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, addMedia, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
let owner: string;

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  owner = userIdOf(t, OWNER.email);
  addAccount(t, owner, 'microblog');
});
afterAll(async () => {
  await t.close();
});

const list = async (query = '') => {
  const r = await t.call('GET', `/microblog/drafts${query}`, { key });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(r.body.success).toBe(true);
  return r.body as {
    drafts: {
      id: string;
      title: string;
      tweets: { plainText: string; media: { mediaId: string; type?: string }[]; validation: Record<string, unknown> }[];
    }[];
    nextCursor: string | null;
  };
};

describe('GET /microblog/drafts after the database changed', () => {
  it('shows API writes: create, update, delete', async () => {
    expect((await list()).drafts).toEqual([]);
    const a = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'First', tweets: [{ content: 'one' }] },
    });
    expect(a.status).toBe(200);
    const id = a.body.draft.id as string;
    expect((await list()).drafts.map((d) => d.title)).toEqual(['First']);
    expect((await list()).drafts.map((d) => d.title)).toEqual(['First']);
    expect(
      (
        await t.call('PUT', `/microblog/drafts/${id}`, {
          key,
          body: { title: 'Renamed', tweets: [{ content: 'two' }] },
        })
      ).status,
    ).toBe(200);
    const after = (await list()).drafts;
    expect(after.map((d) => d.title)).toEqual(['Renamed']);
    expect(after[0].tweets.map((x) => x.plainText)).toEqual(['two']);
    expect((await t.call('DELETE', `/microblog/drafts/${id}`, { key })).status).toBe(200);
    expect((await list()).drafts).toEqual([]);
  });

  it('shows a commit by another SQLite connection (another process)', async () => {
    const a = await t.call('POST', '/microblog/drafts', { key, body: { title: 'Before', tweets: [{ content: 'x' }] } });
    expect((await list('?limit=10')).drafts.map((d) => d.title)).toEqual(['Before']);
    const other = new Database(path.join(t.dataDir, 'herald.db'));
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare('UPDATE drafts SET title = ? WHERE id = ?').run('Changed elsewhere', a.body.draft.id);
      other.prepare('UPDATE tweets SET plain_text = ? WHERE draft_id = ?').run('elsewhere', a.body.draft.id);
    } finally {
      other.close();
    }
    const d = (await list('?limit=10')).drafts[0];
    expect(d.title).toBe('Changed elsewhere');
    expect(d.tweets[0].plainText).toBe('elsewhere');
  });

  it('shows writes made by other services: a new target account, a media row, a cascade', async () => {
    const before = (await list()).drafts[0];
    expect(Object.keys(before.tweets[0].validation)).toEqual(['microblog']);
    const { accountId } = addAccount(t, owner, 'problog');
    expect(Object.keys((await list()).drafts[0].tweets[0].validation).sort()).toEqual(['microblog', 'problog']);

    const mediaId = addMedia(t, owner, 'image');
    const withMedia = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'Pic', tweets: [{ content: 'pic', media: [{ mediaId }] }] },
    });
    expect(withMedia.status).toBe(200);
    expect((await list()).drafts[0].tweets[0].media).toEqual([{ mediaId, type: 'image' }]);
    t.server.sqlite.prepare('DELETE FROM media WHERE id = ?').run(mediaId);
    expect((await list()).drafts[0].tweets[0].media).toEqual([{ mediaId }]);

    // Deleting the account cascades to its social set membership.
    t.server.sqlite.prepare('DELETE FROM accounts WHERE id = ?').run(accountId);
    expect(Object.keys((await list()).drafts[0].tweets[0].validation)).toEqual(['microblog']);
  });
});
