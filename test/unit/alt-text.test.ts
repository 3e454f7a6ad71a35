/**
 * Alt text against each network's limit, counted its way (text/alt-text.ts, docs/decisions.md §11):
 * Bluesky in graphemes, the others in characters (code points); Mastodon at the instance's own
 * description_limit, 1,500 when it says none; the reason names the item and both numbers.
 */
import { describe, expect, it } from 'vitest';
import { altTextCount, altTextLimit, altTextProblem, checkNetworkPosts } from '../../text/index.js';

const acute = 'e\u0301'; // one grapheme, two characters

describe('alt text per network', () => {
  it.each([
    ['microblog', 1000],
    ['skyblog', 2000],
    ['fedblog', 1500],
    ['threadblog', 1000],
    ['problog', 4086],
  ] as const)('%s allows %i', (platform, limit) => {
    expect(altTextLimit(platform)).toBe(limit);
    expect(altTextProblem(platform, ['a'.repeat(limit)])).toBeUndefined();
    expect(altTextProblem(platform, ['a'.repeat(limit + 1)])).toMatch(
      new RegExp(`has ${limit + 1} characters, over .*'s limit of ${limit}$`),
    );
  });

  it('counts Bluesky in graphemes and the others in characters', () => {
    expect(altTextCount('skyblog', acute.repeat(10))).toBe(10);
    expect(altTextCount('microblog', acute.repeat(10))).toBe(20);
    expect(altTextCount('problog', '😀'.repeat(10))).toBe(10);
    expect(altTextProblem('skyblog', [acute.repeat(2000)])).toBeUndefined();
    expect(altTextProblem('threadblog', [acute.repeat(501)])).toMatch(/has 1002 characters/);
  });

  it("takes a Mastodon instance's own limit, and names the item and its kind", () => {
    expect(altTextLimit('fedblog', { altTextLimit: 420 })).toBe(420);
    expect(altTextProblem('fedblog', ['ok', 'b'.repeat(421)], ['image', 'video'], { altTextLimit: 420 })).toBe(
      "the alt text of video 2 has 421 characters, over Mastodon's limit of 420",
    );
  });

  it('makes the post invalid in checkNetworkPosts, never cut', () => {
    const v = checkNetworkPosts('microblog', [{ text: 'hi', media: ['image'], alts: ['x'.repeat(1001)] }]);
    expect(v.valid).toBe(false);
    expect(v.posts[0].reason).toBe("the alt text of image 1 has 1001 characters, over X's limit of 1000");
    expect(checkNetworkPosts('problog', [{ text: 'hi', media: ['image'], alts: ['x'.repeat(1001)] }]).valid).toBe(true);
  });
});
