/**
 * Post options written once (docs/decisions.md §11): kept on a draft as given, refused with 400
 * INVALID_INPUT naming the field when no network could take them, and per network the options
 * it drops (with the reason) and the ones that make its post invalid, as GET
 * /microblog/drafts/:id/networks answers them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accountIds,
  addAccountsOnEveryNetwork,
  get,
  key,
  post,
  put,
  t,
  useDraftsServer,
} from '../helpers/drafts-server.js';
import { png, upload } from '../helpers/media-files.js';

useDraftsServer();
beforeAll(() => addAccountsOnEveryNetwork());

const create = (options: unknown, content = 'Which one?', extra: Record<string, unknown> = {}) =>
  post('/microblog/drafts', { title: 'o', tweets: [{ content }], options, ...extra });

const networks = async (id: string) => {
  const r = await get(`/microblog/drafts/${id}/networks`);
  expect(r.status, r.text).toBe(200);
  return Object.fromEntries(
    (r.body.networks as { platform: string; valid: boolean; dropped: any[]; problems: any[] }[]).map((n) => [
      n.platform,
      n,
    ]),
  );
};

describe('options on a draft', () => {
  it('are kept as given, replaced on update and cleared with null', async () => {
    const options = {
      poll: { choices: ['A', 'B', 'C'], durationMinutes: 1440 },
      replyControl: 'following',
      contentWarning: 'spoilers',
      topicTag: 'Books',
      quoteUrl: 'https://x.com/someone/status/1234567890',
    };
    const r = await create(options);
    expect(r.status, r.text).toBe(200);
    expect(r.body.draft.options).toEqual(options);
    const id = r.body.draft.id;
    expect((await get(`/microblog/drafts/${id}`)).body.draft.options).toEqual(options);
    const u = await put(`/microblog/drafts/${id}`, { options: { visibility: 'followers' } });
    expect(u.body.draft.options).toEqual({ visibility: 'followers' });
    const title = await put(`/microblog/drafts/${id}`, { title: 'other' });
    expect(title.body.draft.options).toEqual({ visibility: 'followers' });
    expect((await put(`/microblog/drafts/${id}`, { options: null })).body.draft.options).toBeNull();
    expect((await create(undefined)).body.draft.options).toBeNull();
  });

  it.each([
    ['a poll with one choice', { poll: { choices: ['A'], durationMinutes: 60 } }, 'body.options.poll.choices'],
    [
      'a poll with five choices',
      { poll: { choices: ['A', 'B', 'C', 'D', 'E'], durationMinutes: 60 } },
      'body.options.poll.choices',
    ],
    [
      'a choice too long',
      { poll: { choices: ['A', 'B'.repeat(51)], durationMinutes: 60 } },
      'body.options.poll.choices.1',
    ],
    [
      'a duration too short',
      { poll: { choices: ['A', 'B'], durationMinutes: 1 } },
      'body.options.poll.durationMinutes',
    ],
    [
      'a duration too long',
      { poll: { choices: ['A', 'B'], durationMinutes: 60 * 24 * 31 } },
      'body.options.poll.durationMinutes',
    ],
    ['a topic tag with "."', { topicTag: 'a.b' }, 'body.options.topicTag'],
    ['a topic tag with "&"', { topicTag: 'R&D' }, 'body.options.topicTag'],
    ['a quote URL that is no post', { quoteUrl: 'https://example.com/blog/1' }, 'body.options.quoteUrl'],
    ['a quote URL of an X profile', { quoteUrl: 'https://x.com/someone' }, 'body.options.quoteUrl'],
    [
      'a Threads quote URL whose author has a broken %-escape',
      { quoteUrl: 'https://www.threads.net/@%E0/post/DAbCdEf1234' },
      'body.options.quoteUrl',
    ],
    ['an unknown reply control', { replyControl: 'friends' }, 'body.options.replyControl'],
    ['a 10,000-character content warning', { contentWarning: 'w'.repeat(10_000) }, 'body.options.contentWarning'],
    ['an unknown self label', { selfLabels: ['gore'] }, 'body.options.selfLabels.0'],
  ])('%s is 400 INVALID_INPUT naming the field, and nothing is kept', async (_what, options, path) => {
    const before = (await get('/microblog/drafts')).body.drafts.length;
    const r = await create(options);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await get('/microblog/drafts')).body.drafts.length).toBe(before);
  });
});

describe('what each network takes', () => {
  it('lists what each network drops, with the reason, and keeps the post valid', async () => {
    const id = (
      await create({
        replyControl: 'followers',
        contentWarning: 'spoilers',
        topicTag: 'Books',
        visibility: 'followers',
        selfLabels: ['nudity'],
        quoteUrl: 'https://bsky.app/profile/alice.test/post/3kabc',
      })
    ).body.draft.id;
    const n = await networks(id);
    const options = (p: string) => (n[p].dropped as { option: string }[]).map((d) => d.option).sort();
    expect(options('microblog')).toEqual(
      ['contentWarning', 'quoteUrl', 'replyControl', 'selfLabels', 'topicTag', 'visibility'].sort(),
    );
    expect(options('skyblog')).toEqual(['contentWarning', 'topicTag', 'visibility']);
    expect(options('fedblog')).toEqual(['quoteUrl', 'replyControl', 'selfLabels', 'topicTag']);
    expect(options('threadblog')).toEqual(['quoteUrl', 'selfLabels', 'visibility']);
    expect(options('problog')).toEqual(['contentWarning', 'quoteUrl', 'replyControl', 'selfLabels', 'topicTag']);
    expect(n.microblog.dropped).toContainEqual({
      option: 'replyControl',
      reason: 'X has no "followers may reply" setting',
    });
    for (const p of Object.keys(n)) expect(n[p].valid, p).toBe(true);
  });

  it('a poll with media is invalid where polls go; on Bluesky a poll needs the text fallback', async () => {
    const poll = { choices: ['Yes', 'No'], durationMinutes: 1440 };
    const id = (await create({ poll })).body.draft.id;
    let n = await networks(id);
    expect(n.skyblog.valid).toBe(false);
    expect(n.skyblog.problems[0]).toMatchObject({ option: 'poll' });
    expect(n.skyblog.problems[0].reason).toMatch(/Bluesky has no polls.*pollFallback/);
    for (const p of ['microblog', 'fedblog', 'threadblog', 'problog']) expect(n[p].valid, p).toBe(true);
    await put(`/microblog/drafts/${id}`, { options: { poll, pollFallback: 'text' } });
    n = await networks(id);
    expect(n.skyblog.valid).toBe(true);
    expect(n.skyblog.dropped).toEqual([
      { option: 'poll', reason: 'Bluesky has no polls: the choices are added as numbered lines' },
    ]);
    const up = await upload(t.base, key, [{ filename: 'a.png', data: png(8, 8) }]);
    expect(up.status, up.text).toBe(200);
    const mediaId = up.body.data.uploads[0].mediaId;
    await put(`/microblog/drafts/${id}`, {
      tweets: [{ content: 'Which one?', media: [{ mediaId, altText: 'a dot' }] }],
      options: { poll, quoteUrl: 'https://mastodon.example/@bob/109876543210' },
    });
    n = await networks(id);
    for (const p of ['microblog', 'fedblog', 'threadblog', 'problog']) {
      expect(n[p].valid, p).toBe(false);
      expect(n[p].problems[0].reason, p).toMatch(/takes a poll or media on a post, not both/);
    }
    expect(n.fedblog.problems).toContainEqual({
      option: 'quoteUrl',
      reason: 'Mastodon takes a quote or media on a post, not both',
    });
  });

  it('a duration over a network maximum is invalid there, never clamped; LinkedIn rounds up to its days', async () => {
    const id = (await create({ poll: { choices: ['Yes', 'No'], durationMinutes: 60 * 24 * 8 } })).body.draft.id;
    const n = await networks(id);
    expect(n.microblog.valid).toBe(false);
    expect(n.microblog.problems[0].reason).toBe('the poll runs 11520 minutes; X takes at most 10080');
    expect(n.threadblog.valid).toBe(false);
    expect(n.fedblog.valid).toBe(true);
    expect(n.problog.valid).toBe(true);
    expect(n.problog.dropped).toEqual([
      { option: 'poll', reason: 'LinkedIn polls run 1, 3, 7 or 14 days: this one runs 14 days' },
    ]);
  });

  it("LinkedIn's poll question is poll.question, else the text when at most 140 characters", async () => {
    const long = 'Q'.repeat(141);
    const id = (await create({ poll: { choices: ['Yes', 'No'], durationMinutes: 1440 } }, long)).body.draft.id;
    let n = await networks(id);
    expect(n.problog.valid).toBe(false);
    expect(n.problog.problems[0].reason).toMatch(/at most 140 characters \(this one has 141\)/);
    await put(`/microblog/drafts/${id}`, {
      options: { poll: { choices: ['Yes', 'No'], durationMinutes: 1440, question: 'Short?' } },
    });
    n = await networks(id);
    expect(n.problog.valid).toBe(true);
  });

  it('a choice over a network length is invalid there', async () => {
    const id = (await create({ poll: { choices: ['Yes', 'N'.repeat(26)], durationMinutes: 1440 } })).body.draft.id;
    const n = await networks(id);
    expect(n.microblog.problems[0].reason).toBe('choice 2 has 26 characters; X takes at most 25');
    expect(n.threadblog.valid).toBe(false);
    expect(n.problog.valid).toBe(true);
    expect(n.fedblog.valid).toBe(true);
  });

  it('Threads takes at most 5 distinct links a post', async () => {
    const links = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' ');
    const id = (await create(null, links)).body.draft.id;
    const n = await networks(id);
    expect(n.threadblog.valid).toBe(false);
    expect(n.threadblog.problems).toEqual([
      { option: 'links', reason: 'the post has 6 links; Threads takes at most 5' },
    ]);
    expect(n.microblog.valid).toBe(true);
    expect(accountIds.threadblog).toBeTruthy();
  });
});

describe('dry runs and publishing', () => {
  it("a dry run's plan lists each network's dropped options; the fallback's lines are in Bluesky's text", async () => {
    const poll = { choices: ['Tea', 'Coffee'], durationMinutes: 1440 };
    const id = (await create({ poll, pollFallback: 'text', topicTag: 'Drinks' }, 'Morning?')).body.draft.id;
    const dry = await post('/microblog/publish', {
      draftId: id,
      dryRun: true,
      accountIds: [accountIds.skyblog, accountIds.threadblog, accountIds.microblog],
    });
    expect(dry.status, dry.text).toBe(200);
    const plan = Object.fromEntries(dry.body.plan.map((p: any) => [p.platform, p]));
    expect(plan.skyblog.posts[0].text).toBe('Morning?\n\n1. Tea\n2. Coffee');
    expect(plan.skyblog.dropped.map((d: any) => d.option)).toEqual(['poll', 'topicTag']);
    expect(plan.threadblog.dropped).toBeUndefined();
    expect(plan.microblog.dropped).toEqual([{ option: 'topicTag', reason: 'topic tags are a Threads feature' }]);
    const sched = await post('/microblog/schedule', {
      draftId: id,
      dryRun: true,
      scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
      targetAccounts: [{ accountId: accountIds.skyblog, platform: 'skyblog' }],
    });
    expect(sched.status, sched.text).toBe(200);
    expect(sched.body.plan[0].dropped.map((d: any) => d.option)).toEqual(['poll', 'topicTag']);
  });

  it('a network that cannot take the options stops the publish before anything is sent or charged', async () => {
    const id = (await create({ poll: { choices: ['Yes', 'No'], durationMinutes: 1440 } })).body.draft.id;
    const before = (await post('/credits', {})).body.balance;
    for (const body of [
      { draftId: id, accountIds: [accountIds.microblog, accountIds.skyblog] },
      { draftId: id, dryRun: true, accountIds: [accountIds.skyblog] },
    ]) {
      const r = await post('/microblog/publish', body);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toBe('INVALID_INPUT');
      expect(r.body.details.map((d: any) => d.path)).toEqual([`targets.${accountIds.skyblog}.options.poll`]);
      expect(r.body.message).toMatch(/Bluesky has no polls/);
    }
    const sched = await post('/microblog/schedule', {
      draftId: id,
      scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
      targetAccounts: [{ accountId: accountIds.skyblog, platform: 'skyblog' }],
    });
    expect(sched.status, sched.text).toBe(400);
    expect((await post('/credits', {})).body.balance).toBe(before);
    expect((await get(`/microblog/drafts/${id}`)).body.draft.status).toBe('draft');
  });
});
