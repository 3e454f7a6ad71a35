/**
 * Plain text never lies (issue #19 item 7): text a user typed, turned into post HTML and back,
 * is the same text character for character, however much it looks like markup. Before, markup
 * revealed by decoding entities was stripped: `Use <b>bold</b> or <details> when 2 < 3` came back
 * "Use bold or  when…", and `<p>a &lt;script&gt; b</p>` as "a  b".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToPlain, normaliseContent, plainToHtml } from '../../server/domain/content/html.js';

describe('plain text round trip', () => {
  it('the cases from the issue', () => {
    const typed = 'Use <b>bold</b> or <details> when 2 < 3';
    expect(htmlToPlain(plainToHtml(typed))).toBe(typed);
    expect(htmlToPlain('<p>a &lt;script&gt; b</p>')).toBe('a <script> b');
    expect(normaliseContent('<p>a &lt;script&gt; b</p>').plainText).toBe('a <script> b');
    expect(normaliseContent(plainToHtml(typed)).plainText).toBe(typed);
  });

  it('real tags are still markup', () => {
    expect(normaliseContent('<p>Use <b>bold</b> <script>alert(1)</script>now</p>').plainText).toBe('Use bold now');
  });

  // Line ends are kept as \n (a CR LF is one line end) and trailing ones are dropped: those are
  // the documented normalisations, so the property covers text without CR or a trailing newline.
  const typedText = fc
    .string({
      unit: fc.oneof(
        fc.constantFrom(
          '<',
          '>',
          '&',
          ';',
          '/',
          '"',
          "'",
          '\n',
          'b',
          'script',
          'lt',
          '#',
          'x',
          ' ',
          '<!--',
          '-->',
          '👍🏽',
          'é',
        ),
        fc.string({ unit: 'grapheme', maxLength: 1 }),
      ),
      maxLength: 60,
    })
    .filter((s) => !s.includes('\r') && !s.endsWith('\n') && !s.includes('\0'));

  it('plain(htmlOf(s)) === s for any typed text', () => {
    fc.assert(
      fc.property(typedText, (s) => {
        expect(htmlToPlain(plainToHtml(s))).toBe(s);
        expect(normaliseContent(plainToHtml(s)).plainText).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });
});
