/**
 * "Committed, then the connection dropped" on each of the five networks (split from
 * publish-networks.test.ts): every lost answer is settled without a duplicate, by lookup, by the
 * Idempotency-Key or by the PDS record; what cannot be settled waits as needs_review for the person.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { postsOn } from '../helpers/networks.js';
import {
  nets,
  t,
  key,
  ids,
  texts,
  createDraft,
  balance,
  progress,
  publish,
  draftStatus,
  expectThreadEverywhere,
  noDuplicates,
  usePublishNetworks,
} from '../helpers/publish-networks.js';

// Real servers on a shared 2-core machine: generous per-test time, no wall-clock asserts.
vi.setConfig({ testTimeout: 90_000 });

usePublishNetworks();

describe('"committed, then the connection dropped" on each network', () => {
  // The figure of docs/decisions.md §20.1 for this bar: cases, auto-resolved, needs_review, duplicates.
  const figure = { cases: 0, resolved: 0, needsReview: 0 };
  afterAll(async () => {
    const sims = [nets.x, nets.masto, nets.threads, nets.li].reduce(
      (sum, sim) => sum + sim.state.counter.duplicates().length,
      0,
    );
    const sky = (await postsOn(nets, 'skyblog')).map((p) => p.text);
    const duplicates = sims + (sky.length - new Set(sky).size);
    console.log(
      `Ambiguous failures ("committed, then dropped"): cases ${figure.cases}, auto-resolved ` +
        `${figure.resolved}, needs_review ${figure.needsReview}, duplicates ${duplicates}`,
    );
  });
  it(
    'settles every lost answer without a duplicate: by lookup, ' + 'by the Idempotency-Key, or by the PDS record',
    async () => {
      const posts = texts('Dropped');
      const draftId = await createDraft(posts);
      // Part 2 of each thread (LinkedIn's single post) is committed, then its answer is lost.
      nets.x.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /2/tweets', skip: 1 });
      nets.masto.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses', skip: 1 });
      nets.threads.faults.next({ kind: 'commit-then-drop' }, { route: '/threads_publish', skip: 1 });
      nets.li.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /rest/posts' });
      nets.pds!.proxy!.dropAfterCommit('com.atproto.repo.createRecord', { skip: 1 });
      const replaysBefore = nets.masto.state.idempotentReplays;
      const before = await balance();

      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.summary).toEqual({ total: 5, succeeded: 5, failed: 0 });
      figure.cases += 5;
      figure.resolved += 5;
      expect(nets.x.faults.fired.at(-1)).toMatchObject({ kind: 'commit-then-drop', path: '/2/tweets' });
      expect(nets.li.faults.fired.at(-1)).toMatchObject({ kind: 'commit-then-drop', path: '/rest/posts' });
      expect(nets.threads.faults.fired.at(-1)).toMatchObject({
        kind: 'commit-then-drop',
        path: expect.stringMatching(/threads_publish$/),
      });
      expect(nets.masto.faults.fired.at(-1)).toMatchObject({ kind: 'commit-then-drop', path: '/api/v1/statuses' });
      expect(nets.pds!.proxy!.fired.at(-1)).toBe('drop POST /xrpc/com.atproto.repo.createRecord');
      expect(nets.masto.state.idempotentReplays).toBe(replaysBefore + 1);
      await expectThreadEverywhere(posts);
      noDuplicates();
      const sky = (await postsOn(nets, 'skyblog')).filter((p) => posts.includes(p.text));
      expect(sky).toHaveLength(3);
      expect(await balance()).toBe(before - 50);
    },
  );

  it(
    'X: the timeline lags the write, the resend meets the duplicate 403, and a later lookup finds the post: ' +
      'published once',
    async () => {
      const posts = texts('Lagging timeline', 2);
      const draftId = await createDraft(posts, { selectedAccountIds: [ids.microblog] });
      nets.x.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /2/tweets' });
      const rejections = nets.x.state.duplicateRejections;
      nets.x.state.timelineDelayMs = 2_000;
      nets.x.state.rejectDuplicates = true; // as X does
      try {
        const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
        expect(r.body.results[0], r.text).toMatchObject({ platform: 'microblog', success: true, status: 'published' });
      } finally {
        nets.x.state.timelineDelayMs = 0;
        nets.x.state.rejectDuplicates = false;
      }
      figure.cases += 1;
      figure.resolved += 1;
      // Herald's first lookup came too early and it sent part 1 again; X refused the copy.
      expect(nets.x.state.duplicateRejections).toBe(rejections + 1);
      await expectThreadEverywhere(posts, ['microblog']);
      noDuplicates();
    },
  );

  it(
    'Mastodon: a lost answer, then a server error on the same-key retry: the next publish reuses the key, no ' +
      'duplicate',
    async () => {
      const posts = texts('Same key', 2);
      const draftId = await createDraft(posts, { selectedAccountIds: [ids.fedblog] });
      nets.masto.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /api/v1/statuses' });
      // The adapter's own repeat and the engine's next round both meet a server error.
      nets.masto.faults.next({ kind: '503' }, { route: 'POST /api/v1/statuses', times: 2 });
      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(r.body.results[0]).toMatchObject({ platform: 'fedblog', success: false, status: 'failed' });
      // The first post is on Mastodon, though Herald never heard so.
      expect((await postsOn(nets, 'fedblog')).filter((p) => p.text === posts[0])).toHaveLength(1);
      const replays = nets.masto.state.idempotentReplays;
      const again = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(again.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
      figure.cases += 1;
      figure.resolved += 1;
      expect(nets.masto.state.idempotentReplays).toBe(replays + 1);
      await expectThreadEverywhere(posts, ['fedblog']);
      noDuplicates();
    },
  );

  it(
    'when the network cannot be asked, the target waits as needs_review, is not re-sent, and the person ' +
      'settles it',
    async () => {
      const posts = texts('Unsure', 1);
      const draftId = await createDraft(posts, { selectedAccountIds: [ids.problog] });
      nets.li.faults.next({ kind: 'commit-then-drop' }, { route: 'POST /rest/posts' });
      // The lookup of recent posts fails every time it is tried.
      nets.li.faults.next({ kind: '503' }, { route: 'GET /rest/posts', times: 10 });
      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.results[0]).toMatchObject({ platform: 'problog', success: false, status: 'needs_review' });
      figure.cases += 1;
      figure.needsReview += 1;
      nets.li.faults.clear();
      const onLinkedIn = async () => (await postsOn(nets, 'problog')).filter((x) => x.text === posts[0]).length;
      expect(await onLinkedIn()).toBe(1);
      const p = await progress(`draftId=${draftId}`);
      expect(p.entries[0]).toMatchObject({ status: 'needs_review', error: expect.stringContaining('LinkedIn') });
      expect(p.summary.failed).toBe(1);

      // Publishing again without force is refused and sends nothing.
      const count = nets.li.requests.length;
      const again = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(again.status).toBe(400);
      expect(nets.li.requests.length).toBe(count);

      const history = await t.call('GET', '/publish/history?status=needs_review', { key });
      const held = (history.body.publications as any[]).find((x) => x.draftId === draftId);
      const settle = await t.call('POST', '/publish/review', {
        key,
        body: { publicationId: held.id, outcome: 'published' },
      });
      expect(settle.status, settle.text).toBe(200);
      expect(await draftStatus(draftId)).toBe('published');
      expect(await onLinkedIn()).toBe(1);
    },
  );

  it(
    'a held target the person says did not go out is refunded, and publishing again sends it once and charges ' +
      'once',
    async () => {
      const posts = texts('Lost for real', 1);
      const draftId = await createDraft(posts, { selectedAccountIds: [ids.problog] });
      // The request never reaches LinkedIn's posts (a proxy or the network dropped it) and the
      // lookup cannot be made: Herald cannot tell, so it holds the post.
      nets.li.faults.next({ kind: 'timeout', ms: 50 }, { route: 'POST /rest/posts' });
      nets.li.faults.next({ kind: '503' }, { route: 'GET /rest/posts', times: 10 });
      const before = await balance();
      const r = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      nets.li.faults.clear();
      expect(r.body.results[0]).toMatchObject({ status: 'needs_review' });
      figure.cases += 1;
      figure.needsReview += 1;
      const onLinkedIn = async () => (await postsOn(nets, 'problog')).filter((x) => x.text === posts[0]).length;
      expect(await onLinkedIn()).toBe(0);
      expect(await balance()).toBe(before - 10);

      const history = await t.call('GET', '/publish/history?status=needs_review', { key });
      const held = (history.body.publications as any[]).find((x) => x.draftId === draftId);
      const settle = await t.call('POST', '/publish/review', {
        key,
        body: { publicationId: held.id, outcome: 'not_published' },
      });
      expect(settle.status, settle.text).toBe(200);
      expect(await balance()).toBe(before);
      expect(await draftStatus(draftId)).toBe('failed');

      const again = await t.call('POST', '/microblog/publish', { key, body: { draftId } });
      expect(again.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
      expect(await onLinkedIn()).toBe(1);
      expect(await balance()).toBe(before - 10);
    },
  );
});
