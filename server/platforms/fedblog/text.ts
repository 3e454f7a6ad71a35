/**
 * Mastodon returns a status's text as HTML (`<p>`, `<br>`, links whose visible text is split
 * into invisible/ellipsis spans). To recognise our own post we compare on plain text: every text
 * node kept (the invisible spans hold the rest of each URL), paragraphs and line breaks as
 * newlines, entities decoded, then whitespace folded on both sides.
 */
import { Parser } from '../../core/html-parser.js';

export function mastoHtmlToText(html: string): string {
  let out = '';
  let paragraphs = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'br') out += '\n';
        if (name === 'p' && paragraphs++ > 0) out += '\n\n';
      },
      ontext(text) {
        out += text;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

/** Text as a person would compare it: NFC, whitespace folded. */
export const foldText = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** True when a status's HTML content carries exactly this plain text. */
export const sameStatusText = (html: string, text: string) => foldText(mastoHtmlToText(html)) === foldText(text);
