/**
 * Post and template HTML: sanitised on input to the subset docs/decisions.md §4 allows, and the plain
 * text every network receives derived from it. Pure functions, for Node (the server and CLI).
 */
import { createRequire } from 'node:module';
import { Parser } from '../../core/html-parser.js';
import type SanitizeHtml from 'sanitize-html';
import { plainToHtml } from '../../../text/html.js';

// sanitize-html, with postcss and its own htmlparser2, is about a sixth of the server bundle and
// is needed only when content is written, so it is loaded on first use instead of at start-up.
let sanitizer: typeof SanitizeHtml | undefined;
const sanitizeHtml = (html: string, options: SanitizeHtml.IOptions): string =>
  (sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml)(html, options);

const ALLOWED_TAGS = ['p', 'br', 'a', 'strong', 'b', 'em', 'i', 'ul', 'ol', 'li'];

// Content of these is dropped entirely, not unwrapped into text.
const NON_TEXT_TAGS = [
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'template',
  'title',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
];

// A tag whose name is no element name (`<scr<script>`) is an obfuscation attempt: its content is
// dropped like a script's instead of being unwrapped into text.
const ELEMENT_NAME = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)?$/;
const guardName = (tagName: string, attribs: SanitizeHtml.Attributes) => ({
  tagName: ELEMENT_NAME.test(tagName) ? tagName : 'script',
  attribs,
});

const SANITIZE_OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  nonTextTags: NON_TEXT_TAGS,
  disallowedTagsMode: 'discard',
  transformTags: { '*': guardName },
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true },
};

export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}

const BLOCKS = new Set(['p', 'li', 'div', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'tr']);

/** Text of HTML: tags removed, `<br>` and block ends become newlines, entities decoded. */
function textOf(html: string): string {
  let out = '';
  const parser = new Parser(
    {
      ontext(text) {
        out += text;
      },
      onopentag(name) {
        if (name === 'br') out += '\n';
        else if (BLOCKS.has(name) && out.length > 0 && !out.endsWith('\n')) out += '\n';
      },
      onclosetag(name) {
        if (BLOCKS.has(name) && out.length > 0 && !out.endsWith('\n')) out += '\n';
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

/**
 * Text of (already sanitised) HTML: tags removed, `<br>` and block ends become newlines,
 * entities decoded once; no trailing newline.
 *
 * The sanitiser has already removed every real tag that is not allowed, so what is left after
 * decoding is text the user typed, character for character: `&lt;b&gt;` is the four characters
 * `<b>`, not markup to strip again (issue #19 item 7). Whoever shows plain text escapes it (the
 * UI renders it as text; networks take it as text).
 */
export function htmlToPlain(html: string): string {
  return textOf(html).replace(/\n+$/u, '');
}

export { plainToHtml };

// Autolinks as Markdown and e-mail write them: `<https://example.com/a?b=1>`, `<bob@example.com>`.
// To an HTML parser each is the start of an element named `https:` or `bob@example.com` that is
// never closed, and the sanitiser drops a malformed element with everything after it: the rest of
// the post would vanish. Nothing inside may end the token or start an attribute value.
const URL_AUTOLINK = /<(https?:\/\/[^\s<>"'`]+)>/gi;
const EMAIL_AUTOLINK = /<([^\s<>"'`/=@]+@[^\s<>"'`/=@]+\.[^\s<>"'`/=@]+)>/g;

const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z]+);/i;

/** Plain text: autolinks lose their angle brackets (networks link a bare URL anyway). */
const unwrapAutolinks = (text: string) => text.replace(URL_AUTOLINK, '$1').replace(EMAIL_AUTOLINK, '$1');

/**
 * Content as users send it may be plain text or HTML. Text without any tag is treated as plain
 * (newlines kept); anything else is sanitised. Autolinks (`<https://…>`, `<me@example.com>`) are
 * not tags: in plain text they lose their brackets, in HTML a URL becomes a link.
 */
export function normaliseContent(input: string): { content: string; plainText: string } {
  const plain = unwrapAutolinks(input);
  const looksLikeHtml = /<[a-zA-Z!/]/.test(plain) || ENTITY.test(plain);
  // The URL holds no quote, space or angle bracket, so it stands as it is in a quoted attribute;
  // the sanitiser still checks its scheme. One holding an entity (`&quot;`…) is left a malformed
  // tag, dropped: decoded, it could be anything.
  const content = looksLikeHtml
    ? sanitizeContentHtml(
        input
          .replace(URL_AUTOLINK, (whole, url: string) => (ENTITY.test(url) ? whole : `<a href="${url}">${url}</a>`))
          .replace(EMAIL_AUTOLINK, '$1'),
      )
    : plainToHtml(plain);
  return { content, plainText: htmlToPlain(content) };
}
