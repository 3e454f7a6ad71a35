/**
 * Drafts as files over real HTTP and SQLite (issue #24 item 5, docs/decisions.md §17): export → import
 * gives the draft back (posts, per-network text, targets, media, time); broken front matter and
 * wrong content types are refused; a 1,000-row CSV imports; a row with a bad time names its row
 * and column and stops the import unless partial=true; a dry run creates nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, addMedia, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, TestClock, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
let sky: string;
let fed: string;
let media: string;
const clock = new TestClock();

beforeAll(async () => {
  t = await startServer({ scheduler: false, clock });
  key = await t.login();
  const user = userIdOf(t, OWNER.email);
  sky = addAccount(t, user, 'skyblog').accountId;
  fed = addAccount(t, user, 'fedblog').accountId;
  media = addMedia(t, user, 'image');
});
afterAll(async () => {
  await t.close();
});

const md = (body: string, q = '') =>
  t.call('POST', `/microblog/drafts/import${q}`, { key, raw: body, headers: { 'content-type': 'text/markdown' } });
const csv = (body: string, q = '') =>
  t.call('POST', `/microblog/drafts/import-csv${q}`, { key, raw: body, headers: { 'content-type': 'text/csv' } });
const count = async () => (await t.call('GET', '/microblog/drafts', { key })).body.drafts.length;
const comparable = (d: any) => ({
  title: d.title,
  scheduledFor: d.scheduledFor,
  selectedAccountIds: d.selectedAccountIds,
  tweets: d.tweets.map((x: any) => ({ plainText: x.plainText, media: x.media })),
});

describe('export → import', () => {
  it('reproduces posts, per-network text, targets, media and time, in Markdown and in JSON', async () => {
    const posts = [
      'First 🎉 שלום مرحبا',
      'A line\n---\nthat is text, not a separator',
      '\\--- and <b>not bold</b> & more',
      '👨‍👩‍👧‍👦 last',
    ];
    const created = await t.call('POST', '/microblog/drafts', {
      key,
      body: {
        title: 'Round trip',
        scheduledFor: '2026-12-01T09:30:00+01:00',
        selectedAccountIds: [sky, fed],
        tweets: posts.map((p, i) => ({
          content: p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>'),
          position: i,
          ...(i === 1 ? { media: [{ mediaId: media, altText: 'Alt: "quoted"\nline two' }] } : {}),
        })),
      },
    });
    expect(created.status).toBe(200);
    const draft = created.body.draft;
    expect(draft.tweets.map((x: any) => x.plainText)).toEqual(posts);
    await t.call('PUT', `/microblog/drafts/${draft.id}/platforms`, {
      key,
      body: {
        platforms: [
          { platform: 'skyblog', content: 'Sky one\n---\nSky two 🦋' },
          { platform: 'fedblog', content: '---\nodd' },
        ],
      },
    });

    for (const format of ['md', 'json'] as const) {
      const exported = await t.call(
        'GET',
        `/microblog/drafts/${draft.id}/export?format=${format}&timeZone=Europe/Paris`,
        { key },
      );
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toContain(format === 'md' ? 'text/markdown' : 'application/json');
      expect(exported.text).toContain('2026-12-01T09:30:00+01:00');
      const back = await t.call('POST', '/microblog/drafts/import', {
        key,
        raw: exported.text,
        headers: { 'content-type': format === 'md' ? 'text/markdown' : 'application/json' },
      });
      expect(back.status, back.text).toBe(200);
      expect(back.body.drafts).toHaveLength(1);
      const copy = back.body.drafts[0];
      expect(copy.id).not.toBe(draft.id);
      expect(comparable(copy)).toEqual(comparable(draft));
      const plats = (await t.call('GET', `/microblog/drafts/${copy.id}/platforms`, { key })).body.platforms
        .map((p: any) => [p.platform, p.content])
        .sort();
      expect(plats).toEqual([
        ['fedblog', '---\nodd'],
        ['skyblog', 'Sky one\n---\nSky two 🦋'],
      ]);
    }
  });

  it('a hand-written Markdown file: network names, a local time with its zone', async () => {
    const r = await md(
      '---\nnetworks: [skyblog]\nscheduledFor: 2026-12-24T18:00\ntimeZone: America/New_York\n---\nHello\n---\nWorld\n',
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.drafts[0]).toMatchObject({
      selectedAccountIds: [sky],
      scheduledFor: '2026-12-24T23:00:00.000Z',
      status: 'draft',
    });
    expect(r.body.drafts[0].tweets.map((x: any) => x.plainText)).toEqual(['Hello', 'World']);
  });
});

describe('bad input', () => {
  it('broken front matter is 400 naming the line; nothing is created', async () => {
    const before = await count();
    const r = await md('---\ntitle: ok\nnetworks: [skyblog\n---\nHello\n');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      success: false,
      error: 'INVALID_INPUT',
      message: expect.stringMatching(/Broken front matter at line \d/),
    });
    expect(await count()).toBe(before);
  });

  it('a media path is refused with why; an unknown network is named; other types are 415', async () => {
    const p = await md('---\nmedia:\n  - post: 1\n    path: ./photo.png\n---\nHello\n');
    expect(p.status).toBe(400);
    expect(p.body.details[0]).toEqual({
      path: 'body.media.0.path',
      message: expect.stringMatching(/does not read files/),
    });
    const n = await md('---\nnetworks: [problog]\n---\nHello\n');
    expect(n.status).toBe(400);
    expect(n.body.message).toMatch(/no LinkedIn account is connected/);
    const wrong = await t.call('POST', '/microblog/drafts/import-csv', {
      key,
      raw: 'text\nx\n',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrong.status).toBe(415);
    const wrong2 = await t.call('POST', '/microblog/drafts/import', {
      key,
      raw: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrong2.status).toBe(415);
    const json = await t.call('POST', '/microblog/drafts/import', { key, body: { posts: [{ text: 3 }] } });
    expect(json.status).toBe(400);
    expect(json.body.details[0].path).toBe('body.posts.0.text');
  });

  it('a dry run checks and creates nothing', async () => {
    const before = await count();
    const r = await md('---\nnetworks: [fedblog]\n---\nPreview me\n', '?dryRun=true');
    expect(r.status, r.text).toBe(200);
    expect(r.body.drafts).toEqual([]);
    expect(r.body.parsed).toEqual([{ networks: ['fedblog'], posts: [{ text: 'Preview me' }] }]);
    expect(await count()).toBe(before);
  });
});

describe('CSV import', () => {
  const header = 'text,networks,scheduledFor,timeZone,media';

  it('imports 1,000 rows, each a draft with its time and targets', async () => {
    const before = await count();
    const rows = Array.from(
      { length: 1000 },
      (_, i) =>
        `"Post ${i}, ""quoted"" 😀",skyblog fedblog,2026-12-01T09:00:00+01:00,Europe/Paris,${i === 0 ? media : ''}`,
    );
    const r = await csv([header, ...rows].join('\n'));
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body).toMatchObject({ success: true, dryRun: false, imported: 1000, errors: [] });
    expect(await count()).toBe(before + 1000);
    const first = (await t.call('GET', `/microblog/drafts/${r.body.drafts[0].id}`, { key })).body.draft;
    expect(first).toMatchObject({ scheduledFor: '2026-12-01T08:00:00.000Z', selectedAccountIds: [sky, fed] });
    expect(first.tweets[0]).toMatchObject({
      plainText: 'Post 0, "quoted" 😀',
      media: [{ mediaId: media, type: 'image' }],
    });
    expect(r.body.drafts[999].row).toBe(1001);
  });

  it('networks as people write them: names in any case, the API words, an account by @name', async () => {
    const fedName = (await t.call('GET', `/accounts/${fed}`, { key })).body.account.username;
    const r = await csv(
      [
        header,
        '"Names",Bluesky MASTODON,,,',
        '"API words",skyblog,,,',
        `"By name",@${fedName},,,`,
        '"Nope",Myspace,,,',
      ].join('\n'),
      '?partial=true',
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.errors).toEqual([
      { row: 5, column: 'networks', message: expect.stringMatching(/no account Myspace \(give a network: X, Bluesky/) },
    ]);
    const targets = await Promise.all(
      r.body.drafts.map(
        async (d: { id: string }) =>
          (await t.call('GET', `/microblog/drafts/${d.id}`, { key })).body.draft.selectedAccountIds,
      ),
    );
    expect(targets).toEqual([[sky, fed], [sky], [fed]]);
  });

  it('a bad time names row and column; nothing is imported unless partial=true; dry run previews', async () => {
    const body = [
      header,
      'Good one,skyblog,2026-12-01T09:00:00Z,,',
      'Bad time,skyblog,2026-12-01T25:00:00Z,,',
      'Past,skyblog,2026-01-01T09:00:00Z,,',
      'Unknown media,,,,nope',
      'Good two,fedblog,,,',
    ].join('\n');
    const errors = [
      { row: 3, column: 'scheduledFor', message: expect.stringMatching(/25:00.*not a time of day/) },
      { row: 4, column: 'scheduledFor', message: expect.stringMatching(/in the past/) },
      { row: 5, column: 'media', message: expect.stringMatching(/no media nope/) },
    ];
    const before = await count();
    const strict = await csv(body);
    expect(strict.status).toBe(200);
    expect(strict.body).toEqual({ success: true, dryRun: false, imported: 0, drafts: [], errors });
    expect(await count()).toBe(before);

    const preview = await csv(body, '?dryRun=true&partial=true');
    expect(preview.body).toMatchObject({
      dryRun: true,
      imported: 2,
      drafts: [
        { row: 2, id: null },
        { row: 6, id: null },
      ],
      errors,
    });
    expect(await count()).toBe(before);

    const partial = await csv(body, '?partial=true');
    expect(partial.body).toMatchObject({ dryRun: false, imported: 2, errors });
    expect(await count()).toBe(before + 2);
    const two = (await t.call('GET', `/microblog/drafts/${partial.body.drafts[1].id}`, { key })).body.draft;
    expect(two.tweets[0].plainText).toBe('Good two');
  });
});

describe('language and link card in files', () => {
  it(
    "export → import keeps the draft's language and link card " + 'choice; a CSV language column is checked and kept',
    async () => {
      const created = await t.call('POST', '/microblog/drafts', {
        key,
        body: {
          title: 'Lang',
          tweets: [{ content: 'Hallo https://example.com/a' }],
          language: 'de-AT',
          linkCard: { url: 'https://example.com/b' },
        },
      });
      expect(created.status, created.text).toBe(200);
      for (const format of ['md', 'json'] as const) {
        const exported = await t.call('GET', `/microblog/drafts/${created.body.draft.id}/export?format=${format}`, {
          key,
        });
        if (format === 'md') expect(exported.text).toMatch(/language: de-AT/);
        const back =
          format === 'md'
            ? await md(exported.text)
            : await t.call('POST', '/microblog/drafts/import', {
                key,
                raw: exported.text,
                headers: { 'content-type': 'application/json' },
              });
        expect(back.status, back.text).toBe(200);
        expect(back.body.drafts[0]).toMatchObject({ language: 'de-AT', linkCard: { url: 'https://example.com/b' } });
      }
      const ok = await csv('text,language\nBonjour,fr\nHello,\n');
      expect(ok.status, ok.text).toBe(200);
      const ids = ok.body.drafts.map((d: any) => d.id);
      const langs = await Promise.all(
        ids.map(async (id: string) => (await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.language),
      );
      expect(langs).toEqual(['fr', null]);
      const bad = await csv('text,language\nHola,not a tag!\n');
      expect(bad.body.errors).toEqual([
        { row: 2, column: 'language', message: expect.stringContaining('not a language tag') },
      ]);
      expect(bad.body.imported).toBe(0);
    },
  );
});
