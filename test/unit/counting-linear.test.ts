/**
 * Counting stays linear on every shape of text (issue #19 item 1: 40,000 characters of
 * `a.a.a.` took 1.16 s because twitter-text's URL regex backtracks at every position) and gives
 * exactly twitter-text's own answers: weighted length, validity and URL entities are compared
 * with the library's on a corpus of short texts and random mixes of pieces that stress the cuts.
 */
import twitterText from 'twitter-text';
import { describe, expect, it } from 'vitest';
import { countText, splitForPlatform } from '../../text/index.js';
import { extractUrls, weightedLength } from '../../text/urls.js';

const SHAPES: Record<string, (n: number) => string> = {
  dotted: (n) => 'a.'.repeat(n / 2),
  'CJK glued to a link': (n) => '中'.repeat(n - 20) + 'https://a.com/x',
  'link then a dotted tail': (n) => 'b.com!' + 'a.'.repeat(n / 2),
  'underscored labels': (n) => 'a_a.'.repeat(n / 4) + 'com',
};

describe('linear on texts that made twitter-text quadratic', () => {
  it.each(Object.keys(SHAPES))('%s: 40,000 characters count on X in well under a second', (shape) => {
    const text = SHAPES[shape](40_000);
    const started = performance.now();
    countText('microblog', text);
    countText('fedblog', text);
    const ms = performance.now() - started;
    // The old code took 1.2 s and more on a fast machine; linear code takes tens of ms.
    expect(ms).toBeLessThan(300);
  });

  it('splits 100,000 dotted characters in well under a second', () => {
    const started = performance.now();
    const parts = splitForPlatform('a.'.repeat(50_000), 'microblog');
    expect(parts.join('')).toBe('a.'.repeat(50_000));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('same answers as twitter-text', () => {
  const pieces = [
    'a',
    'a.',
    '.',
    ' ',
    '\n',
    '_',
    '-',
    '/',
    ':',
    '?',
    '(',
    ')',
    '!',
    '@',
    '#',
    'é',
    'e\u0301',
    '<\u0338',
    '中',
    'ש',
    'م',
    '👍🏽',
    '👨‍👩‍👧‍👦',
    '🇫🇷',
    '\u200d',
    '\u200b',
    '\ufeff',
    'com',
    '.com',
    'example.com',
    'https://',
    'https://x.org/p?q=1',
    'xn--p1ai',
    '.рф',
    't.co/abc',
    'www.',
    'co.uk',
    '1.2.3.4',
    'a'.repeat(300),
  ];
  const compare = (s: string) => {
    const want = twitterText.parseTweet(s);
    const got = weightedLength(s, twitterText.configs.defaults);
    expect(got.weightedLength, JSON.stringify(s)).toBe(want.weightedLength);
    expect(got.valid, JSON.stringify(s)).toBe(want.valid);
    expect(extractUrls(s), JSON.stringify(s)).toEqual(twitterText.extractUrlsWithIndices(s));
    expect(extractUrls(s, { extractUrlsWithoutProtocol: false }), JSON.stringify(s)).toEqual(
      twitterText.extractUrlsWithIndices(s, { extractUrlsWithoutProtocol: false }),
    );
  };

  it('on 3000 random mixes of pieces that stress the cuts (some past the 256-character merge)', () => {
    let seed = Number(process.env.COUNTING_SEED ?? 7);
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const n = Math.floor(rand() * 80);
      for (let j = 0; j < n; j++) s += pieces[Math.floor(rand() * pieces.length)];
      compare(s);
    }
  });

  it('on each shape at 2,000 characters and a URL longer than the library allows', () => {
    for (const make of Object.values(SHAPES)) compare(make(2000));
    compare(`see https://example.com/${'a'.repeat(5000)} and ${'x'.repeat(300)} b.com`);
    compare(`${'a.'.repeat(3000)}com then https://c.org/x`);
  });
});
