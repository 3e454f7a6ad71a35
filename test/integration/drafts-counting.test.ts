/**
 * Counting and per-network text of drafts over real HTTP (split from drafts.test.ts): counts and
 * validity per target network (hard text, media, each Mastodon instance's own rules), per-network
 * text, what each network receives, splitting, and a real Mastodon account (simulator).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import twitterText from 'twitter-text';
import * as contract from '../../server/contracts/drafts.js';
import { addAccount, addMedia } from '../helpers/drafts.js';
import { HARD_TEXT } from '../helpers/hard-text.js';
import { connectOAuth } from '../helpers/oauth-connect.js';
import { startMastodonSimulator } from '../simulators/mastodon.simulator.js';
import {
  t,
  key,
  owner,
  accountIds,
  defaultSet,
  post,
  put,
  get,
  del,
  tick,
  addAccountsOnEveryNetwork,
  useDraftsServer,
} from '../helpers/drafts-server.js';

useDraftsServer();

describe('with accounts', () => {
  beforeAll(addAccountsOnEveryNetwork);

  it('counts per network and judges validity: 280 weighted is valid on X, 281 is not', async () => {
    const sel = { selectedAccountIds: [accountIds.microblog] };
    const ok = await post('/microblog/drafts', {
      title: 'w',
      tweets: [
        { content: 'a'.repeat(280) },
        { content: 'a'.repeat(281) },
        { content: '日'.repeat(140) },
        { content: '日'.repeat(141) },
      ],
      ...sel,
    });
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
    const m = await post('/microblog/drafts', {
      title: 'm',
      tweets: [{ content: 'b'.repeat(900) }],
      selectedAccountIds: [accountIds.fedblog],
    });
    expect(m.body.draft.tweets[0].validation.fedblog).toEqual({ count: 900, limit: 1000, valid: true });
    const empty = await post('/microblog/drafts', { title: 'e', tweets: [{ content: '<p></p>' }] });
    expect(empty.body.draft.tweets[0]).toMatchObject({ plainText: '', characterCount: 0, isValid: false });
  });

  it('counts hard text per network over HTTP as worked out by hand', async () => {
    const r = await post('/microblog/drafts', {
      title: 'hard',
      tweets: HARD_TEXT.map(([, text]) => ({ content: text })),
      socialSetId: defaultSet,
    });
    expect(r.status).toBe(200);
    HARD_TEXT.forEach(([name, text, counts], i) => {
      const tw = r.body.draft.tweets[i];
      // Posted as plain text, CR LF comes back as one newline: X then counts one code point less.
      const crlf = text.split('\r\n').length - 1;
      expect(tw.plainText, name).toBe(text.replace(/\r\n/g, '\n'));
      expect(tw.characterCount, name).toBe(counts.skyblog);
      for (const platform of Object.keys(counts) as (keyof typeof counts)[]) {
        expect(tw.validation[platform].count, `${name} on ${platform}`).toBe(
          platform === 'microblog' ? counts[platform] - crlf : counts[platform],
        );
        expect(tw.validation[platform].valid).toBe(true);
      }
      expect(tw.isValid).toBe(true);
      // X's figure is twitter-text's own, on the text the server derived.
      expect(tw.validation.microblog.count, name).toBe(twitterText.parseTweet(tw.plainText).weightedLength);
    });
  });

  it(
    'targets: a set with no account is counted for X; each Mastodon account counts by its instance, the ' +
      'strictest binds',
    async () => {
      const empty = await post('/social-sets', { name: 'Nobody yet' });
      expect(empty.status).toBe(200);
      const lonely = await post('/microblog/drafts', {
        title: 'x only',
        tweets: [{ content: 'a'.repeat(281) }, { content: 'b'.repeat(280) }],
        socialSetId: empty.body.socialSet.id,
      });
      expect(lonely.body.draft.tweets.map((x: any) => x.validation)).toEqual([
        { microblog: { count: 281, limit: 280, valid: false, reason: expect.any(String) } },
        { microblog: { count: 280, limit: 280, valid: true } },
      ]);
      expect(lonely.body.draft.tweets.map((x: any) => x.isValid)).toEqual([false, true]);

      // A second instance: 600 characters, every URL 30 (the first: 1000, URLs 23).
      const small = addAccount(t, owner, 'fedblog', {
        mode: 'create_new',
        meta: { max_characters: 600, characters_reserved_per_url: 30 },
      }).accountId;
      const url = `https://example.com/${'p'.repeat(50)}`;
      const text = (n: number) => `See ${url} ${'b'.repeat(n)}`;
      const only = await post('/microblog/drafts', {
        title: 'm2',
        tweets: [{ content: text(10) }],
        selectedAccountIds: [small],
      });
      expect(only.body.draft.tweets[0].validation).toEqual({
        fedblog: { count: 4 + 30 + 1 + 10, limit: 600, valid: true },
      });
      const both = await post('/microblog/drafts', {
        title: 'm3',
        tweets: [{ content: text(560) }, { content: text(570) }],
        selectedAccountIds: [accountIds.fedblog, small],
      });
      const [fits, over] = both.body.draft.tweets;
      // 4 + 30 + 1 + 560 = 595 of 600 leaves less room than 588 of 1000.
      expect(fits.validation.fedblog).toEqual({ count: 595, limit: 600, valid: true });
      expect(over.validation.fedblog).toMatchObject({ count: 605, limit: 600, valid: false });
      expect([fits.isValid, over.isValid]).toEqual([true, false]);
    },
  );

  it('counts media per network', async () => {
    const imgs = Array.from({ length: 5 }, () => addMedia(t, owner, 'image'));
    const vid = addMedia(t, owner, 'video');
    const r = await post('/microblog/drafts', {
      title: 'media',
      tweets: [
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
    // Bluesky (video service) and LinkedIn (Videos API) take one video alone (issue #35).
    expect(video.validation.skyblog.valid).toBe(true);
    expect(video.validation.problog.valid).toBe(true);
    expect(onlyMedia.isValid).toBe(true);
  });

  it('per-network text: upsert in place, --- splits posts, empty removes', async () => {
    const d = (await post('/microblog/drafts', { title: 'P', tweets: [{ content: 'hello' }] })).body.draft;
    const empty = await get(`/microblog/drafts/${d.id}/platforms`);
    expect(empty.body).toEqual({ success: true, platforms: [] });
    tick();
    const a = await put(`/microblog/drafts/${d.id}/platforms`, {
      platforms: [
        { platform: 'skyblog', content: 'one\n---\ntwo' },
        { platform: 'problog', content: 'long form' },
      ],
    });
    expect(a.status).toBe(200);
    const sky = a.body.platforms.find((p: any) => p.platform === 'skyblog');
    expect(sky).toMatchObject({ draft_uuid: d.id, platform: 'skyblog', content: 'one\n---\ntwo' });
    expect(Number.isInteger(sky.id)).toBe(true);
    expect(sky.posts).toEqual([
      { text: 'one', count: 3, limit: 300, valid: true },
      { text: 'two', count: 3, limit: 300, valid: true },
    ]);
    expect(typeof sky.created_at).toBe('string');
    tick();
    const b = await put(`/microblog/drafts/${d.id}/platforms`, {
      platforms: [{ platform: 'skyblog', content: `new\n---\n${'x'.repeat(301)}` }],
    });
    const sky2 = b.body.platforms.find((p: any) => p.platform === 'skyblog');
    expect(sky2.id).toBe(sky.id);
    expect(sky2.created_at).toBe(sky.created_at);
    expect(sky2.updated_at > sky.updated_at).toBe(true);
    expect(sky2.posts.map((p: any) => p.valid)).toEqual([true, false]);
    expect(b.body.platforms.map((p: any) => p.platform).sort()).toEqual(['problog', 'skyblog']);
    const c = await put(`/microblog/drafts/${d.id}/platforms`, {
      platforms: [{ platform: 'problog', content: '  \n ' }],
    });
    expect(c.body.platforms.map((p: any) => p.platform)).toEqual(['skyblog']);
    const got = await get(`/microblog/drafts/${d.id}/platforms`);
    expect(got.body.platforms).toEqual(c.body.platforms);
    expect(() => contract.platformsResponse.parse(got.body)).not.toThrow();
    for (const p of got.body.platforms)
      expect(Object.keys(p).sort()).toEqual([
        'content',
        'created_at',
        'draft_uuid',
        'id',
        'platform',
        'posts',
        'updated_at',
      ]);
    const dup = await put(`/microblog/drafts/${d.id}/platforms`, {
      platforms: [
        { platform: 'skyblog', content: 'a' },
        { platform: 'skyblog', content: 'b' },
      ],
    });
    expect(dup.status).toBe(400);
    expect(
      (await put(`/microblog/drafts/${d.id}/platforms`, { platforms: [{ platform: 'myspace', content: 'a' }] })).status,
    ).toBe(400);
    const rows = t.server.sqlite.prepare('SELECT count(*) n FROM platform_contents WHERE draft_id = ?').get(d.id) as {
      n: number;
    };
    expect(rows.n).toBe(1);
  });

  it('tells what each target network receives and whether it fits', async () => {
    const img = addMedia(t, owner, 'image');
    const d = (
      await post('/microblog/drafts', {
        title: 'N',
        tweets: [{ content: 'a'.repeat(1600), media: [{ mediaId: img }] }, { content: 'b'.repeat(1600) }],
      })
    ).body.draft;
    await put(`/microblog/drafts/${d.id}/platforms`, {
      platforms: [{ platform: 'skyblog', content: 'sky one\n---\nsky two\n---\nsky three' }],
    });
    const r = await get(`/microblog/drafts/${d.id}/networks`);
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.body.networks.map((n: any) => [n.platform, n]));
    expect(Object.keys(by).sort()).toEqual(['fedblog', 'microblog', 'problog', 'skyblog', 'threadblog']);
    expect(by.skyblog.posts.map((p: any) => [p.text, p.count, p.valid])).toEqual([
      ['sky one', 7, true],
      ['sky two', 7, true],
      ['sky three', 9, true],
    ]);
    expect(by.skyblog.posts[0].media).toEqual([{ mediaId: img }]);
    expect(by.skyblog.valid).toBe(true);
    // LinkedIn has no threads: the first post of 1600 fits the post's 3000; the second goes as a
    // comment, whose limit is 1250, and does not fit.
    expect(by.problog.posts).toHaveLength(2);
    expect(by.problog.posts[0]).toMatchObject({ count: 1600, limit: 3000, valid: true });
    expect(by.problog.posts[0].sentAs).toBeUndefined();
    expect(by.problog.posts[1]).toMatchObject({ count: 1600, limit: 1250, valid: false, sentAs: 'comment' });
    expect(by.problog.valid).toBe(false);
    expect(d.tweets[0].validation.problog).toMatchObject({ limit: 3000, valid: true });
    expect(d.tweets[1].validation.problog).toMatchObject({ limit: 1250, valid: false });
    expect(by.fedblog.posts.map((p: any) => p.limit)).toEqual([1000, 1000]);
    expect(by.fedblog.valid).toBe(false);
    const one = await get(`/microblog/drafts/${d.id}/networks?accountIds=${accountIds.skyblog}`);
    expect(one.body.networks.map((n: any) => n.accountId)).toEqual([accountIds.skyblog]);
    expect((await get(`/microblog/drafts/${d.id}/networks?accountIds=ghost`)).status).toBe(400);
  });

  it("splits text for a network over HTTP, with an account's instance rules", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} links https://example.com/${i} for @alice.`).join(
      ' ',
    );
    const r = await post('/microblog/drafts/split', { text, platform: 'microblog' });
    expect(r.status).toBe(200);
    expect(r.body.posts.length).toBeGreaterThan(1);
    for (const p of r.body.posts) expect(p.valid).toBe(true);
    expect(r.body.posts.map((p: any) => p.text).join(' ')).toBe(text);
    const masto = await post('/microblog/drafts/split', { text, platform: 'fedblog', accountId: accountIds.fedblog });
    expect(masto.body.posts[0].limit).toBe(1000);
    expect(
      (await post('/microblog/drafts/split', { text, platform: 'skyblog', accountId: accountIds.fedblog })).status,
    ).toBe(400);
  });
});

describe('with a real Mastodon account (simulator)', () => {
  it(
    'counts by the instance limit read at connection; while the draft is really being published it cannot be ' +
      'edited or deleted',
    async () => {
      const sim = await startMastodonSimulator({ maxCharacters: 700 });
      try {
        const connected = await connectOAuth(t, key, 'fedblog', { instanceUrl: sim.url, mode: 'create_new' });
        expect(connected.status, JSON.stringify(connected.body)).toBe(200);
        const account = connected.body.accountUuid;
        const d = (
          await post('/microblog/drafts', {
            title: 'Live',
            tweets: [{ content: 'c'.repeat(650) }, { content: 'second' }],
            selectedAccountIds: [account],
          })
        ).body.draft;
        expect(d.tweets[0].validation).toEqual({ fedblog: { count: 650, limit: 700, valid: true } });

        sim.faults.latencyMs = 1500;
        const started = await post('/microblog/publish', { draftId: d.id, async: true });
        expect(started.status, started.text).toBe(202);
        for (let i = 0; i < 100 && (await get(`/microblog/drafts/${d.id}`)).body.draft.status !== 'publishing'; i++)
          await new Promise((r) => setTimeout(r, 20));
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
    },
  );
});
