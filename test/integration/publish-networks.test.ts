/**
 * The publishing engine over HTTP against all five networks at once: the X, Mastodon, Threads
 * and LinkedIn simulators and a real Bluesky PDS (behind a fault proxy that counts, holds and
 * drops its requests). Every claim is checked where it lands: the networks' own state (posts,
 * reply parents, duplicate counters, request logs), the credit ledger over HTTP, and progress.
 * Issue 5's Done-when, bullet by bullet: here one network failing, a thread failing at part 2,
 * too few credits, force, the per-network cap and the ledger; a publish that succeeds
 * everywhere, text per network, X communities and progress in publish-networks-all-five.test.ts;
 * the crash case in publish-crash.test.ts, lost answers in publish-networks-ambiguous.test.ts,
 * the single-network endpoints in publish-networks-endpoints.test.ts (the shared set-up:
 * test/helpers/publish-networks.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { PLATFORMS, postsOn, requestCounts, threadOf } from '../helpers/networks.js';
import { nets, t, key, ids, userId, texts, createDraft, balance, progress } from '../helpers/publish-networks.js';
import { draftStatus, ledgerSince, lastLedgerId, until, expectThreadEverywhere } from '../helpers/publish-networks.js';
import { noDuplicates, usePublishNetworks } from '../helpers/publish-networks.js';

// Real servers on a shared 2-core machine: generous per-test time, no wall-clock asserts.
vi.setConfig({ testTimeout: 90_000 });

usePublishNetworks();

describe('one network failing', () => {
  it(
    'the others publish, the failed target is refunded, the draft is partially_published; publishing again ' +
      'sends only that target',
    async () => {
      const posts = texts('Partial');
      const draftId = await createDraft(posts);
      const before = await balance();
      const mark = await lastLedgerId();
      nets.masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses' });
      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.success).toBe(false);
      expect(r.body.summary).toEqual({ total: 5, succeeded: 4, failed: 1 });
      const failed = (r.body.results as any[]).find((x) => !x.success);
      expect(failed).toMatchObject({
        platform: 'fedblog',
        accountId: ids.fedblog,
        status: 'failed',
        error: { code: 'PLATFORM_ERROR', message: expect.stringContaining('503') },
      });
      expect(await balance()).toBe(before - 40);
      const records = await ledgerSince(mark);
      expect(records.filter((x) => x.trans_type === 'refund').map((x) => [x.credits, x.source_type])).toEqual([
        [10, 'fedblog'],
      ]);
      expect(await draftStatus(draftId)).toBe('partially_published');
      const p = await progress(`draftId=${draftId}`);
      expect(p.summary).toEqual({ total: 5, completed: 4, failed: 1, pending: 0 });
      expect(p.entries.find((e) => e.platform === 'fedblog')).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('503'),
        attempts: 1,
        url: null,
      });
      expect((await postsOn(nets, 'fedblog')).filter((x) => posts.includes(x.text))).toEqual([]);

      const counts = requestCounts(nets);
      const again = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ success: true, summary: { total: 5, succeeded: 5, failed: 0 } });
      const after = requestCounts(nets);
      for (const platform of PLATFORMS.filter((x) => x !== 'fedblog'))
        expect(after[platform], platform).toBe(counts[platform]);
      expect(after.fedblog).toBeGreaterThan(counts.fedblog);
      expect(
        (again.body.results as any[])
          .filter((x) => x.skipped)
          .map((x) => x.platform)
          .sort(),
      ).toEqual(PLATFORMS.filter((x) => x !== 'fedblog').sort());
      expect(await balance()).toBe(before - 50);
      expect(await draftStatus(draftId)).toBe('published');
      expect((await progress(`draftId=${draftId}`)).entries.find((e) => e.platform === 'fedblog')).toMatchObject({
        status: 'published',
        attempts: 2,
      });
      await expectThreadEverywhere(posts);
      noDuplicates();
    },
  );
});

describe('a thread failing at part 2', () => {
  it('resumes at part 2 on retry, replying to the part 1 already out; part 1 is never sent again', async () => {
    const posts = texts('Resume');
    const draftId = await createDraft(posts);
    const threads: Platform[] = ['microblog', 'fedblog', 'threadblog', 'skyblog'];
    nets.x.faults.next({ kind: '503' }, { route: 'POST /2/tweets', skip: 1 });
    nets.masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses', skip: 1 });
    nets.threads.faults.next({ kind: '500' }, { route: '/threads_publish', skip: 1 });
    nets.pds!.proxy!.fail('com.atproto.repo.createRecord', 502, { skip: 1 });
    const before = await balance();
    const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toEqual({ total: 5, succeeded: 1, failed: 4 });
    expect(await balance()).toBe(before - 10);
    expect(await draftStatus(draftId)).toBe('partially_published');
    const firstIds: Record<string, string> = {};
    for (const platform of threads) {
      const held = (await postsOn(nets, platform)).filter((x) => posts.includes(x.text));
      expect(
        held.map((x) => x.text),
        platform,
      ).toEqual([posts[0]]);
      firstIds[platform] = held[0].id;
    }
    // The progress shows each part: the first out; the second refused with a 5xx, which the network may
    // have taken all the same, so the retry asks before sending it; the third not tried.
    const cut = (await progress(`draftId=${draftId}`)).entries;
    for (const platform of ['microblog', 'skyblog']) {
      const e = cut.find((x) => x.platform === platform);
      expect(e.parts, platform).toEqual([
        { position: 0, status: 'sent', url: expect.stringMatching(/^https:\/\//), sentAs: 'post' },
        { position: 1, status: 'unconfirmed', url: null, sentAs: 'reply' },
        { position: 2, status: 'pending', url: null, sentAs: 'reply' },
      ]);
      expect(e.statusText, platform).toMatch(/; 1 of 3 parts sent\. .* \(the other 2 parts only\)\.$/);
    }
    const listed = (await t.call('GET', '/microblog/publications', { key })).body.publications;
    const xRow = listed.find((p: any) => p.draftId === draftId && p.platform === 'microblog');
    expect(xRow).toMatchObject({ status: 'failed', parts: { sent: 1, total: 3 } });
    expect(xRow.statusText).toMatch(/; 1 of 3 parts sent\./);

    const retry = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.summary).toEqual({ total: 5, succeeded: 5, failed: 0 });
    expect(await balance()).toBe(before - 50);
    await expectThreadEverywhere(posts);
    for (const platform of threads) {
      const chain = threadOf(await postsOn(nets, platform), posts);
      expect(chain[0].id, platform).toBe(firstIds[platform]);
    }
    const after = (await progress(`draftId=${draftId}`)).entries.find((e) => e.platform === 'microblog');
    expect(after.parts.map((p: { status: string }) => p.status)).toEqual(['sent', 'sent', 'sent']);
    expect(after.statusText).toBe('Published on X.');
    const x = (retry.body.results as any[]).find((y) => y.platform === 'microblog');
    expect(x.data.tweetIds[0]).toBe(firstIds.microblog);
    noDuplicates();
  });
});

describe('insufficient credits', () => {
  it('answers 402 INSUFFICIENT_CREDITS, changes nothing and sends zero requests to any network', async () => {
    const posts = texts('Too poor');
    const draftId = await createDraft(posts);
    const start = await balance();
    t.server.services.credits.adjust(userId, 30 - start, 'test: leave 30 credits');
    const counts = requestCounts(nets);
    const mark = await lastLedgerId();
    try {
      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(r.status, r.text).toBe(402);
      expect(r.body).toMatchObject({
        success: false,
        error: 'INSUFFICIENT_CREDITS',
        message: expect.stringContaining('50'),
      });
      const multi = await t.call('POST', '/publish/multi-platform', {
        key,
        body: { draftId, targetAccounts: PLATFORMS.map((p) => ({ accountId: ids[p], platform: p })) },
      });
      expect(multi.status, multi.text).toBe(402);
      expect(await balance()).toBe(30);
      expect(await ledgerSince(mark)).toEqual([]);
      expect((await progress(`draftId=${draftId}`)).entries).toEqual([]);
      expect(await draftStatus(draftId)).toBe('draft');

      // Single-network endpoints and quotes too, once the balance is under 10.
      t.server.services.credits.adjust(userId, -25, 'test: leave 5 credits');
      const single = await t.call('POST', '/skyblog/publish', {
        key,
        body: { accountUuid: ids.skyblog, type: 'single', text: posts[0] },
      });
      expect(single.status, single.text).toBe(402);
      const quote = await t.call('POST', '/microblog/quote', {
        key,
        body: { accountId: ids.microblog, content: posts[1], quoteTweetId: '1234' },
      });
      expect(quote.status, quote.text).toBe(402);
      const threadsDirect = await t.call('POST', '/threadblog/publish', {
        key,
        body: { accountId: ids.threadblog, text: posts[2] },
      });
      expect(threadsDirect.status, threadsDirect.text).toBe(402);
      expect(requestCounts(nets)).toEqual(counts);
    } finally {
      t.server.services.credits.adjust(userId, start - (await balance()), 'test: restore');
    }
  });
});

describe('force, the per-network cap, and the ledger', () => {
  it(
    'force: true publishes a published target again (once more, charged once more); without it the target is ' +
      'skipped',
    async () => {
      const posts = texts('Forced', 2);
      const draftId = await createDraft(posts, { selectedAccountIds: [ids.fedblog] });
      const onMastodon = async () => (await postsOn(nets, 'fedblog')).filter((p) => posts.includes(p.text)).length;
      const before = await balance();
      const first = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(first.body.summary, first.text).toEqual({ total: 1, succeeded: 1, failed: 0 });
      const skipped = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(skipped.body.results[0]).toMatchObject({ skipped: true, success: true });
      expect(await onMastodon()).toBe(2);
      expect(await balance()).toBe(before - 10);

      const forced = await t.call('POST', '/microblog/publish', { key, body: { draftId, force: true } });
      expect(forced.status, forced.text).toBe(200);
      expect(forced.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
      expect(forced.body.results[0].skipped).toBeUndefined();
      expect(forced.body.results[0].data.id).not.toBe(first.body.results[0].data.id);
      // The whole thread again, as its own reply chain.
      const held = (await postsOn(nets, 'fedblog')).filter((p) => posts.includes(p.text));
      expect(held.map((p) => p.text)).toEqual([...posts, ...posts]);
      expect(held[3].parent).toBe(held[2].id);
      expect(held[2].parent).toBeUndefined();
      expect(await balance()).toBe(before - 20);
      // Multi-platform takes force too.
      const multi = await t.call('POST', '/publish/multi-platform', {
        key,
        body: { draftId, targetAccounts: [{ accountId: ids.fedblog, platform: 'fedblog' }], force: true },
      });
      expect(multi.body.summary, multi.text).toEqual({ total: 1, succeeded: 1, failed: 0 });
      expect(await onMastodon()).toBe(6);
      expect(await balance()).toBe(before - 30);
    },
  );

  it('sends at most 8 posts at a time to one network, however many publishes run at once', async () => {
    const COUNT = 14;
    const LATENCY = 300;
    const draftIds: string[] = [];
    const mine = new Set<string>();
    for (const [text] of Array.from({ length: COUNT }, () => texts('Capped', 1))) {
      draftIds.push(await createDraft([text], { selectedAccountIds: [ids.fedblog] }));
      mine.add(text);
    }
    // The simulator answers each request LATENCY ms after it arrived: each POST /statuses is in
    // flight over [answered - LATENCY, answered]. (Timer lateness only shortens the estimate.)
    const answered: number[] = [];
    const faults = nets.masto.faults;
    const take = faults.take.bind(faults);
    faults.take = (method: string, path: string) => {
      if (method === 'POST' && path === '/api/v1/statuses') answered.push(Date.now());
      return take(method, path);
    };
    faults.latencyMs = LATENCY;
    try {
      const accepted = await Promise.all(
        draftIds.map((draftId) => t.call('POST', '/microblog/publish', { key, body: { draftId, async: true } })),
      );
      for (const a of accepted) expect(a.status, a.text).toBe(202);
      await until('every capped publish done', async () => {
        for (const id of draftIds) if ((await progress(`draftId=${id}`)).summary.completed !== 1) return false;
        return true;
      });
    } finally {
      faults.latencyMs = 0;
      faults.take = take;
    }
    expect((await postsOn(nets, 'fedblog')).filter((p) => mine.has(p.text))).toHaveLength(COUNT);
    expect(answered).toHaveLength(COUNT);
    const events = answered
      .flatMap(
        (at) =>
          [
            [at - LATENCY, 1],
            [at, -1],
          ] as const,
      )
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0;
    let most = 0;
    for (const [, d] of events) most = Math.max(most, (inFlight += d));
    expect(most).toBeLessThanOrEqual(8);
    // Parallel, though: the 14 did not go one by one.
    expect(most).toBeGreaterThanOrEqual(4);
    expect(Math.max(...answered) - Math.min(...answered)).toBeGreaterThanOrEqual(LATENCY - 50);
  });

  it('after every publish, refund, review and adjustment above, the balance is the sum of the ledger', async () => {
    const { total } = t.server.sqlite
      .prepare('SELECT COALESCE(SUM(credits), 0) AS total FROM credit_ledger WHERE user_id = ?')
      .get(userId) as { total: number };
    expect(await balance()).toBe(total);
    expect((await t.call('GET', '/me', { key })).body.credits_balance).toBe(total);
    const refunds = t.server.sqlite
      .prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE user_id = ? AND trans_type = 'refund'")
      .get(userId) as { n: number };
    expect(refunds.n).toBeGreaterThan(0);
  });
});
