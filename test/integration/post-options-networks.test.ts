/**
 * Post options as each network received them (docs/decisions.md §11), over HTTP through the
 * publishing engine: what the X, Mastodon, Threads and LinkedIn simulators stored (they refuse
 * what the networks refuse), and the records the real Bluesky PDS holds (threadgate, postgate,
 * self labels, the quote's embed.record).
 */
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { createDraft, ids, key, nets, t, texts, usePublishNetworks } from '../helpers/publish-networks.js';

usePublishNetworks();

async function publishTo(draftId: string, platforms: Platform[]) {
  const r = await t.call('POST', '/publish/multi-platform', {
    key,
    body: { draftId, targetAccounts: platforms.map((p) => ({ accountId: ids[p], platform: p })) },
  });
  expect(r.status, r.text).toBe(200);
  expect(
    r.body.results.map((x: any) => x.success),
    r.text,
  ).toEqual(platforms.map(() => true));
  // X answers tweetId and Bluesky uri where the others answer id.
  return (r.body.results as any[]).map((x) => ({
    ...x,
    data: { ...x.data, id: x.data.id ?? x.data.tweetId ?? x.data.uri },
  })) as {
    platform: Platform;
    data: { id: string; url: string };
  }[];
}

const poll = { choices: ['Tea', 'Coffee', 'Water'], durationMinutes: 2 * 1440 };

describe('X', () => {
  it('gets the poll on the first post, reply_settings and the disclosure flags on each, and the quote', async () => {
    const [quoted] = await publishTo(await createDraft(texts('X to quote', 1)), ['microblog']);
    const parts = texts('X options', 2);
    const options = { poll, replyControl: 'mentioned', aiGenerated: true, paidPartnership: true, topicTag: 'Tea' };
    await publishTo(await createDraft(parts, { options }), ['microblog']);
    const held = parts.map((p) => nets.x.state.posts.find((x) => x.text === p)!);
    expect(held[0].options).toEqual({
      poll: { options: ['Tea', 'Coffee', 'Water'], duration_minutes: 2880 },
      reply_settings: 'mentionedUsers',
      made_with_ai: true,
      paid_partnership: true,
    });
    expect(held[1].options).toEqual({ reply_settings: 'mentionedUsers', made_with_ai: true, paid_partnership: true });
    const [q] = texts('X quoting', 1);
    await publishTo(await createDraft([q], { options: { quoteUrl: quoted.data.url } }), ['microblog']);
    expect(nets.x.state.posts.find((x) => x.text === q)?.quoteOf).toBe(quoted.data.id);
  });
});

describe('Mastodon', () => {
  it('gets the poll, spoiler_text with sensitive, the visibility, the quote policy and a quote', async () => {
    const [quoted] = await publishTo(await createDraft(texts('Masto to quote', 1)), ['fedblog']);
    const [text] = texts('Masto options', 1);
    const options = {
      poll: { ...poll, multiple: true },
      contentWarning: 'food talk',
      visibility: 'followers',
      quoteControl: 'nobody',
    };
    await publishTo(await createDraft([text], { options }), ['fedblog']);
    const s = nets.masto.state.statuses.find((x) => x.text === text)!;
    expect(s).toMatchObject({
      spoilerText: 'food talk',
      sensitive: true,
      visibility: 'private',
      quoteApprovalPolicy: 'nobody',
      poll: { options: ['Tea', 'Coffee', 'Water'], expiresIn: 2880 * 60, multiple: true },
    });
    const [q] = texts('Masto quoting', 1);
    await publishTo(await createDraft([q], { options: { quoteUrl: quoted.data.url, visibility: 'unlisted' } }), [
      'fedblog',
    ]);
    expect(nets.masto.state.statuses.find((x) => x.text === q)).toMatchObject({
      quotedStatusId: quoted.data.id,
      visibility: 'unlisted',
    });
  });
});

describe('Threads', () => {
  it('gets poll_attachment, reply_control, topic_tag, a spoiler over the text, a quote of its own post', async () => {
    const [quoted] = await publishTo(await createDraft(texts('Threads to quote', 1)), ['threadblog']);
    const parts = texts('Threads options', 2);
    const options = {
      poll: { ...poll, durationMinutes: 1440 },
      replyControl: 'nobody',
      topicTag: 'Hot drinks',
      contentWarning: 'food talk',
    };
    await publishTo(await createDraft(parts, { options }), ['threadblog']);
    const held = parts.map((p) => [...nets.threads.state.containers.values()].find((c) => c.text === p)!);
    expect(held[0].replyControl).toBe('parent_post_author_only');
    expect(held[0].options).toEqual({
      poll: { option_a: 'Tea', option_b: 'Coffee', option_c: 'Water' },
      topicTag: 'Hot drinks',
      spoilers: [{ offset: 0, length: [...parts[0]].length }],
    });
    expect(held[1].options).toEqual({ spoilers: [{ offset: 0, length: [...parts[1]].length }] });
    expect(held[1].replyControl).toBe('parent_post_author_only');
    const [q] = texts('Threads quoting', 1);
    await publishTo(await createDraft([q], { options: { quoteUrl: quoted.data.url } }), ['threadblog']);
    const c = [...nets.threads.state.containers.values()].find((x) => x.text === q)!;
    expect(c.options?.quotePostId).toBe(quoted.data.id);
  });

  it("a quote of another account's post stops the publish before Threads gets anything, and says why", async () => {
    const [text] = texts('Quoting someone else', 1);
    const quoteUrl = 'https://www.threads.net/@someone.else/post/DAbCdEf1234';
    const before = nets.threads.state.containers.size;
    const id = await createDraft([text], { options: { quoteUrl } });
    // The draft's networks say so first (what the CLI's dry run and the composer show) ...
    const check = await t.call('GET', `/microblog/drafts/${id}/networks`, { key });
    expect(check.status, check.text).toBe(200);
    const threads = (check.body.networks as { platform: string; valid: boolean; problems: unknown[] }[]).find(
      (n) => n.platform === 'threadblog',
    )!;
    expect(threads.valid).toBe(false);
    expect(threads.problems).toEqual([
      { option: 'quoteUrl', reason: expect.stringMatching(/own posts, and this is @someone\.else's: quote it in/) },
    ]);
    // ... and publishing is refused before anything is sent.
    const r = await t.call('POST', '/publish/multi-platform', {
      key,
      body: { draftId: id, targetAccounts: [{ accountId: ids.threadblog, platform: 'threadblog' }] },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toMatch(/Threads quotes only this account's own posts/);
    expect(JSON.stringify(r.body.details)).toContain('options.quoteUrl');
    expect(nets.threads.state.containers.size).toBe(before);
  });

  it('more than 5 distinct links stop the publish before Threads gets anything', async () => {
    const [text] = texts('Links', 1);
    const links = [1, 2, 3, 4, 5, 6].map((i) => `https://example.com/${i}`).join(' ');
    const before = nets.threads.state.containers.size;
    const id = await createDraft([`${text} ${links}`]);
    const r = await t.call('POST', '/publish/multi-platform', {
      key,
      body: { draftId: id, targetAccounts: [{ accountId: ids.threadblog, platform: 'threadblog' }] },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toMatch(/6 links; Threads takes at most 5/);
    expect(nets.threads.state.containers.size).toBe(before);
  });
});

describe('LinkedIn', () => {
  it('gets content.poll with the duration rounded up, CONNECTIONS, resharing off, and a reshare', async () => {
    const [quoted] = await publishTo(await createDraft(texts('LinkedIn to quote', 1)), ['problog']);
    const [text] = texts('LinkedIn poll?', 1);
    const options = { poll, visibility: 'followers', quoteControl: 'nobody' };
    const [sent] = await publishTo(await createDraft([text], { options }), ['problog']);
    const p = nets.li.state.posts.find((x) => x.urn === sent.data.id)!;
    expect(p.visibility).toBe('CONNECTIONS');
    expect(p.isReshareDisabledByAuthor).toBe(true);
    expect(p.content).toEqual({
      poll: {
        question: text,
        options: [{ text: 'Tea' }, { text: 'Coffee' }, { text: 'Water' }],
        settings: { duration: 'THREE_DAYS' },
      },
    });
    const [q] = texts('LinkedIn resharing', 1);
    const quoteUrl = `https://www.linkedin.com/feed/update/${quoted.data.id}`;
    const [resharing] = await publishTo(await createDraft([q], { options: { quoteUrl } }), ['problog']);
    expect(nets.li.state.posts.find((x) => x.urn === resharing.data.id)?.reshareParent).toBe(quoted.data.id);
  });
});

describe('Bluesky', () => {
  it('holds the threadgate, the postgate, the self labels and the quote as records', async () => {
    const [quoted] = await publishTo(await createDraft(texts('Sky to quote', 1)), ['skyblog']);
    const rkey = quoted.data.id.split('/').pop();
    const parts = texts('Sky options', 2);
    const quoteUrl = `https://bsky.app/profile/${nets.sky!.handle}/post/${rkey}`;
    const options = { replyControl: 'following', quoteControl: 'nobody', selfLabels: ['nudity'], quoteUrl };
    const [root] = await publishTo(await createDraft(parts, { options }), ['skyblog']);
    const post = await nets.pds!.getRecord(root.data.id);
    expect(post.value.labels).toEqual({ $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'nudity' }] });
    expect(post.value.embed).toMatchObject({ $type: 'app.bsky.embed.record', record: { uri: quoted.data.id } });
    const gate = (collection: string) => nets.pds!.getRecord(root.data.id.replace('app.bsky.feed.post', collection));
    expect((await gate('app.bsky.feed.threadgate')).value).toMatchObject({
      post: root.data.id,
      allow: [{ $type: 'app.bsky.feed.threadgate#followingRule' }],
    });
    expect((await gate('app.bsky.feed.postgate')).value).toMatchObject({
      post: root.data.id,
      embeddingRules: [{ $type: 'app.bsky.feed.postgate#disableRule' }],
    });
  });

  it('a poll goes as numbered lines with the text fallback', async () => {
    const [text] = texts('Sky poll', 1);
    const [root] = await publishTo(await createDraft([text], { options: { poll, pollFallback: 'text' } }), ['skyblog']);
    expect((await nets.pds!.getRecord(root.data.id)).value.text).toBe(`${text}\n\n1. Tea\n2. Coffee\n3. Water`);
  });
});
