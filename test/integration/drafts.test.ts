/**
 * Drafts over real HTTP against a real server with real SQLite and the real migrations:
 * creating them (every field, autolinks, validation, sets, accounts, templates), isolation
 * between users, and the OpenAPI document. Listing, updating, deleting, the status lock and
 * batch: drafts-lifecycle.test.ts; counting per target network and per-network text:
 * drafts-counting.test.ts (the shared server and helpers: test/helpers/drafts-server.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as contract from '../../server/contracts/drafts.js';
import { built } from '../../server/contracts/lazy.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { addUser } from '../helpers/server.js';
import { t, owner, clock, accountIds, defaultSet, post, put, get, del, tick } from '../helpers/drafts-server.js';
import { addAccountsOnEveryNetwork, useDraftsServer } from '../helpers/drafts-server.js';

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
