/**
 * Hard text and what each network counts for it, worked out by hand from each network's rule
 * (docs/decisions.md §19). Shared by the unit tests of the counting module and the HTTP tests of drafts.
 */
import { utf8Length, type Platform } from '../../text/index.js';

export type Row = [name: string, text: string, counts: Record<Platform, number>];

export const all = (n: number): Record<Platform, number> => ({
  microblog: n,
  skyblog: n,
  fedblog: n,
  threadblog: n,
  problog: n,
});

// "Read " 5 + URL 36 + " now" 4 = 45 characters; a URL counts 23 on X and Mastodon.
export const withScheme = 'Read https://example.com/a/b?x=1&y=2#frag now';
// "Visit " 6 + 20 + " today" 6 = 32: X links a bare domain (23 even though it is shorter),
// Mastodon only links URLs with a scheme, so it counts the 20 characters.
export const noScheme = 'Visit example.com/path?q=1 today';

export const HARD_TEXT: Row[] = [
  ['plain ASCII', 'Hello, world!', all(13)],
  [
    'URL with scheme, path, query, fragment',
    withScheme,
    { microblog: 32, skyblog: 45, fedblog: 32, threadblog: 45, problog: 45 },
  ],
  [
    'URL without scheme, with path and query',
    noScheme,
    { microblog: 35, skyblog: 32, fedblog: 32, threadblog: 32, problog: 32 },
  ],
  [
    'two URLs',
    'a http://x.io b https://example.org/very/long/path/that/goes/on?and=on',
    { microblog: 2 + 23 + 3 + 23, skyblog: 70, fedblog: 2 + 23 + 3 + 23, threadblog: 70, problog: 70 },
  ],
  // One grapheme each; X weighs an emoji sequence 2; Threads counts emoji by UTF-8 bytes.
  ['emoji with skin tone', '👍🏽', { microblog: 2, skyblog: 1, fedblog: 1, threadblog: 8, problog: 1 }],
  ['ZWJ family', '👨‍👩‍👧‍👦', { microblog: 2, skyblog: 1, fedblog: 1, threadblog: 4 * 4 + 3 * 3, problog: 1 }],
  ['flag', '🇫🇷', { microblog: 2, skyblog: 1, fedblog: 1, threadblog: 8, problog: 1 }],
  [
    'emoji in text',
    'ok 👩🏾‍💻 go',
    { microblog: 3 + 2 + 3, skyblog: 7, fedblog: 7, threadblog: 6 + utf8Length('👩🏾‍💻'), problog: 7 },
  ],
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
  [
    'remote mention on Mastodon',
    '@bob@mastodon.social hi',
    { microblog: 23, skyblog: 23, fedblog: 7, threadblog: 23, problog: 23 },
  ],
];

/**
 * Long texts of every shape issue #19 names (plain prose, dotted `a.a.a.`, emoji with ZWJ
 * sequences and skin tones, URL-dense, RTL, zero-width characters), exactly `n` UTF-16 units
 * long (a unit pattern repeated, cut at a code point). Shared by bench/counting.bench.ts, the
 * stall test and the linear-counting unit tests.
 */
export const LONG_SHAPES: Record<string, string> = {
  plain: 'The quick brown fox jumps over the lazy dog, then rests a while. ',
  dotted: 'a.',
  emoji: '👍🏽 👨‍👩‍👧‍👦🇫🇷😀🏳️‍🌈 1️⃣👩🏾‍💻 ✌️',
  'URL-dense': 'see https://example.com/p/42?q=1 and b.org/x or @bob@mastodon.social ',
  RTL: 'שלום עולם \u200fمرحبا بالعالم\u200e نص عربي مُشَكَّل ',
  'zero-width': 'a\u200db\u200bc\u200cd\u2060e\ufeff ',
};

export function longText(shape: string, n: number): string {
  const unit = LONG_SHAPES[shape];
  let s = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  // Never end on the first half of a surrogate pair.
  const last = s.charCodeAt(s.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1) + 'x';
  return s;
}
