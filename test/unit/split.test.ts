/**
 * The thread splitter (text/split.ts): every post fits the chosen network by that
 * network's own count, the posts read back to the original text (each is a slice of it, only
 * whitespace between), and no break falls inside a URL, a mention or a grapheme cluster.
 */
import twitterText from 'twitter-text';
import { describe, expect, it } from 'vitest';
import {
  PLATFORMS,
  countText,
  graphemeBoundaries,
  joinThreadText,
  splitForPlatform,
  splitThreadText,
  type CountOptions,
  type Platform,
} from '../../text/index.js';

/** Offsets of each part in `text`, asserting the read-back invariant on the way. */
function readBack(text: string, parts: string[]): [number, number][] {
  const spans: [number, number][] = [];
  let at = 0;
  for (const p of parts) {
    expect(p.length).toBeGreaterThan(0);
    const start = text.indexOf(p, at);
    expect(start, `part not found in order: ${JSON.stringify(p.slice(0, 40))}`).toBeGreaterThanOrEqual(at);
    expect(text.slice(at, start).trim(), 'only whitespace between parts').toBe('');
    spans.push([start, start + p.length]);
    at = start + p.length;
  }
  expect(text.slice(at).trim()).toBe('');
  expect(parts.join('').replace(/\s+/gu, '')).toBe(text.replace(/\s+/gu, ''));
  return spans;
}

function protectedSpans(text: string): [number, number][] {
  return [
    ...twitterText.extractUrlsWithIndices(text).map((u) => u.indices),
    ...[
      ...text.matchAll(
        /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*(?:@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)?/gu,
      ),
    ].map((m) => [m.index, m.index + m[0].length] as [number, number]),
  ];
}

function check(text: string, platform: Platform, opts: CountOptions = {}) {
  const parts = splitForPlatform(text, platform, opts);
  for (const p of parts) {
    const v = countText(platform, p, opts);
    expect(v.valid, `${platform}: ${v.count}/${v.limit} ${JSON.stringify(p.slice(0, 60))}`).toBe(true);
  }
  const offsets = readBack(text, parts);
  const bounds = new Set(graphemeBoundaries(text));
  const keep = protectedSpans(text);
  for (const [s, e] of offsets) {
    expect(bounds.has(s) && bounds.has(e), 'breaks fall between grapheme clusters').toBe(true);
    for (const [ks, ke] of keep) {
      const cut = (s > ks && s < ke) || (e > ks && e < ke);
      expect(cut, `cuts ${JSON.stringify(text.slice(ks, ke))}`).toBe(false);
    }
  }
  return parts;
}

let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];

const WORDS = [
  'the',
  'quick',
  'brown',
  'fox',
  'jumps',
  'over',
  'lazy',
  'dogs',
  'déjà',
  'vu',
  'naïve',
  'e\u0301te\u0301',
  '日本語',
  'テキスト',
  '한국어',
  'שלום',
  'مرحبا',
  '👍🏽',
  '👨‍👩‍👧‍👦',
  '🇫🇷',
  'https://example.com/path?q=1&r=2',
  'example.org/a/b',
  '@alice',
  '@bob@mastodon.social',
  '@carol.bsky.social',
  '#hashtag',
  'antidisestablishmentarianism',
];
const ENDS = ['', '', '', '.', ',', '!', '?', '\n', '\n\n'];

function randomText(words: number): string {
  let s = '';
  for (let i = 0; i < words; i++) {
    const end = pick(ENDS);
    s += pick(WORDS) + (end === '.' || end === '!' || end === '?' || end === ',' ? end + ' ' : end === '' ? ' ' : end);
  }
  return s;
}

const ESSAY = Array.from(
  { length: 40 },
  (_, i) => `Sentence number ${i} talks about https://example.com/path/${i}?q=${i}&lang=en with @alice and #tag${i}.`,
).join(' ');

describe.each(PLATFORMS.map((p) => [p]))('%s', (platform) => {
  it('keeps text that fits as one post', () => {
    expect(splitForPlatform('  Short and sweet.  ', platform)).toEqual(['Short and sweet.']);
    expect(splitForPlatform('   ', platform)).toEqual([]);
  });
  it('splits an essay with URLs, mentions and hashtags', () => {
    const parts = check(ESSAY, platform);
    if (platform !== 'problog') expect(parts.length).toBeGreaterThan(1);
    // Sentence ends win when they leave a reasonably full post.
    for (const p of parts) expect(p.endsWith('.')).toBe(true);
  });
  it('splits CJK without spaces, at sentence ends', () => {
    const text = '日本語の文章です。'.repeat(400);
    const parts = check(text, platform);
    for (const p of parts) expect(p.endsWith('。')).toBe(true);
  });
  it('splits one huge word between graphemes, emoji runs and combining marks intact', () => {
    check('x'.repeat(7000), platform);
    check('👨‍👩‍👧‍👦'.repeat(900), platform);
    check('e\u0301'.repeat(4000), platform);
    check('🇫🇷🇩🇪'.repeat(1000), platform);
  });
  it('never cuts a URL or mention even where only grapheme breaks exist', () => {
    const tokens = [
      'https://example.com/path/to/page?query=1&x=2',
      '@alice_handle',
      '@bob@mastodon.social',
      'example.org/a?b=c',
    ];
    for (let i = 0; i < 30; i++) {
      let text = '';
      for (let j = 0; j < 40; j++)
        text +=
          '日本語のテキスト'.slice(0, 1 + Math.floor(rand() * 8)).repeat(1 + Math.floor(rand() * 20)) +
          '、' +
          pick(tokens) +
          '、';
      expect(protectedSpans(text).length).toBeGreaterThan(20);
      check(text, platform);
    }
  });
  it('random mixes of hard text', () => {
    for (let i = 0; i < 25; i++) check(randomText(50 + Math.floor(rand() * 700)), platform);
  });
});

describe('rules of one account', () => {
  it('Mastodon instance limits change where it splits', () => {
    const small = check(ESSAY, 'fedblog');
    const big = check(ESSAY, 'fedblog', { maxCharacters: 5000 });
    expect(big).toHaveLength(1);
    expect(small.length).toBeGreaterThan(1);
  });
  it('a URL longer than a whole post stays whole where its network counts it fixed', () => {
    const url = `https://example.com/${'p'.repeat(600)}`;
    const text = `${'word '.repeat(100)}${url} ${'more '.repeat(100)}`;
    const x = check(text, 'microblog');
    expect(x.some((p) => p.includes(url))).toBe(true);
    const masto = check(text, 'fedblog');
    expect(masto.some((p) => p.includes(url))).toBe(true);
  });
  it('prefers a sentence end over a fuller post cut mid-sentence', () => {
    const text = `${'a '.repeat(100)}end of the first sentence. ${'b '.repeat(100)}`;
    const parts = splitForPlatform(text, 'microblog');
    expect(parts[0].endsWith('first sentence.')).toBe(true);
  });
});

describe('long text', () => {
  it('splits 100,000 characters without counting the rest of the text at every post', () => {
    const t0 = performance.now();
    const parts = check('日本語の文章です'.repeat(12_500), 'microblog');
    expect(parts.length).toBeGreaterThan(700);
    // Quadratic work took about 20 s here; linear takes well under one.
    expect(performance.now() - t0).toBeLessThan(8000);
  });
});

describe('--- thread text', () => {
  it('splits at lines holding only ---, trims, drops empty posts', () => {
    expect(splitThreadText('one\n---\ntwo\r\n --- \r\nthree')).toEqual(['one', 'two', 'three']);
    expect(splitThreadText('---\nfirst\n---\n\n---\nsecond\n---')).toEqual(['first', 'second']);
    expect(splitThreadText('a --- b\n----\nc')).toEqual(['a --- b\n----\nc']);
    expect(splitThreadText(joinThreadText(['x', 'y']))).toEqual(['x', 'y']);
  });
});
