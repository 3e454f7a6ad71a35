/**
 * Drafts over real HTTP against a real server with real SQLite and the real migrations:
 * create, list, get, update, delete, batch, templates, the status lock, and isolation between
 * users. Counting per target network and per-network text: drafts-counting.test.ts (the shared
 * server and helpers: test/helpers/drafts-server.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as contract from '../../server/contracts/drafts.js';
import { built } from '../../server/contracts/lazy.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { addUser } from '../helpers/server.js';
import {
  t,
  key,
  owner,
  clock,
  accountIds,
  defaultSet,
  post,
  put,
  get,
  del,
  tick,
  setStatus,
  addAccountsOnEveryNetwork,
  useDraftsServer,
} from '../helpers/drafts-server.js';

useDraftsServer();

describe('no social set', () => {
  it('answers 400 NO_SOCIAL_SET when the user has no set, with or without socialSetId', async () => {
    const a = await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'hello' }] });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ success: false, error: 'NO_SOCIAL_SET' });
    const b = await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'hello' }], socialSetId: 'nope' });
    expect(b.status).toBe(400);
    expect(b.body.error).toBe('NO_SOCIAL_SET');
    const c = await post('/microblog/drafts/batch', { drafts: [{ title: 'x', tweets: [{ content: 'hello' }] }] });
    expect(c.body.error).toBe('NO_SOCIAL_SET');
    expect((await get('/microblog/drafts')).body).toEqual({ success: true, drafts: [], nextCursor: null });
  });
});

describe('with accounts', () => {
  beforeAll(addAccountsOnEveryNetwork);

  it('creates a draft in the default set with every spec field typed', async () => {
    tick();
    const r = await post('/microblog/drafts', {
      title: 'First',
      tweets: [
        { content: '<p>Second <b>bold</b></p>', position: 7 },
        { content: 'First line\nsecond line', position: 2 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const d = r.body.draft;
    expect(d).toMatchObject({
      title: 'First',
      status: 'draft',
      scheduledFor: null,
      socialSetId: defaultSet,
      selectedAccountIds: [],
      templateId: null,
    });
    expect(typeof d.id).toBe('string');
    expect(Date.parse(d.createdAt)).toBe(clock.t);
    expect(d.updatedAt).toBe(d.createdAt);
    expect(d.tweets.map((x: any) => x.position)).toEqual([0, 1]);
    const [a, b] = d.tweets;
    expect(a).toMatchObject({
      content: '<p>First line<br>second line</p>',
      plainText: 'First line\nsecond line',
      characterCount: 22,
      isValid: true,
      media: [],
    });
    expect(b).toMatchObject({
      content: '<p>Second <b>bold</b></p>',
      plainText: 'Second bold',
      characterCount: 11,
      isValid: true,
    });
    for (const tw of d.tweets) {
      expect(typeof tw.id).toBe('string');
      expect(Object.keys(tw.validation).sort()).toEqual(['fedblog', 'microblog', 'problog', 'skyblog', 'threadblog']);
      for (const v of Object.values<any>(tw.validation)) {
        expect(Number.isInteger(v.count)).toBe(true);
        expect(Number.isInteger(v.limit)).toBe(true);
        expect(v.valid).toBe(true);
      }
    }
    expect(a.validation.fedblog.limit).toBe(1000);
    expect(a.validation.microblog).toEqual({ count: 22, limit: 280, valid: true });
    const again = await get(`/microblog/drafts/${d.id}`);
    expect(again.body.draft).toEqual(d);
    // Every field with the type the contract (and the OpenAPI document) states, nothing missing.
    expect(() => built(contract.draftResponse).strict().parse(again.body)).not.toThrow();
    expect(() => built(contract.draftSchema).strict().parse(d)).not.toThrow();
    for (const tw of d.tweets) expect(() => built(contract.tweetSchema).strict().parse(tw)).not.toThrow();
  });

  it('keeps autolinks and the text after them, in plain text and in HTML', async () => {
    const r = await post('/microblog/drafts', {
      title: 'autolinks',
      tweets: [
        { content: 'Read <https://example.com/a?b=1&c=2> today\nMail <bob@example.com> or call' },
        { content: '<p>See <https://example.org/p>, then</p><p>more</p>' },
      ],
    });
    expect(r.status).toBe(200);
    const [plain, html] = r.body.draft.tweets;
    expect(plain).toMatchObject({
      plainText: 'Read https://example.com/a?b=1&c=2 today\nMail bob@example.com or call',
      content: '<p>Read https://example.com/a?b=1&amp;c=2 today<br>Mail bob@example.com or call</p>',
    });
    expect(plain.validation.microblog.count).toBe(5 + 23 + 6 + 1 + 'Mail bob@example.com or call'.length);
    expect(html).toMatchObject({
      plainText: 'See https://example.org/p, then\nmore',
      content: '<p>See <a href="https://example.org/p">https://example.org/p</a>, then</p><p>more</p>',
    });
  });

  it('validates required fields and types', async () => {
    for (const body of [
      { tweets: [{ content: 'a' }] },
      { title: 'x' },
      { title: 'x', tweets: [] },
      { title: 'x', tweets: [{ content: 5 }] },
      { title: 'x', tweets: [{ content: 'a' }], status: 'published' },
      { title: 'x', tweets: [{ content: 'a' }], scheduledFor: 'tomorrow' },
    ]) {
      const r = await post('/microblog/drafts', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(r.body.details.length).toBeGreaterThan(0);
    }
  });

  it('takes an explicit set, selected accounts, scheduledFor; refuses unknown sets, accounts and media', async () => {
    const other = addAccount(t, owner, 'skyblog', { mode: 'create_new' });
    tick();
    const r = await post('/microblog/drafts', {
      title: 'Sky only',
      tweets: [{ content: 'hi' }],
      socialSetId: other.socialSetId,
      scheduledFor: '2026-12-01T10:00:00Z',
    });
    expect(r.status).toBe(200);
    expect(r.body.draft.socialSetId).toBe(other.socialSetId);
    expect(r.body.draft.scheduledFor).toBe('2026-12-01T10:00:00.000Z');
    expect(Object.keys(r.body.draft.tweets[0].validation)).toEqual(['skyblog']);

    const sel = await post('/microblog/drafts', {
      title: 'Sel',
      tweets: [{ content: 'hi' }],
      selectedAccountIds: [accountIds.problog, accountIds.fedblog],
    });
    expect(sel.body.draft.selectedAccountIds).toEqual([accountIds.problog, accountIds.fedblog]);
    expect(Object.keys(sel.body.draft.tweets[0].validation).sort()).toEqual(['fedblog', 'problog']);

    expect(
      (await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], socialSetId: 'no-such-set' })).status,
    ).toBe(404);
    const badAcc = await post('/microblog/drafts', {
      title: 'x',
      tweets: [{ content: 'a' }],
      selectedAccountIds: ['ghost'],
    });
    expect(badAcc.status).toBe(400);
    expect(badAcc.body.details[0].path).toBe('selectedAccountIds');
    const badMedia = await post('/microblog/drafts', {
      title: 'x',
      tweets: [{ content: 'a', media: [{ mediaId: 'ghost' }] }],
    });
    expect(badMedia.status).toBe(400);
    expect(badMedia.body.details[0].path).toBe('tweets.0.media.0.mediaId');
  });

  it('applies a template at creation and keeps templateId', async () => {
    const tpl = await post('/templates', {
      name: 'T',
      headContentPlain: 'HEAD',
      tailContentHtml: '<p>TAIL &amp; more</p>',
    });
    const r = await post('/microblog/drafts', {
      title: 'tpl',
      tweets: [{ content: 'one' }, { content: 'two' }],
      templateId: tpl.body.template.uuid,
    });
    const d = r.body.draft;
    expect(d.templateId).toBe(tpl.body.template.uuid);
    expect(d.tweets[0].plainText).toBe('HEAD\none');
    expect(d.tweets[0].content).toBe('<p>HEAD</p><p>one</p>');
    expect(d.tweets[1].plainText).toBe('two\nTAIL & more');
    const single = await post('/microblog/drafts', {
      title: 'tpl1',
      tweets: [{ content: 'only' }],
      templateId: tpl.body.template.uuid,
    });
    expect(single.body.draft.tweets[0].plainText).toBe('HEAD\nonly\nTAIL & more');
    const bad = await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], templateId: 'ghost' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('templateId');
  });

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

describe('isolation', () => {
  it("another user's drafts are invisible (404) and never listed", async () => {
    const mine = (await post('/microblog/drafts', { title: 'secret', tweets: [{ content: 'mine' }] })).body.draft;
    await put(`/microblog/drafts/${mine.id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'sky' }] });
    const otherKey = await addUser(t, 'eve@example.test');
    const eve = userIdOf(t, 'eve@example.test');
    addAccount(t, eve, 'microblog');
    for (const r of [
      await get(`/microblog/drafts/${mine.id}`, otherKey),
      await put(`/microblog/drafts/${mine.id}`, { title: 'pwned' }, otherKey),
      await del(`/microblog/drafts/${mine.id}`, otherKey),
      await get(`/microblog/drafts/${mine.id}/platforms`, otherKey),
      await put(
        `/microblog/drafts/${mine.id}/platforms`,
        { platforms: [{ platform: 'skyblog', content: 'x' }] },
        otherKey,
      ),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ success: false, error: 'NOT_FOUND' });
      expect(r.text).not.toContain('secret');
      expect(r.text).not.toContain('mine');
    }
    const list = await get('/microblog/drafts', otherKey);
    expect(list.body.drafts).toEqual([]);
    // Eve cannot point a draft at the owner's set, accounts or media either.
    const ownerSet = defaultSet;
    expect(
      (await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], socialSetId: ownerSet }, otherKey))
        .status,
    ).toBe(404);
    expect(
      (
        await post(
          '/microblog/drafts',
          { title: 'x', tweets: [{ content: 'a' }], selectedAccountIds: [accountIds.skyblog] },
          otherKey,
        )
      ).status,
    ).toBe(400);
    expect((await get(`/microblog/drafts/${mine.id}`)).body.draft.title).toBe('secret');
    expect((await get(`/microblog/drafts/${mine.id}/platforms`)).body.platforms[0].content).toBe('sky');
  });
});

describe('OpenAPI', () => {
  it('documents every drafts endpoint with its body and answer', async () => {
    const doc = (await t.call('GET', '/openapi.json')).body;
    const paths = doc.paths;
    expect(Object.keys(paths['/microblog/drafts']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/microblog/drafts/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(paths['/microblog/drafts/{id}/platforms']).sort()).toEqual(['get', 'put']);
    expect(paths['/microblog/drafts/{id}/networks'].get).toBeDefined();
    expect(paths['/microblog/drafts/batch'].post).toBeDefined();
    expect(paths['/microblog/drafts/split'].post).toBeDefined();
    const create = paths['/microblog/drafts'].post;
    expect(create.responses['400'].description).toMatch(/NO_SOCIAL_SET/);
    expect(JSON.stringify(create.responses['200'])).toContain('characterCount');
    expect(JSON.stringify(create.responses['200'])).toContain('validation');
    const list = paths['/microblog/drafts'].get;
    expect(list.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'limit', 'socialSetId', 'status']);
  });
});
