/**
 * The one-pass grapheme counter (text/graphemes.ts) and the shared counting of one text
 * for all networks (TextFacts) against the platform's Intl.Segmenter and twitter-text itself,
 * and the time goal of issue #19 item 1: 100k characters of any shape ≤ 20 ms for all networks.
 */
import twitterText from 'twitter-text';
import { describe, expect, it } from 'vitest';
import { countText, PLATFORMS, TextFacts, validatePost } from '../../text/index.js';
import { ALONE, classOf, COMPLEX, graphemeStats, JOINS, SIMPLE, utf8Bytes } from '../../text/graphemes.js';
import { weightedLength } from '../../text/urls.js';
import { LONG_SHAPES, longText } from '../helpers/hard-text.js';

const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const clusters = (s: string) => Array.from(seg.segment(s), (x) => x.segment);
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const enc = new TextEncoder();

describe('character classes agree with Intl.Segmenter', () => {
  it('every BMP code unit the counter handles itself behaves as its class says', () => {
    const wrong: string[] = [];
    const n = (s: string) => clusters(s).length;
    for (let c = 0; c < 0x10000; c++) {
      const k = classOf(c);
      if (k === COMPLEX) continue;
      const ch = String.fromCharCode(c);
      const hex = c.toString(16);
      if (EMOJI.test(ch)) wrong.push(`${hex} is an emoji`);
      if (k === SIMPLE && (n(`a${ch}`) !== 2 || n(`${ch}a`) !== 2 || n(ch + ch) !== 2)) wrong.push(`${hex} simple`);
      // Joins what precedes it, never what follows; not after a control character.
      if (k === JOINS && (n(`a${ch}`) !== 1 || n(`a${ch}${ch}`) !== 1 || n(`${ch}a`) !== 2 || n(`\u0001${ch}`) !== 2))
        wrong.push(`${hex} joins`);
      if (
        k === ALONE &&
        c !== 13 &&
        c !== 10 &&
        (n(`a${ch}a`) !== 3 || n(`${ch}\u0301`) !== 2 || n(`\u0600${ch}`) !== 2 || n(ch + ch) !== 2)
      )
        wrong.push(`${hex} alone`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('counts equal one Intl.Segmenter pass', () => {
  const pieces = [
    'a',
    ' ',
    '.',
    'é',
    'e\u0301',
    'ש',
    'מִ',
    'م',
    'مُ',
    '\u200f',
    '\u200e',
    '日',
    '한',
    '\u1100\u1161\u11a8',
    '\u1100',
    '\u1161',
    'क्ष',
    'क',
    '\u094d',
    '\u0301',
    'ก',
    '\u0e33',
    '\u0600',
    '\u0d4e',
    '👍🏽',
    '👨‍👩‍👧‍👦',
    '🇫🇷',
    '🇩',
    '🏳️‍🌈',
    '1️⃣',
    '©',
    '©\ufe0f',
    '✌️',
    '\u200d',
    '\u200c',
    '\u200b',
    '\u2060',
    '\ufeff',
    '\ufe0f',
    '\r\n',
    '\r',
    '\n',
    '\t',
    '\u0001',
    '\ud83d',
    '\ude00',
    'ﾞ',
    'ｶ',
    '\u00ad',
    'https://x.org/p?q=1',
    'b.com',
  ];
  const want = (s: string) => {
    const cs = clusters(s);
    return { count: cs.length, emojiBytes: cs.reduce((n, g) => n + (EMOJI.test(g) ? enc.encode(g).length : 1), 0) };
  };

  it('on 3000 random mixes of hard pieces', () => {
    let seed = Number(process.env.COUNTING_SEED ?? 11);
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const n = Math.floor(rand() * 60);
      for (let j = 0; j < n; j++) s += pieces[Math.floor(rand() * pieces.length)];
      expect(graphemeStats(s), JSON.stringify(s)).toEqual(want(s));
      expect(utf8Bytes(s), JSON.stringify(s)).toBe(enc.encode(s).length);
    }
  });

  it('on long texts of every shape and on stretches longer than a segmenter window', () => {
    for (const shape of Object.keys(LONG_SHAPES)) {
      const s = longText(shape, 20_000);
      expect(graphemeStats(s), shape).toEqual(want(s));
    }
    const long = '👨‍👩‍👧‍👦🇫🇷'.repeat(3000) + 'ok' + `Z${'\u0351'.repeat(5000)}` + '🇫'.repeat(4001);
    expect(graphemeStats(long)).toEqual(want(long));
  });

  it('X: same weighted length and validity as parseTweet on emoji, URLs and IDN domains', () => {
    const xPieces = [
      ...pieces,
      'http://t.co/abc',
      `https://t.co/${'a'.repeat(41)}`,
      'https://例え.jp/x',
      'xn--p1ai.рф',
      'http://xn--d1acufc.xn--p1ai/a',
      'a@b.com',
      '.com/x',
      `https://${'a'.repeat(64)}.com`,
    ];
    let seed = 5;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < 2000; i++) {
      let s = '';
      const n = Math.floor(rand() * 40);
      for (let j = 0; j < n; j++) s += xPieces[Math.floor(rand() * xPieces.length)] + (rand() < 0.3 ? ' ' : '');
      const parsed = twitterText.parseTweet(s);
      const got = weightedLength(s, twitterText.configs.defaults);
      expect(got.weightedLength, JSON.stringify(s)).toBe(parsed.weightedLength);
      expect(got.valid, JSON.stringify(s)).toBe(parsed.valid);
    }
  });

  it('a TextFacts shared across networks gives each network the answer it gives alone', () => {
    for (const shape of Object.keys(LONG_SHAPES)) {
      const s = longText(shape, 3000);
      const facts = new TextFacts(s);
      for (const p of PLATFORMS) expect(validatePost(p, s, [], {}, facts), `${shape} ${p}`).toEqual(validatePost(p, s));
      // Facts of another text are not used for this one.
      expect(countText('problog', 'abc', {}, facts).count).toBe(3);
    }
  });
});

describe('time (issue #19 item 1)', () => {
  // Linear, not quadratic: 10× the text costs about 10× the time, whatever the machine's speed or
  // load (the ≤ 20 ms goal itself is the counting bench's: npm run bench -- counting). The old code
  // took seconds for 100k dotted characters and 39–52 ms for 100k of emoji, zero-width or RTL.
  it.each(Object.keys(LONG_SHAPES))(
    '%s: 10× the text costs at most 30× the time (quadratic is 100×), and 100,000 characters well under a second',
    (shape) => {
      const once = (text: string) => {
        const t0 = performance.now();
        const facts = new TextFacts(text);
        for (const p of PLATFORMS) validatePost(p, text, [], {}, facts);
        return performance.now() - t0;
      };
      const smallText = longText(shape, 10_000);
      const largeText = longText(shape, 100_000);
      once(smallText);
      once(largeText);
      // The fastest of 15 each, taken in turns: load from other work on a shared machine (a whole
      // suite on 2 cores) only ever slows a run down, taking turns spreads it over both sizes, and
      // a garbage collection in one run is not the algorithm.
      let small = Infinity;
      let large = Infinity;
      for (let i = 0; i < 15; i++) {
        small = Math.min(small, once(smallText));
        large = Math.min(large, once(largeText));
      }
      // Quadratic work would be 100×; linear is 10× (n log n about 12.5×). 30× leaves room for a
      // loaded machine (17-20× was seen at load 15) and still fails anything quadratic.
      expect(large / Math.max(small, 0.05)).toBeLessThan(30);
      expect(large).toBeLessThan(250);
    },
  );
});
