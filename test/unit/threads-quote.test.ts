/**
 * Threads quotes only the account's own posts (it quotes by post id, which only the account's own
 * posts can be looked up for): text/quote-url.ts reads the author from a Threads link, and
 * text/post-options.ts makes another account's post a problem for Threads when the account is
 * known, as the composer, the networks endpoint and the publish check all ask it.
 */
import { describe, expect, it } from 'vitest';
import { optionsVerdict, parseQuoteUrl } from '../../text/index.js';

const facts = (handle?: string | null) => ({ texts: ['Look at this'], firstMedia: 0, handle });

describe('a Threads quote', () => {
  it("reads the post's author from its link", () => {
    expect(parseQuoteUrl('https://www.threads.net/@some.one/post/DAbCdEf1234?xmt=1')).toMatchObject({
      platform: 'threadblog',
      code: 'DAbCdEf1234',
      author: 'some.one',
    });
    expect(parseQuoteUrl('https://threads.com/@me_too/post/C0dE5')?.author).toBe('me_too');
  });

  it.each([
    ['another account', 'https://www.threads.net/@someone.else/post/DAbCdEf1234', 'herald.tester', 1],
    ['its own, in other letter case', 'https://www.threads.net/@Herald.Tester/post/DAbCdEf1234', 'herald.tester', 0],
    [
      'its own, the handle written with @',
      'https://www.threads.com/@herald.tester/post/DAbCdEf1234',
      '@herald.tester',
      0,
    ],
    ['no account known (nothing to compare)', 'https://www.threads.net/@someone.else/post/DAbCdEf1234', undefined, 0],
  ] as const)('of %s: %i problem(s)', (_what, quoteUrl, handle, n) => {
    const v = optionsVerdict('threadblog', { quoteUrl }, facts(handle));
    expect(v.problems).toHaveLength(n);
    if (n) {
      expect(v.problems[0]).toEqual({
        option: 'quoteUrl',
        reason:
          "Threads quotes only this account's own posts, and this is @someone.else's: quote it in the " +
          'Threads app, or remove the quote',
      });
    }
    expect(v.dropped).toEqual([]);
  });

  it('names no post when a link has a broken %-escape where the author or post is read', () => {
    for (const url of [
      'https://www.threads.net/@%E0/post/DAbCdEf1234',
      'https://bsky.app/profile/%E0/post/3kabc',
      'https://www.linkedin.com/feed/update/%E0',
    ])
      expect(parseQuoteUrl(url), url).toBeNull();
  });

  it('is not checked against the account on the other networks', () => {
    const url = 'https://www.threads.net/@someone.else/post/DAbCdEf1234';
    for (const p of ['microblog', 'skyblog', 'fedblog', 'problog'] as const) {
      const v = optionsVerdict(p, { quoteUrl: url }, facts('herald.tester'));
      expect(v.problems, p).toEqual([]);
      expect(
        v.dropped.map((d) => d.option),
        p,
      ).toEqual(['quoteUrl']);
    }
  });
});
