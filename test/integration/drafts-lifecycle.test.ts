/**
 * Drafts after they are created, over real HTTP against a real server (split from
 * drafts.test.ts): listing with filters and cursor pages, updating, deleting, the status lock
 * while publishing, the status machine through real scheduling, and batch creation (all or
 * nothing, at most 100).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as contract from '../../server/contracts/drafts.js';
import { addAccount } from '../helpers/drafts.js';
import { t, key, owner, clock, defaultSet, accountIds, post, put, get, del, tick } from '../helpers/drafts-server.js';
import { setStatus, addAccountsOnEveryNetwork, useDraftsServer } from '../helpers/drafts-server.js';

useDraftsServer();

describe('with accounts', () => {
  beforeAll(addAccountsOnEveryNetwork);

  it('lists newest first with id, title, status, tweets, createdAt; filters; pages with limit and cursor', async () => {
    const set2 = addAccount(t, owner, 'problog', { mode: 'create_new' }).socialSetId;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      tick();
      const r = await post('/microblog/drafts', {
        title: `L${i}`,
        tweets: [{ content: `post ${i}` }],
        socialSetId: set2,
      });
      made.push(r.body.draft.id);
    }
    const all = await get('/microblog/drafts');
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    const created = all.body.drafts.map((d: any) => d.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(() => contract.draftListResponse.parse(all.body)).not.toThrow();
    const item = all.body.drafts[0];
    expect(item.id).toBe(made[4]);
    for (const k of ['id', 'title', 'status', 'tweets', 'createdAt']) expect(item).toHaveProperty(k);
    expect(item.tweets[0]).toMatchObject({ plainText: 'post 4', position: 0, isValid: true, characterCount: 6 });

    const bySet = await get(`/microblog/drafts?socialSetId=${set2}`);
    expect(bySet.body.drafts.map((d: any) => d.id)).toEqual([...made].reverse());

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await get(`/microblog/drafts?socialSetId=${set2}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.drafts.length).toBeLessThanOrEqual(2);
      pages.push(...r.body.drafts.map((d: any) => d.id));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(pages).toEqual([...made].reverse());

    setStatus(made[1], 'published');
    const pub = await get('/microblog/drafts?status=published');
    expect(pub.body.drafts.map((d: any) => d.id)).toEqual([made[1]]);
    expect((await get('/microblog/drafts?status=bogus')).status).toBe(400);
    expect((await get('/microblog/drafts?limit=0')).status).toBe(400);
    expect((await get('/microblog/drafts?limit=2&cursor=garbage')).status).toBe(400);
  });

  it('updates: fields, tweets replace the whole list, status back to draft; refuses while publishing', async () => {
    tick();
    const r = await post('/microblog/drafts', {
      title: 'U',
      tweets: [{ content: 'a' }, { content: 'b' }, { content: 'c' }],
    });
    const id = r.body.draft.id;
    tick();
    const u = await put(`/microblog/drafts/${id}`, {
      title: 'U2',
      tweets: [
        { content: 'z', position: 3 },
        { content: 'y', position: 1 },
      ],
      selectedAccountIds: [accountIds.skyblog],
    });
    expect(u.status).toBe(200);
    expect(u.body.draft.title).toBe('U2');
    expect(u.body.draft.tweets.map((x: any) => [x.plainText, x.position])).toEqual([
      ['y', 0],
      ['z', 1],
    ]);
    expect(Object.keys(u.body.draft.tweets[0].validation)).toEqual(['skyblog']);
    expect(u.body.draft.updatedAt > u.body.draft.createdAt).toBe(true);
    const title = await put(`/microblog/drafts/${id}`, { title: 'U3' });
    expect(title.body.draft.tweets.map((x: any) => x.plainText)).toEqual(['y', 'z']);

    setStatus(id, 'failed');
    expect((await put(`/microblog/drafts/${id}`, { status: 'draft' })).body.draft.status).toBe('draft');
    setStatus(id, 'scheduled');
    const back = await put(`/microblog/drafts/${id}`, { status: 'draft' });
    expect(back.status).toBe(400);
    expect(back.body.message).toMatch(/schedule/);

    setStatus(id, 'publishing');
    const locked = await put(`/microblog/drafts/${id}`, { title: 'nope' });
    expect(locked.status).toBe(400);
    expect(locked.body).toMatchObject({ error: 'INVALID_INPUT' });
    expect(locked.body.message).toMatch(/being published/);
    expect((await del(`/microblog/drafts/${id}`)).status).toBe(400);
    expect(
      (await put(`/microblog/drafts/${id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'x' }] })).status,
    ).toBe(400);
    expect((await get(`/microblog/drafts/${id}`)).body.draft.title).toBe('U3');
    setStatus(id, 'published');
    expect((await del(`/microblog/drafts/${id}`)).body).toEqual({ success: true, message: 'Draft deleted' });
    expect((await get(`/microblog/drafts/${id}`)).status).toBe(404);
    expect((await del(`/microblog/drafts/${id}`)).status).toBe(404);
  });

  it(
    'follows the status machine through real scheduling: draft → ' + 'scheduled → draft, editable while scheduled',
    async () => {
      const d = (
        await post('/microblog/drafts', {
          title: 'S',
          tweets: [{ content: 'later' }],
          selectedAccountIds: [accountIds.skyblog],
        })
      ).body.draft;
      const when = new Date(clock.t + 3_600_000).toISOString();
      const s = await post('/microblog/schedule', { draftId: d.id, scheduledFor: when, applyJitter: false });
      expect(s.status, s.text).toBe(200);
      const scheduled = (await get(`/microblog/drafts/${d.id}`)).body.draft;
      expect(scheduled.status).toBe('scheduled');
      expect(scheduled.scheduledFor).toBe(when);
      const edit = await put(`/microblog/drafts/${d.id}`, { tweets: [{ content: 'later, edited' }] });
      expect(edit.status).toBe(200);
      expect(edit.body.draft.status).toBe('scheduled');
      expect((await put(`/microblog/drafts/${d.id}`, { scheduledFor: '2027-01-01T00:00:00Z' })).status).toBe(400);
      expect((await put(`/microblog/drafts/${d.id}`, { status: 'draft' })).status).toBe(400);
      expect((await get('/microblog/drafts?status=scheduled')).body.drafts.map((x: any) => x.id)).toContain(d.id);
      await t.call('DELETE', `/microblog/schedule?draftId=${d.id}`, { key });
      expect((await get(`/microblog/drafts/${d.id}`)).body.draft).toMatchObject({
        status: 'draft',
        scheduledFor: null,
      });
      // Deleting a scheduled draft takes its schedule entries with it.
      await post('/microblog/schedule', { draftId: d.id, scheduledFor: when, applyJitter: false });
      expect((await get('/microblog/schedule')).body.schedules.map((e: any) => e.draftId)).toContain(d.id);
      expect((await del(`/microblog/drafts/${d.id}`)).status).toBe(200);
      expect((await get('/microblog/schedule')).body.schedules.map((e: any) => e.draftId)).not.toContain(d.id);
    },
  );

  it('batch: all or nothing, at most 100, full drafts in input order', async () => {
    const count = () => (t.server.sqlite.prepare('SELECT count(*) n FROM drafts').get() as { n: number }).n;
    const before = count();
    const ok = await post('/microblog/drafts/batch', {
      drafts: [
        { title: 'B1', tweets: [{ content: 'one' }] },
        { title: 'B2', tweets: [{ content: 'two' }, { content: 'three' }] },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.drafts.map((d: any) => d.title)).toEqual(['B1', 'B2']);
    expect(ok.body.drafts[1].tweets[1]).toMatchObject({ plainText: 'three', position: 1, isValid: true });
    expect(count()).toBe(before + 2);

    // Invalid by schema (no tweets) and invalid only once the service looks (unknown account,
    // unknown media, unknown set): none of the batch is kept.
    const bads = [
      { title: 'bad' },
      { title: 'bad', tweets: [{ content: 'x' }], selectedAccountIds: ['ghost'] },
      { title: 'bad', tweets: [{ content: 'x', media: [{ mediaId: 'ghost' }] }] },
      { title: 'bad', tweets: [{ content: 'x' }], socialSetId: 'ghost' },
    ];
    for (const bad of bads) {
      const r = await post('/microblog/drafts/batch', {
        drafts: [{ title: 'G1', tweets: [{ content: 'fine' }] }, { title: 'G2', tweets: [{ content: 'fine' }] }, bad],
      });
      expect(r.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(r.body.success).toBe(false);
      expect(count()).toBe(before + 2);
    }
    const tooMany = await post('/microblog/drafts/batch', {
      drafts: Array.from({ length: 101 }, (_, i) => ({ title: `m${i}`, tweets: [{ content: 'x' }] })),
    });
    expect(tooMany.status).toBe(400);
    expect(count()).toBe(before + 2);
    const hundred = await post('/microblog/drafts/batch', {
      socialSetId: defaultSet,
      drafts: Array.from({ length: 100 }, (_, i) => ({ title: `h${i}`, tweets: [{ content: `x${i}` }] })),
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.drafts.map((d: any) => d.title)).toEqual(Array.from({ length: 100 }, (_, i) => `h${i}`));
    expect(count()).toBe(before + 102);
  });
});
