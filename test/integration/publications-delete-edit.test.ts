/**
 * Published posts after the fact, over HTTP against each network's simulator and the real
 * Bluesky PDS: GET /microblog/publications lists them with ids; DELETE takes a post down with the
 * later parts of its thread (a post already gone is said so, never a 500); PUT edits the text on
 * Mastodon and LinkedIn and answers 409 NOT_SUPPORTED naming what the others allow.
 */
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../server/core/config.js';
import { postsOn, PLATFORMS } from '../helpers/networks.js';
import { createDraft, ids, key, nets, publish, t, texts, usePublishNetworks } from '../helpers/publish-networks.js';

usePublishNetworks();

/** Publishes a fresh thread to one network; answers the publication's id and the texts. */
async function published(platform: Platform, parts = 2) {
  const posts = texts(`after ${platform}`, parts);
  const draftId = await createDraft(posts);
  const r = await publish(draftId, [platform]);
  expect(r.status, r.text).toBe(200);
  const list = await t.call('GET', '/microblog/publications?limit=500', { key });
  expect(list.status, list.text).toBe(200);
  const row = (list.body.publications as any[]).find((p) => p.draftId === draftId && p.accountId === ids[platform]);
  expect(row?.status).toBe('published');
  expect(row).toMatchObject({ deletedAt: null, editedAt: null });
  return { id: row.id as string, posts };
}

const holds = async (platform: Platform, text: string) =>
  (await postsOn(nets, platform)).some((p) => p.text.includes(text));

describe('DELETE /microblog/publications/:id', () => {
  for (const platform of PLATFORMS) {
    it(`${platform}: takes the post and its thread's later parts down, then says it is already deleted`, async () => {
      const { id, posts } = await published(platform);
      for (const text of posts) expect(await holds(platform, text), text).toBe(true);

      const r = await t.call('DELETE', `/microblog/publications/${id}`, { key });
      expect(r.status, r.text).toBe(200);
      expect(r.body.parts.every((p: any) => p.outcome === 'deleted')).toBe(true);
      // Later parts first: none is left answering a missing post.
      expect(r.body.parts.map((p: any) => p.position)).toEqual(
        [...r.body.parts.map((p: any) => p.position)].sort((a: number, b: number) => b - a),
      );
      for (const text of posts) expect(await holds(platform, text), text).toBe(false);

      const again = await t.call('DELETE', `/microblog/publications/${id}`, { key });
      expect(again.status, again.text).toBe(200);
      expect(again.body.message).toMatch(/already deleted/i);
      const list = await t.call('GET', '/microblog/publications?limit=500', { key });
      expect((list.body.publications as any[]).find((p) => p.id === id).deletedAt).toBe(r.body.deletedAt);
    });

    it(`${platform}: a post deleted on the network meanwhile is reported gone, not an error`, async () => {
      const { id, posts } = await published(platform, 1);
      await deleteOnNetwork(platform, posts[0]!);
      const r = await t.call('DELETE', `/microblog/publications/${id}`, { key });
      expect(r.status, r.text).toBe(200);
      expect(r.body.parts).toEqual([{ position: 0, outcome: 'gone' }]);
      expect(r.body.message).toMatch(/no longer held/);
    });
  }

  it('an unknown publication is 404', async () => {
    const r = await t.call('DELETE', '/microblog/publications/no-such-one', { key });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('NOT_FOUND');
  });
});

describe('PUT /microblog/publications/:id', () => {
  for (const platform of ['fedblog', 'problog'] as Platform[]) {
    it(`${platform}: replaces the text on the network and marks the publication edited`, async () => {
      const { id, posts } = await published(platform, 1);
      const text = `${posts[0]} (fixed)`;
      const r = await t.call('PUT', `/microblog/publications/${id}`, { key, body: { text } });
      expect(r.status, r.text).toBe(200);
      expect(await holds(platform, text)).toBe(true);
      const list = await t.call('GET', '/microblog/publications?limit=500', { key });
      expect((list.body.publications as any[]).find((p) => p.id === id).editedAt).toBe(r.body.editedAt);
    });
  }

  it('fedblog: an edit of a post deleted on the network meanwhile is 404 and marks it deleted', async () => {
    const { id, posts } = await published('fedblog', 1);
    await deleteOnNetwork('fedblog', posts[0]!);
    const r = await t.call('PUT', `/microblog/publications/${id}`, { key, body: { text: 'too late' } });
    expect(r.status, r.text).toBe(404);
    expect(r.body.message).toMatch(/no longer on Mastodon/);
    const list = await t.call('GET', '/microblog/publications?limit=500', { key });
    expect((list.body.publications as any[]).find((p) => p.id === id).deletedAt).not.toBeNull();
  });

  for (const [platform, name] of [
    ['microblog', 'X'],
    ['skyblog', 'Bluesky'],
    ['threadblog', 'Threads'],
  ] as [Platform, string][]) {
    it(`${platform}: 409 NOT_SUPPORTED naming what ${name} allows, and nothing changes`, async () => {
      const { id, posts } = await published(platform, 1);
      const r = await t.call('PUT', `/microblog/publications/${id}`, { key, body: { text: 'new words' } });
      expect(r.status, r.text).toBe(409);
      expect(r.body.error).toBe('NOT_SUPPORTED');
      expect(r.body.message).toContain(name);
      expect(r.body.message).toMatch(/delet/);
      expect(await holds(platform, posts[0]!)).toBe(true);
    });
  }
});

/** Someone deletes the post in the network's own app. */
async function deleteOnNetwork(platform: Platform, text: string) {
  const drop = <T>(list: T[], match: (x: T) => boolean) => list.splice(list.findIndex(match), 1);
  if (platform === 'microblog') drop(nets.x.state.posts, (p) => p.text === text);
  if (platform === 'fedblog') drop(nets.masto.state.statuses, (s) => s.text === text);
  if (platform === 'threadblog') drop(nets.threads.state.posts, (p) => p.text === text);
  if (platform === 'problog') drop(nets.li.state.posts, (p) => p.commentary.includes(text.replace(/([#()])/g, '\\$1')));
  if (platform === 'skyblog') {
    const post = (await postsOn(nets, 'skyblog')).find((p) => p.text === text)!;
    const rkey = post.id.split('/').pop()!;
    await nets.pds!.xrpc('com.atproto.repo.deleteRecord', {
      body: { repo: nets.sky!.did, collection: 'app.bsky.feed.post', rkey },
      token: nets.sky!.accessJwt,
    });
  }
  expect(await holds(platform, text)).toBe(false);
}
