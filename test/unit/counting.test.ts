/**
 * Per-network counting on hard text (client/text/counting.ts). Expected figures are worked out
 * by hand from each network's rule (platforms.md), and X's agree with twitter-text's own
 * parseTweet on every case and on random mixes of the hard pieces.
 */
import twitterText from 'twitter-text';
import { describe, expect, it } from 'vitest';
import {
  checkMedia, countOptionsFromMeta, countText, graphemeCount, strictest, utf8Length, validatePost, type Platform,
} from '../../client/text/index.js';

type Row = [name: string, text: string, counts: Record<Platform, number>];

const all = (n: number): Record<Platform, number> => ({ microblog: n, skyblog: n, fedblog: n, threadblog: n, problog: n });

// "Read " 5 + URL 36 + " now" 4 = 45 characters; a URL counts 23 on X and Mastodon.
const withScheme = 'Read https://example.com/a/b?x=1&y=2#frag now';
// "Visit " 6 + 20 + " today" 6 = 32: X links a bare domain (23 even though it is shorter),
// Mastodon only links URLs with a scheme, so it counts the 20 characters.
const noScheme = 'Visit example.com/path?q=1 today';

const CASES: Row[] = [
  ['plain ASCII', 'Hello, world!', all(13)],
  ['URL with scheme, path, query, fragment', withScheme, { microblog: 32, skyblog: 45, fedblog: 32, threadblog: 45, problog: 45 }],
  ['URL without scheme, with path and query', noScheme, { microblog: 35, skyblog: 32, fedblog: 32, threadblog: 32, problog: 32 }],
  ['two URLs', 'a http://x.io b https://example.org/very/long/path/that/goes/on?and=on', { microblog: 2 + 23 + 3 + 23, skyblog: 70, fedblog: 2 + 23 + 3 + 23, threadblog: 70, problog: 70 }],
  // One grapheme each; X weighs an emoji sequence 2; Threads counts emoji by UTF-8 bytes.
  ['emoji with skin tone', '👍🏽', { microblog: 2, skyblog: 1, fedblog: 1, threadblog: 8, problog: 1 }],
  ['ZWJ family', '👨‍👩‍👧‍👦', { microblog: 2, skyblog: 1, fedblog: 1, threadblog: 4 * 4 + 3 * 3, problog: 1 }],
  ['flag', '🇫🇷', { microblog: 2, skyblog: 1, fedblog: 1, threadblog: 8, problog: 1 }],
  ['emoji in text', 'ok 👩🏾‍💻 go', { microblog: 3 + 2 + 3, skyblog: 7, fedblog: 7, threadblog: 6 + utf8Length('👩🏾‍💻'), problog: 7 }],
  ['CJK', '日本語のテキスト', { microblog: 16, skyblog: 8, fedblog: 8, threadblog: 8, problog: 8 }],
  ['Hangul', '안녕하세요', { microblog: 10, skyblog: 5, fedblog: 5, threadblog: 5, problog: 5 }],
  // e + COMBINING ACUTE: two code points, one grapheme; X normalises to NFC first.
  ['combining accents', 'e\u0301te\u0301', all(3)],
  // X weighs code points (NFC has no precomposed form for these), the others count graphemes.
  ['stacked combining marks', 'Z\u0351\u036b\u0343a\u0310l', { ...all(3), microblog: 7 }],
  // Hebrew and Arabic sit below U+10FF, weight 1 on X.
  ['mixed RTL', 'Hello שלום world مرحبا', all(22)],
  // RLM and LRM (U+200F, U+200E) lie outside X's weight-1 ranges: 2 each.
  ['RTL with marks', 'abc \u200fשלום\u200e def', { ...all(14), microblog: 16 }],
  // CR LF is one grapheme cluster; X counts its two code points.
  ['newlines', 'a\nb\r\nc\n\nd', { microblog: 9, skyblog: 8, fedblog: 8, threadblog: 8, problog: 8 }],
  ['remote mention on Mastodon', '@bob@mastodon.social hi', { microblog: 23, skyblog: 23, fedblog: 7, threadblog: 23, problog: 23 }],
];

describe.each(CASES)('%s', (_name, text, counts) => {
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
      ['a'.repeat(280), true], ['a'.repeat(281), false],
      ['日'.repeat(140), true], ['日'.repeat(140) + 'a', false], ['日'.repeat(139) + 'ab', true],
      ['👍🏽'.repeat(140), true], ['👍🏽'.repeat(140) + 'a', false],
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
    expect(countText('microblog', 'a'.repeat(1000), countOptionsFromMeta('microblog', { max_characters: 25000 }))).toEqual({ count: 1000, limit: 25000, valid: true });
  });

  it('agrees with parseTweet on 2000 random mixes of hard pieces', () => {
    const pieces = ['a', ' ', '\n', '\r\n', 'é', 'e\u0301', '日', '한', 'ש', 'م', '👍🏽', '👨‍👩‍👧‍👦', '🇫🇷', '🏳️‍🌈', 'example.com', 'https://x.org/p?q=1', '@alice', '#tag', '.', '\u200d', '\ufe0f', 'Ω', '€', '–'];
    let seed = 42;
    const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
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
    for (const s of ['', 'a', '\r\n', '\r\r\n\n', 'a\r\nb\rc\n', '\r\n\r\n']) expect(graphemeCount(s)).toBe([...seg.segment(s)].length);
  });
});

describe('media per network (spec Limits table)', () => {
  const img = (n: number) => Array.from({ length: n }, () => 'image' as const);
  it.each([
    ['microblog', img(4), true], ['microblog', img(5), false], ['microblog', ['video'], true], ['microblog', ['video', 'image'], false], ['microblog', ['gif'], true], ['microblog', ['gif', 'image'], false],
    ['skyblog', img(4), true], ['skyblog', img(5), false], ['skyblog', ['video'], false],
    ['fedblog', img(4), true], ['fedblog', img(5), false], ['fedblog', ['video'], true], ['fedblog', ['video', 'video'], false],
    ['threadblog', img(10), true], ['threadblog', img(11), false], ['threadblog', ['video'], true], ['threadblog', ['video', 'image'], false],
    ['problog', img(20), true], ['problog', img(21), false], ['problog', ['video'], false],
  ] as [Platform, ('image' | 'gif' | 'video')[], boolean][])('%s %j → %s', (platform, media, ok) => {
    expect(checkMedia(platform, media) === undefined).toBe(ok);
    expect(validatePost(platform, 'text', media).valid).toBe(ok);
  });
  it('a Mastodon instance may allow more attachments', () => {
    expect(checkMedia('fedblog', img(6), { maxMediaAttachments: 8 })).toBeUndefined();
  });
});

describe('strictest', () => {
  it('picks an invalid verdict first, else the one with least room', () => {
    expect(strictest([{ count: 10, limit: 500, valid: true }, { count: 10, limit: 100, valid: true }]).limit).toBe(100);
    expect(strictest([{ count: 10, limit: 100, valid: true }, { count: 600, limit: 500, valid: false }]).valid).toBe(false);
  });
});
