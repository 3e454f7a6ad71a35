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
  it('gives LinkedIn the first post as the post and the others as its text-only comments', () => {
    expect(postsForNetwork('problog', posts)).toEqual([
      { text: 'one', media: ['m1'] },
      { text: 'two', media: [] },
    ]);
    // A later part's media goes with the post: Herald's comments carry text only.
    expect(postsForNetwork('problog', [...posts, { plainText: 'four', media: ['m4'] }])).toEqual([
      { text: 'one', media: ['m1', 'm4'] },
      { text: 'two', media: [] },
      { text: 'four', media: [] },
    ]);
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
  it("counts LinkedIn's post against 3000 and each comment against 1250", () => {
    const li = checkNetworkPosts('problog', [
      { text: 'a'.repeat(2000), media: [] },
      { text: 'b'.repeat(1250), media: [] },
      { text: 'c'.repeat(1251), media: [] },
    ]);
    expect(li.valid).toBe(false);
    expect(li.posts).toEqual([
      { count: 2000, limit: 3000, valid: true },
      { count: 1250, limit: 1250, valid: true },
      { count: 1251, limit: 1250, valid: false, reason: '1251 of 1250 characters in a LinkedIn comment' },
    ]);
  });
});
