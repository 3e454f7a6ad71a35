/**
 * postsForNetwork / checkNetworkPosts (text/network.ts): what one network receives for a
 * draft per docs/decisions.md §5, and its verdict.
 */
import { describe, expect, it } from 'vitest';
import { checkNetworkPosts, postsForNetwork } from '../../text/index.js';

const posts = [
  { plainText: 'one', media: ['m1'] },
  { plainText: 'two', media: [] as string[] },
  { plainText: '  ', media: [] as string[] },
];

describe('postsForNetwork', () => {
  it("uses the posts' plain text, dropping empty posts without media", () => {
    expect(postsForNetwork('microblog', posts)).toEqual([
      { text: 'one', media: ['m1'] },
      { text: 'two', media: [] },
    ]);
  });
  it('uses the override split at --- lines, media staying by position', () => {
    expect(postsForNetwork('skyblog', posts, 'A\n---\nB\n---\nC')).toEqual([
      { text: 'A', media: ['m1'] },
      { text: 'B', media: [] },
      { text: 'C', media: [] },
    ]);
    expect(postsForNetwork('skyblog', posts, '   ')).toEqual(postsForNetwork('skyblog', posts));
  });
  it('joins LinkedIn posts with a blank line', () => {
    expect(postsForNetwork('problog', posts)).toEqual([{ text: 'one\n\ntwo', media: ['m1'] }]);
  });
});

describe('checkNetworkPosts', () => {
  it('is valid only when every post fits and there is one', () => {
    expect(checkNetworkPosts('microblog', [{ text: 'ok', media: [] }]).valid).toBe(true);
    expect(
      checkNetworkPosts('microblog', [
        { text: 'ok', media: [] },
        { text: 'a'.repeat(281), media: [] },
      ]).valid,
    ).toBe(false);
    expect(checkNetworkPosts('microblog', []).valid).toBe(false);
    const masto = checkNetworkPosts('fedblog', [{ text: 'a'.repeat(700), media: ['image'] }], { maxCharacters: 1000 });
    expect(masto).toEqual({ valid: true, posts: [{ count: 700, limit: 1000, valid: true }] });
  });
});
