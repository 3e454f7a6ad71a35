/**
 * Listing drafts never counts a stored text again (issue #19 item 1): texts over 4,000
 * characters used to be counted afresh on every listing that the list cache did not answer
 * (any write in between), 67 s a listing for a 1 MB draft before counting was linear. The
 * observable is the platform's grapheme segmenter, which counting an emoji text must call:
 * during a listing after the database changed, it is not called at all.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { longText } from '../helpers/hard-text.js';
import { OWNER, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  const owner = userIdOf(t, OWNER.email);
  for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog']) addAccount(t, owner, p);
});
afterAll(async () => {
  await t.close();
  vi.restoreAllMocks();
});

describe('GET /microblog/drafts with long texts', () => {
  it('counts a 100,000-character emoji post once, on write, and not on later listings', async () => {
    const text = longText('emoji', 100_000);
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    const created = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'Long', tweets: [{ content: text }, { content: longText('RTL', 100_000) }] },
    });
    expect(created.status).toBe(200);
    expect(created.body.draft.tweets[0].plainText).toBe(text);
    // Counting it did call the segmenter (so the spy sees counting when it happens).
    expect(segment.mock.calls.length).toBeGreaterThan(0);
    const counts = created.body.draft.tweets.map((x: { characterCount: number }) => x.characterCount);

    for (let round = 0; round < 2; round++) {
      // Another write, so the list is built afresh rather than served from the list cache.
      expect(
        (
          await t.call('POST', '/microblog/drafts', {
            key,
            body: { title: `Short ${round}`, tweets: [{ content: 'hi' }] },
          })
        ).status,
      ).toBe(200);
      segment.mockClear();
      const listed = await t.call('GET', '/microblog/drafts', { key });
      expect(listed.status).toBe(200);
      const long = listed.body.drafts.find((d: { title: string }) => d.title === 'Long');
      expect(long.tweets.map((x: { characterCount: number }) => x.characterCount)).toEqual(counts);
      expect(Object.keys(long.tweets[0].validation).sort()).toEqual([
        'fedblog',
        'microblog',
        'problog',
        'skyblog',
        'threadblog',
      ]);
      expect(segment.mock.calls.length, `segmenter calls during listing ${round + 1}`).toBe(0);
    }
    segment.mockRestore();
  });
});
