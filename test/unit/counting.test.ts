/**
 * Per-network counting on hard text (text/counting.ts). Expected figures are worked out
 * by hand from each network's rule (docs/decisions.md §19), and X's agree with twitter-text's own
 * parseTweet on every case and on random mixes of the hard pieces.
 */
import twitterText from 'twitter-text';
import { describe, expect, it } from 'vitest';
import {
  checkMedia,
  countOptionsFromMeta,
  countText,
  graphemeBoundaries,
  graphemeCount,
  strictest,
  validatePost,
  type Platform,
} from '../../text/index.js';
import { HARD_TEXT, withScheme } from '../helpers/hard-text.js';

describe.each(HARD_TEXT)('%s', (_name, text, counts) => {
  it.each(Object.keys(counts) as Platform[])('%s', (platform) => {
    const v = countText(platform, text);
    expect(v.count).toBe(counts[platform]);
    expect(v.valid).toBe(true);
  });
  it('X agrees with twitter-text parseTweet', () => {
    const parsed = twitterText.parseTweet(text);
    expect(countText('microblog', text).count).toBe(parsed.weightedLength);
    expect(countText('microblog', text).valid).toBe(parsed.valid);
  });
});

describe('X limit', () => {
  it('280 weighted is valid, 281 is not', () => {
    const cases: [string, boolean][] = [
      ['a'.repeat(280), true],
      ['a'.repeat(281), false],
      ['日'.repeat(140), true],
      ['日'.repeat(140) + 'a', false],
      ['日'.repeat(139) + 'ab', true],
      ['👍🏽'.repeat(140), true],
      ['👍🏽'.repeat(140) + 'a', false],
      [Array.from({ length: 12 }, (_, i) => `https://example.com/${i}`).join(' '), true], // 12×23 + 11 = 287
    ];
    for (const [text, valid] of cases) {
      const parsed = twitterText.parseTweet(text);
      const v = countText('microblog', text);
      expect(v.count).toBe(parsed.weightedLength);
      expect(v.valid).toBe(parsed.valid);
      if (text.startsWith('https')) expect(v.count).toBe(287);
      else expect(v.valid).toBe(valid);
    }
    expect(countText('microblog', 'a'.repeat(280)).count).toBe(280);
    expect(validatePost('microblog', 'a'.repeat(281)).reason).toMatch(/281 of 280/);
  });

  it('a longer limit (premium) comes from the account', () => {
    expect(
      countText('microblog', 'a'.repeat(1000), countOptionsFromMeta('microblog', { max_characters: 25000 })),
    ).toEqual({ count: 1000, limit: 25000, valid: true });
  });

  it('agrees with parseTweet on 2000 random mixes of hard pieces', () => {
    const pieces = [
      'a',
      ' ',
      '\n',
      '\r\n',
      'é',
      'e\u0301',
      '日',
      '한',
      'ש',
      'م',
      '👍🏽',
      '👨‍👩‍👧‍👦',
      '🇫🇷',
      '🏳️‍🌈',
      'example.com',
      'https://x.org/p?q=1',
      '@alice',
      '#tag',
      '.',
      '\u200d',
      '\ufe0f',
      'Ω',
      '€',
      '–',
    ];
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < 2000; i++) {
      let s = '';
      const n = Math.floor(rand() * 120);
      for (let j = 0; j < n; j++) s += pieces[Math.floor(rand() * pieces.length)];
      const parsed = twitterText.parseTweet(s);
      const v = countText('microblog', s);
      expect(v.count, s).toBe(parsed.weightedLength);
      if (s !== '') expect(v.valid, s).toBe(parsed.valid);
    }
  });
});

describe('other limits', () => {
  it('Bluesky: 300 graphemes and 3000 bytes', () => {
    expect(countText('skyblog', 'a'.repeat(300)).valid).toBe(true);
    expect(countText('skyblog', 'a'.repeat(301)).valid).toBe(false);
    expect(countText('skyblog', '👍🏽'.repeat(300))).toEqual({ count: 300, limit: 300, valid: true });
    // 119 families are 119 graphemes but 119 × 25 = 2975 bytes; 121 are 3025 bytes.
    expect(countText('skyblog', '👨‍👩‍👧‍👦'.repeat(119)).valid).toBe(true);
    const heavy = countText('skyblog', '👨‍👩‍👧‍👦'.repeat(121));
    expect(heavy).toMatchObject({ count: 121, limit: 300, valid: false });
    expect(heavy.reason).toMatch(/3025 of 3000 bytes/);
  });

  it('Mastodon: 500 or the instance max_characters, URLs at characters_reserved_per_url', () => {
    expect(countText('fedblog', 'a'.repeat(500)).valid).toBe(true);
    expect(countText('fedblog', 'a'.repeat(501)).valid).toBe(false);
    const opts = countOptionsFromMeta('fedblog', { max_characters: 5000, characters_reserved_per_url: 30 });
    expect(countText('fedblog', 'a'.repeat(501), opts)).toEqual({ count: 501, limit: 5000, valid: true });
    expect(countText('fedblog', withScheme, opts).count).toBe(5 + 30 + 4);
    expect(countText('fedblog', `x https://example.com/${'p'.repeat(600)}`).count).toBe(2 + 23);
  });

  it('Threads 500 and LinkedIn 3000', () => {
    expect(countText('threadblog', 'a'.repeat(500)).valid).toBe(true);
    expect(countText('threadblog', 'a'.repeat(501)).valid).toBe(false);
    expect(countText('threadblog', '👍🏽'.repeat(62) + 'abcd').valid).toBe(true); // 496 + 4
    expect(countText('threadblog', '👍🏽'.repeat(63)).valid).toBe(false); // 504
    expect(countText('problog', 'é'.repeat(3000)).valid).toBe(true);
    expect(countText('problog', 'e\u0301'.repeat(3001)).valid).toBe(false);
  });

  it('an empty post is not valid anywhere unless it has media', () => {
    for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const) {
      expect(validatePost(p, '  ').valid).toBe(false);
      expect(validatePost(p, '', ['image']).valid).toBe(true);
    }
  });

  it('graphemeCount agrees with Intl.Segmenter on ASCII fast path edge cases', () => {
    const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    for (const s of ['', 'a', '\r\n', '\r\r\n\n', 'a\r\nb\rc\n', '\r\n\r\n'])
      expect(graphemeCount(s)).toBe([...seg.segment(s)].length);
  });
});

describe('long text', () => {
  it('segments in windows exactly as one pass over the whole text would', () => {
    const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    // Regional indicators pair up across windows; a Prepend character joins what follows; one
    // cluster of 3,000 combining marks is longer than a window.
    const pieces = [
      'a',
      'e\u0301',
      '🇫🇷',
      '🇩',
      '👨‍👩‍👧‍👦',
      '\r\n',
      '\r',
      '\n',
      '日',
      `Z${'\u0351'.repeat(3000)}`,
      '\u0600',
      ' ',
    ];
    let seed = 3;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let k = 0; k < 20; k++) {
      let s = '';
      while (s.length < 9000) s += pieces[Math.floor(rand() * pieces.length)];
      const whole = Array.from(seg.segment(s), (x) => x.index);
      expect(graphemeBoundaries(s)).toEqual([...whole, s.length]);
      expect(graphemeCount(s)).toBe(whole.length);
    }
  });
  it('a window edge between the halves of a surrogate pair does not split the cluster before it', () => {
    const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    // The flag's rainbow starts at 2047: a window of 2048 used to end on its first half.
    for (const s of ['a'.repeat(2043) + '🏳️‍🌈b', 'a'.repeat(2045) + '👍🏽b']) {
      expect(graphemeBoundaries(s)).toEqual([...Array.from(seg.segment(s), (x) => x.index), s.length]);
      expect(graphemeCount(s)).toBe([...seg.segment(s)].length);
    }
  });
  it('counts 100,000 characters in linear time', () => {
    const t0 = performance.now();
    for (const p of ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const)
      expect(countText(p, '日本語の文章です👍🏽'.repeat(10_000)).valid).toBe(false);
    // One pass of Intl.Segmenter over the whole text took many seconds.
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});

describe('media per network (spec Limits table)', () => {
  const img = (n: number) => Array.from({ length: n }, () => 'image' as const);
  it.each([
    ['microblog', img(4), true],
    ['microblog', img(5), false],
    ['microblog', ['video'], true],
    ['microblog', ['video', 'image'], false],
    ['microblog', ['gif'], true],
    ['microblog', ['gif', 'image'], false],
    ['skyblog', img(4), true],
    ['skyblog', img(5), false],
    ['skyblog', ['video'], true],
    ['skyblog', ['video', 'image'], false],
    ['fedblog', img(4), true],
    ['fedblog', img(5), false],
    ['fedblog', ['video'], true],
    ['fedblog', ['video', 'video'], false],
    ['threadblog', img(20), true],
    ['threadblog', img(21), false],
    ['threadblog', ['video'], true],
    ['threadblog', ['video', 'image'], false],
    ['problog', img(20), true],
    ['problog', img(21), false],
    ['problog', ['video'], true],
    ['problog', ['video', 'image'], false],
    ['problog', ['document'], true],
    ['problog', ['document', 'image'], false],
    ['skyblog', ['document'], false],
  ] as [Platform, ('image' | 'gif' | 'video' | 'document')[], boolean][])('%s %j → %s', (platform, media, ok) => {
    expect(checkMedia(platform, media) === undefined).toBe(ok);
    expect(validatePost(platform, 'text', media).valid).toBe(ok);
  });
  it('a Mastodon instance may allow more attachments', () => {
    expect(checkMedia('fedblog', img(6), { maxMediaAttachments: 8 })).toBeUndefined();
  });
});

describe('strictest', () => {
  it('picks an invalid verdict first, else the one with least room', () => {
    expect(
      strictest([
        { count: 10, limit: 500, valid: true },
        { count: 10, limit: 100, valid: true },
      ]).limit,
    ).toBe(100);
    expect(
      strictest([
        { count: 10, limit: 100, valid: true },
        { count: 600, limit: 500, valid: false },
      ]).valid,
    ).toBe(false);
  });
});
