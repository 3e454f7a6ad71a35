/**
 * The single-network endpoints against the five networks (split from publish-networks.test.ts):
 * refused bodies send nothing and charge nothing, valid ones publish. Images by URL, typed text
 * and the History of direct posts: publish-networks-content.test.ts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { postsOn, requestCounts, threadOf } from '../helpers/networks.js';
import { n, nets, t, key, ids, texts, createDraft, balance, publish } from '../helpers/publish-networks.js';
import { draftStatus, noDuplicates, usePublishNetworks } from '../helpers/publish-networks.js';

// Real servers on a shared 2-core machine: generous per-test time, no wall-clock asserts.
vi.setConfig({ testTimeout: 90_000 });

usePublishNetworks();

// The X quote below quotes a post already on X (in the file this was split from, one an earlier
// test had published): one post of Herald's own, published through the engine.
beforeAll(async () => {
  const r = await publish(await createDraft(texts('To be quoted', 1)), ['microblog']);
  expect(r.status, r.text).toBe(200);
});

describe('single-network endpoints validate their bodies and send nothing when refused', () => {
  const refusals: [string, string, () => Record<string, unknown>, RegExp][] = [
    [
      '/skyblog/publish',
      'single without text',
      () => ({ accountUuid: ids.skyblog, type: 'single' }),
      /text is required when type is single/,
    ],
    [
      '/skyblog/publish',
      'thread without texts',
      () => ({ accountUuid: ids.skyblog, type: 'thread', text: 'only text' }),
      /texts is required when type is thread/,
    ],
    [
      '/skyblog/publish',
      'an unknown type',
      () => ({ accountUuid: ids.skyblog, type: 'triple', text: 'x' }),
      /body\.type/,
    ],
    [
      '/skyblog/publish',
      '301 characters (Bluesky counts graphemes)',
      () => ({ accountUuid: ids.skyblog, type: 'single', text: 'é'.repeat(301) }),
      /@herald\.test: the post does not fit \(301 of 300 characters on Bluesky\)/,
    ],
    [
      '/skyblog/publish',
      'a thread whose second post is too long',
      () => ({ accountUuid: ids.skyblog, type: 'thread', texts: ['fine', 'y'.repeat(301)] }),
      /post 2 of 2 does not fit/,
    ],
    [
      '/skyblog/publish',
      'a whitespace-only post',
      () => ({ accountUuid: ids.skyblog, type: 'single', text: '   ' }),
      /the post is empty/,
    ],
    [
      '/skyblog/publish',
      'a bad language tag',
      () => ({ accountUuid: ids.skyblog, type: 'single', text: 'x', langs: ['english!'] }),
      /body\.langs\.0/,
    ],
    [
      '/skyblog/publish',
      'a Mastodon account',
      () => ({ accountUuid: ids.fedblog, type: 'single', text: 'x' }),
      /is a fedblog account, not skyblog/,
    ],
    [
      '/fedblog/publish',
      'single without text',
      () => ({ accountUuid: ids.fedblog, type: 'single', texts: ['a'] }),
      /text is required when type is single/,
    ],
    [
      '/fedblog/publish',
      '501 characters on a 500-character instance',
      () => ({ accountUuid: ids.fedblog, type: 'single', text: 'm'.repeat(501) }),
      /501 of 500 characters on this Mastodon instance/,
    ],
    [
      '/fedblog/publish',
      'an empty thread',
      () => ({ accountUuid: ids.fedblog, type: 'thread', texts: [] }),
      /body\.texts/,
    ],
    [
      '/fedblog/publish',
      'thread without texts',
      () => ({ accountUuid: ids.fedblog, type: 'thread', text: 'only text' }),
      /texts is required when type is thread/,
    ],
    [
      '/fedblog/publish',
      'an unknown type',
      () => ({ accountUuid: ids.fedblog, type: 'poll', text: 'x' }),
      /body\.type/,
    ],
    [
      '/fedblog/publish',
      'a thread whose second post is too long',
      () => ({ accountUuid: ids.fedblog, type: 'thread', texts: ['fine', 'm'.repeat(501)] }),
      /post 2 of 2 does not fit \(501 of 500/,
    ],
    [
      '/fedblog/publish',
      'a bad language tag',
      () => ({ accountUuid: ids.fedblog, type: 'single', text: 'x', langs: ['en_US!'] }),
      /body\.langs\.0/,
    ],
    [
      '/fedblog/publish',
      'a Bluesky account',
      () => ({ accountUuid: ids.skyblog, type: 'single', text: 'x' }),
      /is a skyblog account, not fedblog/,
    ],
    [
      '/threadblog/publish',
      'no text, draft or media',
      () => ({ accountId: ids.threadblog }),
      /draftId, text or mediaUrls is required/,
    ],
    [
      '/threadblog/publish',
      '501 characters',
      () => ({ accountId: ids.threadblog, text: 't'.repeat(501) }),
      /body\.text Too big/,
    ],
    [
      '/threadblog/publish',
      '130 emoji (Threads counts their bytes)',
      () => ({ accountId: ids.threadblog, text: '🙂'.repeat(130) }),
      /520 of 500 characters on Threads/,
    ],
    [
      '/threadblog/publish',
      'an unknown replyControl',
      () => ({ accountId: ids.threadblog, text: 'x', replyControl: 'nobody' }),
      /body\.replyControl/,
    ],
    [
      '/threadblog/publish',
      'media stored in Herald (Threads fetches URLs itself)',
      () => ({
        accountId: ids.threadblog,
        text: 'x',
        mediaUrls: [`${t.server.apiUrl}/media/abcdef0123456789abcdef0123456789`],
      }),
      /cannot be sent to Threads by URL/,
    ],
    [
      '/problog/publish',
      'no text or draft',
      () => ({ accountId: ids.problog, visibility: 'PUBLIC' }),
      /draftId, text or mediaUrls is required/,
    ],
    [
      '/problog/publish',
      '3001 characters',
      () => ({ accountId: ids.problog, text: 'l'.repeat(3001) }),
      /body\.text Too big/,
    ],
    [
      '/problog/publish',
      'an unknown visibility',
      () => ({ accountId: ids.problog, text: 'x', visibility: 'PRIVATE' }),
      /body\.visibility/,
    ],
    [
      '/microblog/quote',
      '281 characters',
      () => ({ accountId: ids.microblog, content: 'q'.repeat(281), quoteTweetId: '1' }),
      /281 of 280 weighted characters on X/,
    ],
    [
      '/microblog/quote',
      'a post id that is not a number',
      () => ({ accountId: ids.microblog, content: 'q', quoteTweetId: 'abc' }),
      /a numeric X post id/,
    ],
    ['/microblog/quote', 'no content', () => ({ accountId: ids.microblog, quoteTweetId: '1' }), /body\.content/],
    ['/microblog/quote', 'no quoteTweetId', () => ({ accountId: ids.microblog, content: 'q' }), /body\.quoteTweetId/],
    [
      '/microblog/quote',
      'a Mastodon account',
      () => ({ accountId: ids.fedblog, content: 'q', quoteTweetId: '1' }),
      /is a fedblog account, not microblog/,
    ],
    [
      '/threadblog/publish',
      'a LinkedIn account',
      () => ({ accountId: ids.problog, text: 'x' }),
      /is a problog account, not threadblog/,
    ],
    [
      '/problog/publish',
      'an X account',
      () => ({ accountId: ids.microblog, text: 'x' }),
      /is a microblog account, not problog/,
    ],
    ['/microblog/publish', 'no draftId', () => ({ accountIds: [ids.microblog] }), /body\.draftId/],
    [
      '/microblog/publish',
      'a community id that is not a number',
      () => ({ draftId: 'd', community: { id: 'x.com/c/1' } }),
      /a numeric X community id/,
    ],
    [
      '/microblog/publish',
      'accountIds that is not a list',
      () => ({ draftId: 'd', accountIds: ids.microblog }),
      /body\.accountIds/,
    ],
    ['/publish/multi-platform', 'no targetAccounts', () => ({ draftId: 'd' }), /body\.targetAccounts/],
    [
      '/publish/multi-platform',
      'an unknown platform',
      () => ({ draftId: 'd', targetAccounts: [{ accountId: ids.microblog, platform: 'myspace' }] }),
      /body\.targetAccounts\.0\.platform/,
    ],
    [
      '/publish/multi-platform',
      'an account on another network than named',
      () => ({ draftId: 'd', targetAccounts: [{ accountId: ids.microblog, platform: 'skyblog' }] }),
      /is a microblog account, not skyblog/,
    ],
  ];

  it.each(refusals)('%s refuses %s with 400 INVALID_INPUT', async (path, _what, body, why) => {
    const counts = requestCounts(nets);
    const before = await balance();
    const r = await t.call('POST', path, { key, body: body() });
    // The multi-platform mismatch is checked after the draft is found; give it a real draft.
    if (r.status === 404) {
      const draftId = await createDraft(texts('Mismatch', 1));
      const again = await t.call('POST', path, { key, body: { ...body(), draftId } });
      expect(again.status, again.text).toBe(400);
      expect(again.body.error).toBe('INVALID_INPUT');
      expect(again.body.message).toMatch(why);
    } else {
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'INVALID_INPUT', message: expect.any(String) });
      expect(`${r.body.message} ${JSON.stringify(r.body.details ?? [])}`).toMatch(why);
    }
    expect(requestCounts(nets)).toEqual(counts);
    expect(await balance()).toBe(before);
  });

  it(
    '/threadblog/publish and /problog/publish with a draft over ' + "the network's limit refuse it and send nothing",
    async () => {
      // Each part fits LinkedIn's post (3000) but not its comment (1250): the later parts go as comments.
      const long = texts('Long draft', 3).map((x) => `${x} ${'w'.repeat(1_300)}`);
      const draftId = await createDraft(long);
      const counts = requestCounts(nets);
      const before = await balance();
      const th = await t.call('POST', '/threadblog/publish', { key, body: { accountId: ids.threadblog, draftId } });
      expect(th.status, th.text).toBe(400);
      expect(th.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
      expect(th.body.message).toMatch(/Threads .*does not fit \(\d+ of 500/);
      const li = await t.call('POST', '/problog/publish', { key, body: { accountId: ids.problog, draftId } });
      expect(li.status, li.text).toBe(400);
      expect(li.body).toMatchObject({ success: false, error: 'INVALID_INPUT' });
      expect(li.body.message).toMatch(/LinkedIn .*post 2 of 3 does not fit \(\d+ of 1250 characters in a LinkedIn/);
      // A LinkedIn member has no handle: named as LinkedIn shows them, never "@Jane Writer".
      expect(li.body.message).toMatch(/: LinkedIn [^@]/);
      expect(th.body.message).toMatch(/: Threads @/);
      expect(requestCounts(nets)).toEqual(counts);
      expect(await balance()).toBe(before);
      expect(await draftStatus(draftId)).toBe('draft');
    },
  );

  it("a refusal names the account, the post and the network's count", async () => {
    const r = await t.call('POST', '/skyblog/publish', {
      key,
      body: { accountUuid: ids.skyblog, type: 'thread', texts: ['fine', 'y'.repeat(301)] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(
      'Bluesky @herald.test: post 2 of 2 does not fit (301 of 300 characters on Bluesky)',
    );
    expect(r.body.details).toEqual([
      { path: `targets.${ids.skyblog}.posts.1`, message: expect.stringContaining('301 of 300') },
    ]);
  });

  it(
    'valid bodies publish: Bluesky thread with langs, Mastodon counting URLs as 23, Threads replyControl, ' +
      'LinkedIn visibility, an X quote',
    async () => {
      const before = await balance();
      const sky = texts('Sky direct', 2);
      const s = await t.call('POST', '/skyblog/publish', {
        key,
        body: { accountUuid: ids.skyblog, type: 'thread', texts: sky, langs: ['fr', 'en'] },
      });
      expect(s.status, s.text).toBe(200);
      expect(s.body).toMatchObject({
        success: true,
        platform: 'skyblog',
        accountId: ids.skyblog,
        data: { uri: expect.any(String), cid: expect.any(String) },
      });
      const skyChain = threadOf(await postsOn(nets, 'skyblog'), sky);
      expect(skyChain[1].parent).toBe(skyChain[0].id);
      expect((await nets.pds!.getRecord(skyChain[0].id)).value.langs).toEqual(['fr', 'en']);

      // 531 characters, but Mastodon counts the 100-character link as 23: 454.
      const long = `Read ${'w'.repeat(420)} https://example.com/${'p'.repeat(80)} ${'z'.repeat(5)} #${n}`;
      const m = await t.call('POST', '/fedblog/publish', {
        key,
        body: { accountUuid: ids.fedblog, type: 'single', text: long },
      });
      expect(m.status, m.text).toBe(200);
      expect((await postsOn(nets, 'fedblog')).filter((p) => p.text === long)).toHaveLength(1);

      const th = texts('Threads direct', 1)[0];
      const tr = await t.call('POST', '/threadblog/publish', {
        key,
        body: { accountId: ids.threadblog, text: th, replyControl: 'mentioned_only' },
      });
      expect(tr.status, tr.text).toBe(200);
      expect(nets.threads.postsBy('herald.tester').find((p) => p.text === th)?.replyControl).toBe('mentioned_only');

      const li = texts('LinkedIn direct', 1)[0];
      const lr = await t.call('POST', '/problog/publish', {
        key,
        body: { accountId: ids.problog, text: li, visibility: 'CONNECTIONS' },
      });
      expect(lr.status, lr.text).toBe(200);
      expect(nets.li.state.posts.find((p) => p.urn === lr.body.data.id)?.visibility).toBe('CONNECTIONS');

      const quoted = nets.x.postsBy('herald_tester')[0]!;
      const qt = texts('Quote', 1)[0];
      const q = await t.call('POST', '/microblog/quote', {
        key,
        body: { accountId: ids.microblog, content: qt, quoteTweetId: quoted.id },
      });
      expect(q.status, q.text).toBe(200);
      expect(q.body).toMatchObject({
        success: true,
        tweetId: expect.any(String),
        url: expect.stringContaining('/status/'),
      });
      expect(nets.x.state.posts.find((p) => p.id === q.body.tweetId)).toMatchObject({ text: qt, quoteOf: quoted.id });
      expect(await balance()).toBe(before - 50);
      noDuplicates();
    },
  );
});
