/**
 * Drafts as Markdown files: YAML front matter between two lines of `---`, then the posts
 * separated by lines of `---`. The writer pads each separator with one blank line on either side
 * and the reader takes at most one blank line off each side of a post (the last post's end is
 * only its final newline), so hand-written files may use either style and export → import gives
 * every post back exactly, blank lines at its start included.
 *
 * Escape rule: a text line that would read as a separator (`---`, optionally followed by spaces)
 * is written with one more backslash in front (`\---`), and a line of backslashes before `---` is
 * read with one backslash fewer, so `\---` in a post survives too. The front matter is parsed
 * with yaml's default (core, safe) schema: no custom tags, no code.
 */
import { yamlLib } from './file-parsers.js';
import type { DraftFile } from '../../contracts/draft-files.js';
import { checkFile, invalid } from './draft-file-check.js';

const SEPARATOR = /^---[ \t]*$/;
const ESCAPED = /^(\\+)(---[ \t]*)$/;

const escapeLine = (line: string) => (SEPARATOR.test(line) || ESCAPED.test(line) ? `\\${line}` : line);
const unescapeLine = (line: string) => {
  const m = ESCAPED.exec(line);
  return m ? m[1].slice(1) + m[2] : line;
};

/** The text of one post with separator-like lines escaped. */
export function escapePost(text: string): string {
  return text.split('\n').map(escapeLine).join('\n');
}

/** Posts from the text after the front matter (line ends already \n). */
export function splitPosts(body: string): string[] {
  const lines = body.split('\n');
  // The writer ends the file with a newline: it is not part of the last post.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const chunks: string[][] = [[]];
  for (const line of lines) {
    if (SEPARATOR.test(line)) chunks.push([]);
    else chunks[chunks.length - 1].push(unescapeLine(line));
  }
  return chunks.map((c, i) => {
    const last = i === chunks.length - 1;
    if (c.length > 0 && c[0] === '') c.shift();
    if (!last && c.length > 0 && c[c.length - 1] === '') c.pop();
    return c.join('\n');
  });
}

/** The front matter fields in a stable order, empty ones left out. */
function frontMatter(file: DraftFile): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (file.title !== undefined) out.title = file.title;
  if (file.networks && file.networks.length > 0) out.networks = file.networks;
  if (file.platforms && Object.keys(file.platforms).length > 0) out.platforms = file.platforms;
  if (file.scheduledFor) out.scheduledFor = file.scheduledFor;
  if (file.timeZone) out.timeZone = file.timeZone;
  if (file.language) out.language = file.language;
  if (file.linkCard !== undefined && file.linkCard !== null) out.linkCard = file.linkCard;
  if (file.options) out.options = file.options;
  if (file.socialSetId) out.socialSetId = file.socialSetId;
  if (file.evergreen) out.evergreen = file.evergreen;
  if (file.media && file.media.length > 0) out.media = file.media.map((m) => ({ ...m }));
  if (file.metrics && file.metrics.length > 0) out.metrics = file.metrics;
  return out;
}

const YAML_OPTIONS = { lineWidth: 0, minContentWidth: 0 } as const;

/**
 * YAML of the front matter. Multi-line text reads best as a block scalar, but a block scalar
 * cannot hold every string (only newlines, leading blank lines, trailing spaces): a string the
 * default style would not give back exactly is written double-quoted, with escapes.
 */
function yamlOf(fm: Record<string, unknown>): string {
  const { Document, visit, parse: parseYaml, stringify: stringifyYaml } = yamlLib();
  const doc = new Document(fm);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const s = node.value;
      if (parseYaml(stringifyYaml({ s }, YAML_OPTIONS)).s !== s) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString(YAML_OPTIONS);
}

/** One draft as a Markdown file; fromMarkdown reads back exactly the same file. */
export function toMarkdown(file: DraftFile): string {
  const fm = frontMatter(file);
  // lineWidth 0: long strings are never folded, so what is read back is what was written.
  const yaml = Object.keys(fm).length > 0 ? yamlOf(fm) : '';
  return `---\n${yaml}---\n\n${file.posts.map((p) => escapePost(p.text)).join('\n\n---\n\n')}\n`;
}

/** Reads one Markdown draft; broken front matter is 400 INVALID_INPUT naming the line. */
export function fromMarkdown(source: string, where = 'body'): DraftFile {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const lines = text.split('\n');
  let fm: Record<string, unknown> = {};
  let bodyStart = 0;
  if (SEPARATOR.test(lines[0] ?? '')) {
    const end = lines.findIndex((l, i) => i > 0 && (SEPARATOR.test(l) || /^\.\.\.[ \t]*$/.test(l)));
    if (end === -1) {
      throw invalid('Broken front matter: the opening --- line has no closing --- line', [
        { path: `${where}.frontMatter`, message: 'line 1 opens the front matter; no line of --- closes it' },
      ]);
    }
    // Each YAML line keeps its newline: a block scalar's kept trailing newlines (|+) need it.
    const doc = yamlLib().parseDocument(`${lines.slice(1, end).join('\n')}\n`);
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) {
      // The file's line: the YAML's own line plus the opening ---.
      const line = problem.linePos ? problem.linePos[0].line + 1 : undefined;
      const why = problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw invalid(`Broken front matter${line ? ` at line ${line}` : ''}: ${why}`, [
        { path: `${where}.frontMatter${line ? `.line${line}` : ''}`, message: why },
      ]);
    }
    const parsed: unknown = doc.toJS();
    if (parsed !== null && parsed !== undefined && (typeof parsed !== 'object' || Array.isArray(parsed))) {
      throw invalid(
        'Broken front matter: it must be a mapping of fields (networks, platforms, scheduledFor, timeZone, ' +
          'language, media)',
        [{ path: `${where}.frontMatter`, message: 'not a mapping' }],
      );
    }
    fm = (parsed ?? {}) as Record<string, unknown>;
    bodyStart = end + 1;
  }
  const posts = splitPosts(lines.slice(bodyStart).join('\n')).map((t) => ({ text: t }));
  return checkFile({ ...fm, posts }, `${where}.frontMatter`);
}
