/**
 * Drafts over real HTTP against a real server with real SQLite and the real migrations:
 * create, list, get, update, delete, batch, per-network text, templates, the status lock,
 * counting per target network, and isolation between users.
 */
import twitterText from 'twitter-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '../../server/contracts/drafts.js';
import { drafts as draftsTable } from '../../server/db/schema.js';
import { eq } from 'drizzle-orm';
import { addAccount, addMedia, userIdOf } from '../helpers/drafts.js';
import { HARD_TEXT } from '../helpers/hard-text.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startMastodonSimulator } from '../simulators/mastodon.simulator.js';
import { OWNER, TestClock, addUser, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
let owner: string;
const clock = new TestClock();
const accountIds: Record<string, string> = {};
let defaultSet: string;

beforeAll(async () => {
  t = await startServer({ scheduler: false, clock });
  key = await t.login();
  owner = userIdOf(t, OWNER.email);
});
afterAll(async () => { await t.close(); });

const post = (path: string, body: unknown, k = key) => t.call('POST', path, { key: k, body });
const put = (path: string, body: unknown, k = key) => t.call('PUT', path, { key: k, body });
const get = (path: string, k = key) => t.call('GET', path, { key: k });
const del = (path: string, k = key) => t.call('DELETE', path, { key: k });
const tick = () => clock.advance(1000);

function setStatus(id: string, status: string) {
  t.server.deps.db.update(draftsTable).set({ status }).where(eq(draftsTable.id, id)).run();
}

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
  beforeAll(() => {
    for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog']) {
      const r = addAccount(t, owner, p, p === 'fedblog' ? { meta: { max_characters: 1000, characters_reserved_per_url: 23 } } : {});
      accountIds[p] = r.accountId;
      defaultSet = r.socialSetId;
    }
  });

  it('creates a draft in the default set with every spec field typed', async () => {
    tick();
    const r = await post('/microblog/drafts', {
      title: 'First',
      tweets: [{ content: '<p>Second <b>bold</b></p>', position: 7 }, { content: 'First line\nsecond line', position: 2 }],
    });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const d = r.body.draft;
    expect(d).toMatchObject({ title: 'First', status: 'draft', scheduledFor: null, socialSetId: defaultSet, selectedAccountIds: [], templateId: null });
    expect(typeof d.id).toBe('string');
    expect(Date.parse(d.createdAt)).toBe(clock.t);
    expect(d.updatedAt).toBe(d.createdAt);
    expect(d.tweets.map((x: any) => x.position)).toEqual([0, 1]);
    const [a, b] = d.tweets;
    expect(a).toMatchObject({ content: '<p>First line<br>second line</p>', plainText: 'First line\nsecond line', characterCount: 22, isValid: true, media: [] });
    expect(b).toMatchObject({ content: '<p>Second <b>bold</b></p>', plainText: 'Second bold', characterCount: 11, isValid: true });
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
    expect(() => contract.draftResponse.strict().parse(again.body)).not.toThrow();
    expect(() => contract.draftSchema.strict().parse(d)).not.toThrow();
    for (const tw of d.tweets) expect(() => contract.tweetSchema.strict().parse(tw)).not.toThrow();
  });

  it('keeps autolinks and the text after them, in plain text and in HTML', async () => {
    const r = await post('/microblog/drafts', {
      title: 'autolinks', tweets: [
        { content: 'Read <https://example.com/a?b=1&c=2> today\nMail <bob@example.com> or call' },
        { content: '<p>See <https://example.org/p>, then</p><p>more</p>' },
      ],
    });
    expect(r.status).toBe(200);
    const [plain, html] = r.body.draft.tweets;
    expect(plain).toMatchObject({ plainText: 'Read https://example.com/a?b=1&c=2 today\nMail bob@example.com or call', content: '<p>Read https://example.com/a?b=1&amp;c=2 today<br>Mail bob@example.com or call</p>' });
    expect(plain.validation.microblog.count).toBe(5 + 23 + 6 + 1 + 'Mail bob@example.com or call'.length);
    expect(html).toMatchObject({ plainText: 'See https://example.org/p, then\nmore', content: '<p>See <a href="https://example.org/p">https://example.org/p</a>, then</p><p>more</p>' });
  });

  it('validates required fields and types', async () => {
    for (const body of [{ tweets: [{ content: 'a' }] }, { title: 'x' }, { title: 'x', tweets: [] }, { title: 'x', tweets: [{ content: 5 }] }, { title: 'x', tweets: [{ content: 'a' }], status: 'published' }, { title: 'x', tweets: [{ content: 'a' }], scheduledFor: 'tomorrow' }]) {
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
      title: 'Sky only', tweets: [{ content: 'hi' }], socialSetId: other.socialSetId, scheduledFor: '2026-12-01T10:00:00Z',
    });
    expect(r.status).toBe(200);
    expect(r.body.draft.socialSetId).toBe(other.socialSetId);
    expect(r.body.draft.scheduledFor).toBe('2026-12-01T10:00:00.000Z');
    expect(Object.keys(r.body.draft.tweets[0].validation)).toEqual(['skyblog']);

    const sel = await post('/microblog/drafts', { title: 'Sel', tweets: [{ content: 'hi' }], selectedAccountIds: [accountIds.problog, accountIds.fedblog] });
    expect(sel.body.draft.selectedAccountIds).toEqual([accountIds.problog, accountIds.fedblog]);
    expect(Object.keys(sel.body.draft.tweets[0].validation).sort()).toEqual(['fedblog', 'problog']);

    expect((await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], socialSetId: 'no-such-set' })).status).toBe(404);
    const badAcc = await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], selectedAccountIds: ['ghost'] });
    expect(badAcc.status).toBe(400);
    expect(badAcc.body.details[0].path).toBe('selectedAccountIds');
    const badMedia = await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a', media: [{ mediaId: 'ghost' }] }] });
    expect(badMedia.status).toBe(400);
    expect(badMedia.body.details[0].path).toBe('tweets.0.media.0.mediaId');
  });

  it('counts per network and judges validity: 280 weighted is valid on X, 281 is not', async () => {
    const sel = { selectedAccountIds: [accountIds.microblog] };
    const ok = await post('/microblog/drafts', { title: 'w', tweets: [{ content: 'a'.repeat(280) }, { content: 'a'.repeat(281) }, { content: '日'.repeat(140) }, { content: '日'.repeat(141) }], ...sel });
    const tw = ok.body.draft.tweets;
    expect(tw.map((x: any) => x.validation.microblog.count)).toEqual([280, 281, 280, 282]);
    expect(tw.map((x: any) => x.isValid)).toEqual([true, false, true, false]);
    expect(tw.map((x: any) => x.characterCount)).toEqual([280, 281, 140, 141]);
    const url = `See https://example.com/${'p'.repeat(200)}?q=1`;
    const u = await post('/microblog/drafts', { title: 'u', tweets: [{ content: url }] });
    const v = u.body.draft.tweets[0].validation;
    expect(v.microblog.count).toBe(4 + 23);
    expect(v.fedblog.count).toBe(4 + 23);
    expect(v.skyblog.count).toBe(url.length);
    expect(u.body.draft.tweets[0].characterCount).toBe(url.length);
    // Mastodon's instance limit from the account's meta: 1000, not 500.
    const m = await post('/microblog/drafts', { title: 'm', tweets: [{ content: 'b'.repeat(900) }], selectedAccountIds: [accountIds.fedblog] });
    expect(m.body.draft.tweets[0].validation.fedblog).toEqual({ count: 900, limit: 1000, valid: true });
    const empty = await post('/microblog/drafts', { title: 'e', tweets: [{ content: '<p></p>' }] });
    expect(empty.body.draft.tweets[0]).toMatchObject({ plainText: '', characterCount: 0, isValid: false });
  });

  it('counts hard text per network over HTTP as worked out by hand', async () => {
    const r = await post('/microblog/drafts', { title: 'hard', tweets: HARD_TEXT.map(([, text]) => ({ content: text })), socialSetId: defaultSet });
    expect(r.status).toBe(200);
    HARD_TEXT.forEach(([name, text, counts], i) => {
      const tw = r.body.draft.tweets[i];
      // Posted as plain text, CR LF comes back as one newline: X then counts one code point less.
      const crlf = text.split('\r\n').length - 1;
      expect(tw.plainText, name).toBe(text.replace(/\r\n/g, '\n'));
      expect(tw.characterCount, name).toBe(counts.skyblog);
      for (const platform of Object.keys(counts) as (keyof typeof counts)[]) {
        expect(tw.validation[platform].count, `${name} on ${platform}`).toBe(platform === 'microblog' ? counts[platform] - crlf : counts[platform]);
        expect(tw.validation[platform].valid).toBe(true);
      }
      expect(tw.isValid).toBe(true);
      // X's figure is twitter-text's own, on the text the server derived.
      expect(tw.validation.microblog.count, name).toBe(twitterText.parseTweet(tw.plainText).weightedLength);
    });
  });

  it('targets: a set with no account is counted for X; each Mastodon account counts by its instance, the strictest binds', async () => {
    const empty = await post('/social-sets', { name: 'Nobody yet' });
    expect(empty.status).toBe(200);
    const lonely = await post('/microblog/drafts', { title: 'x only', tweets: [{ content: 'a'.repeat(281) }, { content: 'b'.repeat(280) }], socialSetId: empty.body.socialSet.id });
    expect(lonely.body.draft.tweets.map((x: any) => x.validation)).toEqual([
      { microblog: { count: 281, limit: 280, valid: false, reason: expect.any(String) } },
      { microblog: { count: 280, limit: 280, valid: true } },
    ]);
    expect(lonely.body.draft.tweets.map((x: any) => x.isValid)).toEqual([false, true]);

    // A second instance: 600 characters, every URL 30 (the first: 1000, URLs 23).
    const small = addAccount(t, owner, 'fedblog', { mode: 'create_new', meta: { max_characters: 600, characters_reserved_per_url: 30 } }).accountId;
    const url = `https://example.com/${'p'.repeat(50)}`;
    const text = (n: number) => `See ${url} ${'b'.repeat(n)}`;
    const only = await post('/microblog/drafts', { title: 'm2', tweets: [{ content: text(10) }], selectedAccountIds: [small] });
    expect(only.body.draft.tweets[0].validation).toEqual({ fedblog: { count: 4 + 30 + 1 + 10, limit: 600, valid: true } });
    const both = await post('/microblog/drafts', { title: 'm3', tweets: [{ content: text(560) }, { content: text(570) }], selectedAccountIds: [accountIds.fedblog, small] });
    const [fits, over] = both.body.draft.tweets;
    // 4 + 30 + 1 + 560 = 595 of 600 leaves less room than 588 of 1000.
    expect(fits.validation.fedblog).toEqual({ count: 595, limit: 600, valid: true });
    expect(over.validation.fedblog).toMatchObject({ count: 605, limit: 600, valid: false });
    expect([fits.isValid, over.isValid]).toEqual([true, false]);
  });

  it('counts media per network', async () => {
    const imgs = Array.from({ length: 5 }, () => addMedia(t, owner, 'image'));
    const vid = addMedia(t, owner, 'video');
    const r = await post('/microblog/drafts', {
      title: 'media', tweets: [
        { content: 'four', media: imgs.slice(0, 4).map((mediaId) => ({ mediaId, altText: 'alt' })) },
        { content: 'five', media: imgs.map((mediaId) => ({ mediaId })) },
        { content: 'video', media: [{ mediaId: vid }] },
        { content: '', media: [{ mediaId: imgs[0] }] },
      ],
    });
    expect(r.status).toBe(200);
    const [four, five, video, onlyMedia] = r.body.draft.tweets;
    expect(four.media[0]).toEqual({ mediaId: imgs[0], altText: 'alt', type: 'image' });
    expect(four.isValid).toBe(true);
    expect(five.validation.microblog.valid).toBe(false);
    expect(five.validation.threadblog.valid).toBe(true);
    expect(five.validation.problog.valid).toBe(true);
    expect(video.validation.microblog.valid).toBe(true);
    expect(video.validation.skyblog.valid).toBe(false);
    expect(video.validation.problog.valid).toBe(false);
    expect(onlyMedia.isValid).toBe(true);
  });

  it('applies a template at creation and keeps templateId', async () => {
    const tpl = await post('/templates', { name: 'T', headContentPlain: 'HEAD', tailContentHtml: '<p>TAIL &amp; more</p>' });
    const r = await post('/microblog/drafts', { title: 'tpl', tweets: [{ content: 'one' }, { content: 'two' }], templateId: tpl.body.template.uuid });
    const d = r.body.draft;
    expect(d.templateId).toBe(tpl.body.template.uuid);
    expect(d.tweets[0].plainText).toBe('HEAD\none');
    expect(d.tweets[0].content).toBe('<p>HEAD</p><p>one</p>');
    expect(d.tweets[1].plainText).toBe('two\nTAIL & more');
    const single = await post('/microblog/drafts', { title: 'tpl1', tweets: [{ content: 'only' }], templateId: tpl.body.template.uuid });
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
      const r = await post('/microblog/drafts', { title: `L${i}`, tweets: [{ content: `post ${i}` }], socialSetId: set2 });
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
    const r = await post('/microblog/drafts', { title: 'U', tweets: [{ content: 'a' }, { content: 'b' }, { content: 'c' }] });
    const id = r.body.draft.id;
    tick();
    const u = await put(`/microblog/drafts/${id}`, { title: 'U2', tweets: [{ content: 'z', position: 3 }, { content: 'y', position: 1 }], selectedAccountIds: [accountIds.skyblog] });
    expect(u.status).toBe(200);
    expect(u.body.draft.title).toBe('U2');
    expect(u.body.draft.tweets.map((x: any) => [x.plainText, x.position])).toEqual([['y', 0], ['z', 1]]);
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
    expect((await put(`/microblog/drafts/${id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'x' }] })).status).toBe(400);
    expect((await get(`/microblog/drafts/${id}`)).body.draft.title).toBe('U3');
    setStatus(id, 'published');
    expect((await del(`/microblog/drafts/${id}`)).body).toEqual({ success: true, message: 'Draft deleted' });
    expect((await get(`/microblog/drafts/${id}`)).status).toBe(404);
    expect((await del(`/microblog/drafts/${id}`)).status).toBe(404);
  });

  it('follows the status machine through real scheduling: draft → scheduled → draft, editable while scheduled', async () => {
    const d = (await post('/microblog/drafts', { title: 'S', tweets: [{ content: 'later' }], selectedAccountIds: [accountIds.skyblog] })).body.draft;
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
    expect((await get(`/microblog/drafts/${d.id}`)).body.draft).toMatchObject({ status: 'draft', scheduledFor: null });
    // Deleting a scheduled draft takes its schedule entries with it.
    await post('/microblog/schedule', { draftId: d.id, scheduledFor: when, applyJitter: false });
    expect((await get('/microblog/schedule')).body.schedules.map((e: any) => e.draftId)).toContain(d.id);
    expect((await del(`/microblog/drafts/${d.id}`)).status).toBe(200);
    expect((await get('/microblog/schedule')).body.schedules.map((e: any) => e.draftId)).not.toContain(d.id);
  });

  it('batch: all or nothing, at most 100, full drafts in input order', async () => {
    const count = () => (t.server.deps.sqlite.prepare('SELECT count(*) n FROM drafts').get() as { n: number }).n;
    const before = count();
    const ok = await post('/microblog/drafts/batch', { drafts: [{ title: 'B1', tweets: [{ content: 'one' }] }, { title: 'B2', tweets: [{ content: 'two' }, { content: 'three' }] }] });
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
      const r = await post('/microblog/drafts/batch', { drafts: [{ title: 'G1', tweets: [{ content: 'fine' }] }, { title: 'G2', tweets: [{ content: 'fine' }] }, bad] });
      expect(r.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(r.body.success).toBe(false);
      expect(count()).toBe(before + 2);
    }
    const tooMany = await post('/microblog/drafts/batch', { drafts: Array.from({ length: 101 }, (_, i) => ({ title: `m${i}`, tweets: [{ content: 'x' }] })) });
    expect(tooMany.status).toBe(400);
    expect(count()).toBe(before + 2);
    const hundred = await post('/microblog/drafts/batch', { socialSetId: defaultSet, drafts: Array.from({ length: 100 }, (_, i) => ({ title: `h${i}`, tweets: [{ content: `x${i}` }] })) });
    expect(hundred.status).toBe(200);
    expect(hundred.body.drafts.map((d: any) => d.title)).toEqual(Array.from({ length: 100 }, (_, i) => `h${i}`));
    expect(count()).toBe(before + 102);
  });

  it('per-network text: upsert in place, --- splits posts, empty removes', async () => {
    const d = (await post('/microblog/drafts', { title: 'P', tweets: [{ content: 'hello' }] })).body.draft;
    const empty = await get(`/microblog/drafts/${d.id}/platforms`);
    expect(empty.body).toEqual({ success: true, platforms: [] });
    tick();
    const a = await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'one\n---\ntwo' }, { platform: 'problog', content: 'long form' }] });
    expect(a.status).toBe(200);
    const sky = a.body.platforms.find((p: any) => p.platform === 'skyblog');
    expect(sky).toMatchObject({ draft_uuid: d.id, platform: 'skyblog', content: 'one\n---\ntwo' });
    expect(Number.isInteger(sky.id)).toBe(true);
    expect(sky.posts).toEqual([{ text: 'one', count: 3, limit: 300, valid: true }, { text: 'two', count: 3, limit: 300, valid: true }]);
    expect(typeof sky.created_at).toBe('string');
    tick();
    const b = await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'skyblog', content: `new\n---\n${'x'.repeat(301)}` }] });
    const sky2 = b.body.platforms.find((p: any) => p.platform === 'skyblog');
    expect(sky2.id).toBe(sky.id);
    expect(sky2.created_at).toBe(sky.created_at);
    expect(sky2.updated_at > sky.updated_at).toBe(true);
    expect(sky2.posts.map((p: any) => p.valid)).toEqual([true, false]);
    expect(b.body.platforms.map((p: any) => p.platform).sort()).toEqual(['problog', 'skyblog']);
    const c = await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'problog', content: '  \n ' }] });
    expect(c.body.platforms.map((p: any) => p.platform)).toEqual(['skyblog']);
    const got = await get(`/microblog/drafts/${d.id}/platforms`);
    expect(got.body.platforms).toEqual(c.body.platforms);
    expect(() => contract.platformsResponse.parse(got.body)).not.toThrow();
    for (const p of got.body.platforms) expect(Object.keys(p).sort()).toEqual(['content', 'created_at', 'draft_uuid', 'id', 'platform', 'posts', 'updated_at']);
    const dup = await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'a' }, { platform: 'skyblog', content: 'b' }] });
    expect(dup.status).toBe(400);
    expect((await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'myspace', content: 'a' }] })).status).toBe(400);
    const rows = t.server.deps.sqlite.prepare('SELECT count(*) n FROM platform_contents WHERE draft_id = ?').get(d.id) as { n: number };
    expect(rows.n).toBe(1);
  });

  it('tells what each target network receives and whether it fits', async () => {
    const img = addMedia(t, owner, 'image');
    const d = (await post('/microblog/drafts', { title: 'N', tweets: [{ content: 'a'.repeat(1600), media: [{ mediaId: img }] }, { content: 'b'.repeat(1600) }] })).body.draft;
    await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'sky one\n---\nsky two\n---\nsky three' }] });
    const r = await get(`/microblog/drafts/${d.id}/networks`);
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.body.networks.map((n: any) => [n.platform, n]));
    expect(Object.keys(by).sort()).toEqual(['fedblog', 'microblog', 'problog', 'skyblog', 'threadblog']);
    expect(by.skyblog.posts.map((p: any) => [p.text, p.count, p.valid])).toEqual([['sky one', 7, true], ['sky two', 7, true], ['sky three', 9, true]]);
    expect(by.skyblog.posts[0].media).toEqual([{ mediaId: img }]);
    expect(by.skyblog.valid).toBe(true);
    // LinkedIn has no threads: one post of 1600 + 2 + 1600 = 3202 characters, over 3000,
    // although each post alone fits.
    expect(by.problog.posts).toHaveLength(1);
    expect(by.problog.posts[0]).toMatchObject({ count: 3202, limit: 3000, valid: false });
    expect(by.problog.valid).toBe(false);
    expect(d.tweets[0].validation.problog.valid).toBe(true);
    expect(by.fedblog.posts.map((p: any) => p.limit)).toEqual([1000, 1000]);
    expect(by.fedblog.valid).toBe(false);
    const one = await get(`/microblog/drafts/${d.id}/networks?accountIds=${accountIds.skyblog}`);
    expect(one.body.networks.map((n: any) => n.accountId)).toEqual([accountIds.skyblog]);
    expect((await get(`/microblog/drafts/${d.id}/networks?accountIds=ghost`)).status).toBe(400);
  });

  it('splits text for a network over HTTP, with an account\'s instance rules', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} links https://example.com/${i} for @alice.`).join(' ');
    const r = await post('/microblog/drafts/split', { text, platform: 'microblog' });
    expect(r.status).toBe(200);
    expect(r.body.posts.length).toBeGreaterThan(1);
    for (const p of r.body.posts) expect(p.valid).toBe(true);
    expect(r.body.posts.map((p: any) => p.text).join(' ')).toBe(text);
    const masto = await post('/microblog/drafts/split', { text, platform: 'fedblog', accountId: accountIds.fedblog });
    expect(masto.body.posts[0].limit).toBe(1000);
    expect((await post('/microblog/drafts/split', { text, platform: 'skyblog', accountId: accountIds.fedblog })).status).toBe(400);
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
      await put(`/microblog/drafts/${mine.id}/platforms`, { platforms: [{ platform: 'skyblog', content: 'x' }] }, otherKey),
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
    expect((await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], socialSetId: ownerSet }, otherKey)).status).toBe(404);
    expect((await post('/microblog/drafts', { title: 'x', tweets: [{ content: 'a' }], selectedAccountIds: [accountIds.skyblog] }, otherKey)).status).toBe(400);
    expect((await get(`/microblog/drafts/${mine.id}`)).body.draft.title).toBe('secret');
    expect((await get(`/microblog/drafts/${mine.id}/platforms`)).body.platforms[0].content).toBe('sky');
  });
});

describe('with a real Mastodon account (simulator)', () => {
  it('counts by the instance limit read at connection; while the draft is really being published it cannot be edited or deleted', async () => {
    const sim = await startMastodonSimulator({ maxCharacters: 700 });
    try {
      const connected = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url, mode: 'create_new' });
      expect(connected.status, JSON.stringify(connected.body)).toBe(200);
      const account = connected.body.accountUuid;
      const d = (await post('/microblog/drafts', { title: 'Live', tweets: [{ content: 'c'.repeat(650) }, { content: 'second' }], selectedAccountIds: [account] })).body.draft;
      expect(d.tweets[0].validation).toEqual({ fedblog: { count: 650, limit: 700, valid: true } });

      sim.faults.latencyMs = 1500;
      const started = await post('/microblog/publish', { draftId: d.id, async: true });
      expect(started.status, started.text).toBe(202);
      for (let i = 0; i < 100 && (await get(`/microblog/drafts/${d.id}`)).body.draft.status !== 'publishing'; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await get(`/microblog/drafts/${d.id}`)).body.draft.status).toBe('publishing');
      for (const r of [
        await put(`/microblog/drafts/${d.id}`, { title: 'changed mid-flight' }),
        await put(`/microblog/drafts/${d.id}`, { tweets: [{ content: 'other' }] }),
        await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'fedblog', content: 'other' }] }),
        await del(`/microblog/drafts/${d.id}`),
      ]) {
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
        expect(r.body.message).toMatch(/being published/);
      }
      sim.faults.latencyMs = 0;
      let status = '';
      for (let i = 0; i < 300 && status !== 'published'; i++) {
        status = (await get(`/microblog/drafts/${d.id}`)).body.draft.status;
        if (status !== 'published') await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe('published');
      // What went out is the text as it was when publishing began.
      expect(sim.state.statuses.map((x) => x.text)).toEqual(['c'.repeat(650), 'second']);
      expect((await get(`/microblog/drafts/${d.id}`)).body.draft.title).toBe('Live');
      expect((await del(`/microblog/drafts/${d.id}`)).status).toBe(200);
    } finally {
      await sim.close();
    }
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
