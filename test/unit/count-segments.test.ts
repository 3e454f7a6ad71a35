/**
 * Long text counted in pieces (text/segments.ts) gives every network's verdict on the whole text:
 * random mixes of the pieces that make counting hard (URLs bare and with a scheme, remote
 * mentions, emoji sequences, flags, keycaps, combining marks, CR LF, characters X refuses) are
 * cut into small pieces and their measures summed.
 */
import { describe, expect, it } from 'vitest';
import {
  countSegments,
  countText,
  measureInPieces,
  PLATFORMS,
  TextFacts,
  verdictOfMeasure,
  type CountOptions,
} from '../../text/index.js';

const PIECES = [
  'a',
  'word',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '.',
  ',',
  '!',
  '@',
  '#',
  '-',
  '/',
  ':',
  'é',
  'e\u0301',
  ' \u0301',
  '\u0301',
  '中文',
  'م',
  '👍🏽',
  '👨‍👩‍👧‍👦',
  '🇫🇷',
  '#\ufe0f\u20e3',
  '1\u20e3',
  '\u200d',
  '\ufeff',
  '\ufffe',
  'example.com',
  'https://example.com/notes/why?x=1',
  'http://a.org',
  't.co/abc',
  'www.',
  '@friend',
  '@friend@mastodon.social',
  '#herald',
  'a'.repeat(90),
];

function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const OPTIONS: CountOptions[] = [{}, { maxCharacters: 1000, charactersReservedPerUrl: 30 }];

describe('counting in pieces', () => {
  it('cuts only before a space or line feed after a printable ASCII character, and loses nothing', () => {
    const text = 'x'.repeat(30) + ' é ' + 'y'.repeat(30) + '\n' + 'z'.repeat(40) + ' 👍 tail';
    const pieces = countSegments(text, 16);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(2);
    for (const p of pieces.slice(1)) expect(p[0] === ' ' || p[0] === '\n').toBe(true);
    expect(countSegments('short text', 1024)).toEqual(['short text']);
  });

  it('gives each network the verdict (and the facts) of the whole text on 1500 random mixes', () => {
    const rand = random(Number(process.env.COUNTING_SEED ?? 11));
    let cut = 0;
    for (let i = 0; i < 1500; i++) {
      let text = '';
      const n = Math.floor(rand() * 120);
      for (let j = 0; j < n; j++) text += PIECES[Math.floor(rand() * PIECES.length)];
      const size = 1 + Math.floor(rand() * 40);
      const pieces = countSegments(text, size);
      if (pieces.length > 1) cut++;
      const whole = new TextFacts(text);
      const joined = TextFacts.joined(
        text,
        pieces.map((p) => new TextFacts(p)),
      );
      expect([joined.graphemes, joined.utf8, joined.urls], JSON.stringify(text)).toEqual([
        whole.graphemes,
        whole.utf8,
        whole.urls,
      ]);
      for (const platform of PLATFORMS)
        for (const opts of OPTIONS) {
          const whole = countText(platform, text, opts);
          const summed = verdictOfMeasure(platform, measureInPieces(platform, text, opts, undefined, size), opts);
          expect(summed, `${platform} ${JSON.stringify(opts)} ${JSON.stringify(text)} cut every ${size}`).toEqual(
            whole,
          );
        }
    }
    // The mixes are cut, most of them more than once.
    expect(cut).toBeGreaterThan(1000);
  });

  it('remembers pieces: an edit at the end measures only the last piece again', () => {
    const text = 'We shipped it 🎉 read https://example.com/notes and tell @friend #herald. '.repeat(150);
    const seen: string[] = [];
    const measure = (piece: string) => {
      seen.push(piece);
      return { count: piece.length };
    };
    measureInPieces('problog', text, {}, measure);
    expect(seen.length).toBeGreaterThan(5);
    const first = new Set(seen);
    seen.length = 0;
    measureInPieces('problog', `${text}more`, {}, measure);
    expect(seen.filter((p) => !first.has(p))).toHaveLength(1);
  });
});
