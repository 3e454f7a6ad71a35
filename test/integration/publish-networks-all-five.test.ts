/**
 * A 3-post draft published to all five networks at once (split from publish-networks.test.ts):
 * the answer and the charge, the posts as one reply chain on every network, the URLs progress
 * shows, nothing sent again on a second publish; a network's own text; X communities; progress
 * while an async publish runs, and a second publish refused meanwhile.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { PLATFORMS, postsOn, requestCounts, threadOf } from '../helpers/networks.js';
import { n, nets, t, key, ids, texts, createDraft, balance, progress, publish } from '../helpers/publish-networks.js';
import { draftStatus, ledgerSince, lastLedgerId, until, expectThreadEverywhere } from '../helpers/publish-networks.js';
import { noDuplicates, usePublishNetworks } from '../helpers/publish-networks.js';

// Real servers on a shared 2-core machine: generous per-test time, no wall-clock asserts.
vi.setConfig({ testTimeout: 90_000 });

usePublishNetworks();

describe('a 3-post draft published to all five networks', () => {
  let draftId: string;
  const posts = texts('Launch day');

  it('answers the results and summary, charges 50 credits as five -10 records', async () => {
    draftId = await createDraft(posts);
    const before = await balance();
    const mark = await lastLedgerId();
    const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      draftId,
      jobId: expect.any(String),
      summary: { total: 5, succeeded: 5, failed: 0 },
    });
    const by = Object.fromEntries((r.body.results as any[]).map((x) => [x.platform, x]));
    for (const p of PLATFORMS)
      expect(by[p], p).toMatchObject({ accountId: ids[p], success: true, status: 'published' });
    expect(by.microblog.data).toMatchObject({
      tweetId: expect.any(String),
      url: expect.stringMatching(/^https:\/\/x\.com\/herald_tester\/status\/\d+$/),
    });
    expect(by.microblog.data.tweetIds).toHaveLength(3);
    expect(by.skyblog.data).toMatchObject({
      uri: expect.stringMatching(/^at:\/\//),
      cid: expect.any(String),
      url: expect.stringMatching(/^https:\/\/bsky\.app\/profile\/herald\.test\/post\//),
    });
    for (const p of ['fedblog', 'threadblog', 'problog'])
      expect(by[p].data, p).toMatchObject({ id: expect.any(String), url: expect.stringMatching(/^https?:\/\//) });

    expect(await balance()).toBe(before - 50);
    const records = await ledgerSince(mark);
    expect(records.map((x) => [x.trans_type, x.credits, x.source_type]).sort()).toEqual(
      PLATFORMS.map((p) => ['publish', -10, p]).sort(),
    );
    expect(new Set(records.map((x) => x.order_no))).toEqual(new Set([r.body.jobId]));
    expect(await draftStatus(draftId)).toBe('published');
  });

  it('each network holds exactly the three posts, in order, each replying to the one before', async () => {
    await expectThreadEverywhere(posts);
    noDuplicates();
    // Bluesky: every reply names the first post as the thread's root, with its cid.
    const sky = threadOf(await postsOn(nets, 'skyblog'), posts);
    const third = await nets.pds!.getRecord(sky[2].id);
    const first = await nets.pds!.getRecord(sky[0].id);
    expect(third.value.reply.root).toEqual({ uri: first.uri, cid: first.cid });
  });

  it('progress shows five published entries whose URLs point at the posts', async () => {
    const p = await progress(`draftId=${draftId}`);
    expect(p.summary).toEqual({ total: 5, completed: 5, failed: 0, pending: 0 });
    const by = Object.fromEntries(p.entries.map((e) => [e.platform, e]));
    for (const platform of PLATFORMS) {
      expect(by[platform], platform).toMatchObject({
        status: 'published',
        accountUuid: ids[platform],
        attempts: 1,
        error: null,
        publishedAt: expect.any(String),
      });
    }
    const first = async (platform: Platform) => threadOf(await postsOn(nets, platform), posts)[0];
    expect(by.microblog.url).toBe(`https://x.com/herald_tester/status/${(await first('microblog')).id}`);
    const skyUri = (await first('skyblog')).id;
    expect(by.skyblog.url).toBe(`https://bsky.app/profile/herald.test/post/${skyUri.split('/').pop()}`);
    // Mastodon and LinkedIn: the URL is the one the network itself gives for that post.
    const masto = await first('fedblog');
    const token = nets.masto.state.issuedTokens.at(-1)!;
    const status = await (
      await fetch(`${nets.masto.url}/api/v1/statuses/${masto.id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(by.fedblog.url).toBe(status.url);
    const threadsPost = nets.threads.postsBy('herald.tester').find((x) => x.text === posts[0])!;
    expect(by.threadblog.url).toBe(`https://www.threads.net/@herald.tester/post/${threadsPost.shortcode}`);
    expect(by.problog.url).toBe(`https://www.linkedin.com/feed/update/${(await first('problog')).id}`);
  });

  it('publishing again sends nothing and charges nothing: every target is skipped', async () => {
    const counts = requestCounts(nets);
    const before = await balance();
    const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toEqual({ total: 5, succeeded: 5, failed: 0 });
    expect((r.body.results as any[]).every((x) => x.skipped === true && x.success === true)).toBe(true);
    expect(requestCounts(nets)).toEqual(counts);
    expect(await balance()).toBe(before);
  });
});

describe('text per network', () => {
  it("a network's own text replaces the posts there (--- separates its posts); the others get the posts", async () => {
    const posts = texts('Plain');
    const draftId = await createDraft(posts);
    const xText = [`For X only #${n}`, `X second #${n}`];
    const liText = `LinkedIn's own words #${n}`;
    const put = await t.call('PUT', `/microblog/drafts/${draftId}/platforms`, {
      key,
      body: {
        platforms: [
          { platform: 'microblog', content: xText.join('\n---\n') },
          { platform: 'problog', content: liText },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    const r = await publish(draftId, ['microblog', 'fedblog', 'problog']);
    expect(r.body.summary, r.text).toEqual({ total: 3, succeeded: 3, failed: 0 });
    const x = threadOf(await postsOn(nets, 'microblog'), xText);
    expect(x[1].parent).toBe(x[0].id);
    expect((await postsOn(nets, 'microblog')).filter((p) => posts.includes(p.text))).toEqual([]);
    await expectThreadEverywhere(posts, ['fedblog']);
    expect((await postsOn(nets, 'problog')).filter((p) => p.text === liText)).toHaveLength(1);
  });

  it(
    "a network's own text over its limit stops the publish " + 'before anything is sent, though the posts fit',
    async () => {
      const posts = texts('Fits');
      const draftId = await createDraft(posts);
      await t.call('PUT', `/microblog/drafts/${draftId}/platforms`, {
        key,
        body: { platforms: [{ platform: 'microblog', content: `ok\n---\n${'🙂'.repeat(141)}` }] },
      });
      const counts = requestCounts(nets);
      const r = await publish(draftId, ['microblog', 'fedblog']);
      expect(r.status, r.text).toBe(400);
      expect(r.body.details).toEqual([
        {
          path: `targets.${ids.microblog}.posts.1`,
          message: 'X @herald_tester: post 2 of 2 does not fit (282 of 280 weighted characters on X)',
        },
      ]);
      expect(requestCounts(nets)).toEqual(counts);
    },
  );
});

describe('X communities', () => {
  it('community (publish) and targetAccounts[].communityId (multi-platform) reach X', async () => {
    const posts = texts('Community', 2);
    const draftId = await createDraft(posts);
    const r = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId, accountIds: [ids.microblog], community: { id: '1493446837214187523', name: 'Herald users' } },
    });
    expect(r.body.summary, r.text).toEqual({ total: 1, succeeded: 1, failed: 0 });
    const chain = threadOf(await postsOn(nets, 'microblog'), posts).map((p) =>
      nets.x.state.posts.find((x) => x.id === p.id)!,
    );
    expect(chain[0].communityId).toBe('1493446837214187523');
    expect(chain[1].replyTo).toBe(chain[0].id);

    const other = texts('Community multi', 1);
    const d2 = await createDraft(other);
    const m = await t.call('POST', '/publish/multi-platform', {
      key,
      body: {
        draftId: d2,
        targetAccounts: [
          { accountId: ids.microblog, platform: 'microblog', communityId: '42' },
          { accountId: ids.fedblog, platform: 'fedblog' },
        ],
      },
    });
    expect(m.body.summary, m.text).toEqual({ total: 2, succeeded: 2, failed: 0 });
    expect(nets.x.state.posts.find((p) => p.text === other[0])?.communityId).toBe('42');
  });
});

describe('progress while publishing (async: true)', () => {
  it('answers 202 at once; progress shows each target as it stands, then all five published', async () => {
    const posts = texts('Live progress');
    const draftId = await createDraft(posts);
    // Bluesky's first post is held at the proxy until the others are done.
    const held = nets.pds!.proxy!.hold('com.atproto.repo.createRecord');
    const r = await t.call('POST', '/microblog/publish', {
      key,
      body: { draftId, async: true, jobId: `job-live-${n}` },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toEqual({ success: true, jobId: `job-live-${n}`, draftId });
    await held.arrived;

    const mid = await until('four targets published', async () => {
      const p = await progress(`draftId=${draftId}`);
      return p.summary.completed === 4 ? p : undefined;
    });
    expect(mid.summary).toEqual({ total: 5, completed: 4, failed: 0, pending: 1 });
    const sky = mid.entries.find((e) => e.platform === 'skyblog');
    expect(sky).toMatchObject({ status: 'publishing', url: null, publishedAt: null });
    expect(await draftStatus(draftId)).toBe('publishing');
    // The same view by job id.
    expect((await progress(`jobId=job-live-${n}`)).summary).toEqual(mid.summary);

    held.release();
    const done = await until('all five published', async () => {
      const p = await progress(`draftId=${draftId}`);
      return p.summary.completed === 5 ? p : undefined;
    });
    expect(done.entries.every((e) => e.status === 'published' && e.url)).toBe(true);
    await until('the draft published', async () => (await draftStatus(draftId)) === 'published');
    await expectThreadEverywhere(posts);
  });

  it('a second publish of a draft being published is refused and sends nothing', async () => {
    const posts = texts('Double click');
    const draftId = await createDraft(posts);
    const held = nets.pds!.proxy!.hold('com.atproto.repo.createRecord');
    const first = await t.call('POST', '/microblog/publish', { key, body: { draftId, async: true } });
    expect(first.status).toBe(202);
    await held.arrived;
    const counts = requestCounts(nets);
    const before = await balance();
    const second = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('INVALID_INPUT');
    expect(await balance()).toBe(before);
    held.release();
    await until('all five published', async () => (await progress(`draftId=${draftId}`)).summary.completed === 5);
    expect(requestCounts(nets).skyblog).toBeGreaterThan(counts.skyblog);
    await expectThreadEverywhere(posts);
    noDuplicates();
  });
});
