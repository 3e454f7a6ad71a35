#!/usr/bin/env node
/**
 * Rewraps comment lines over 120 characters, which Prettier leaves as they are. Comments are
 * found by the TypeScript parser, so nothing inside a string, a template, a regular expression
 * or JSX text is ever taken for one, and no code is changed:
 *
 * - a `//` comment on its own line: from the long line to the end of its paragraph (the run of
 *   `//` lines at the same indentation, up to an empty one, a list item or an indented one), the
 *   words are laid out again at the same indentation;
 * - a `//` comment after code: moved, wrapped, onto its own lines above that code;
 * - a block comment (`/** … *\/`, `/* … *\/`): the same, line by line, keeping the ` * ` prefix; a
 *   one-line block comment becomes a block of lines.
 *
 * Left alone (and listed): directives (`@ts-expect-error`, `prettier-ignore`, `///`), lines laid
 * out by hand (two spaces inside the text), a block comment after code, and single words longer
 * than the line. Running it again changes nothing.
 *
 *   node scripts/wrap-comments.mjs [files or folders...]   (default: the source folders)
 *   node scripts/wrap-comments.mjs --check                  exit 1 when a comment line is too long
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const WIDTH = 120;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FOLDERS = [
  'server',
  'client',
  'cli',
  'text',
  'time',
  'main',
  'renderer/src',
  'renderer/vite.config.ts',
  'scripts',
  'test',
  'bench',
  'bin',
  'drizzle.config.ts',
  'vitest.config.ts',
];
const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
const DIRECTIVE = /@ts-|prettier-ignore|eslint-|istanbul|c8 ignore|^\/\/\//;
const LITERALS = new Set([
  ts.SyntaxKind.JsxText,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

/** Characters as a person counts them (code points, so an emoji is one). */
export const widthOf = (s) => [...s].length;

export function sourceFiles(dirs = FOLDERS) {
  return dirs.flatMap((d) => {
    const abs = path.resolve(ROOT, d);
    if (!fs.existsSync(abs)) return [];
    if (fs.statSync(abs).isFile()) return [abs];
    return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
      if (e.isDirectory())
        return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles([path.join(abs, e.name)]);
      return CODE.test(e.name) && !e.name.endsWith('.d.ts') ? [path.join(abs, e.name)] : [];
    });
  });
}

/** Every comment of `text` as [start, end, kind], by the parser's reading of it, and its JSX elements' ranges. */
function commentsOf(file, text) {
  const kind = /\.(tsx|jsx)$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.(mjs|cjs|js)$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map();
  const literals = [];
  const jsx = [];
  const visit = (node) => {
    if (LITERALS.has(node.kind)) literals.push([node.getStart(sf), node.end]);
    if (node.kind === ts.SyntaxKind.JsxElement || node.kind === ts.SyntaxKind.JsxFragment)
      jsx.push([node.getStart(sf), node.end]);
    for (const r of [
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
    ]) {
      found.set(r.pos, [r.pos, r.end, r.kind]);
    }
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  const inLiteral = (pos) => literals.some(([a, b]) => pos >= a && pos < b);
  const comments = [...found.values()].filter(([pos]) => !inLiteral(pos)).sort((a, b) => a[0] - b[0]);
  return { comments, jsx };
}

/** Words laid out in lines of at most `width` characters, each starting with its prefix. */
function layout(words, first, rest, width = WIDTH) {
  const lines = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    const next = empty ? line + word : `${line} ${word}`;
    if (!empty && widthOf(next) > width) {
      lines.push(line);
      line = rest + word;
    } else line = next;
    empty = false;
  }
  lines.push(line);
  return lines;
}

const words = (s) => s.trim().split(/\s+/).filter(Boolean);
const laidOut = (text) => /\S {2,}\S/.test(text) || /^\s/.test(text);
const breaksParagraph = (text) =>
  text.trim() === '' || /^([-*+•]|\d+[.)]|@\w|```|\|)/.test(text.trim()) || laidOut(text);

const STAR = /^(\s*)\*(?!\/)( ?)(.*)$/;
const closing = (t) => /\*\/\s*$/.test(t);
const unclose = (t) => t.replace(/\s*\*\/\s*$/, '');

/** The lines of a block comment with each long line wrapped, with the rest of its paragraph. */
function wrapBlock(block, indent, open, where, problems) {
  const cont = `${indent} * `;
  const out = [];
  let i = 0;
  while (i < block.length) {
    const line = block[i];
    if (widthOf(line) <= WIDTH) {
      out.push(line);
      i++;
      continue;
    }
    let head = cont;
    let first;
    if (i === 0) {
      first = line.slice(indent.length + open.length).replace(/^ /, '');
    } else {
      const m = line.match(STAR);
      if (!m) {
        problems.push(`${where}: a block comment line without its *`);
        out.push(line);
        i++;
        continue;
      }
      head = `${m[1]}*${m[2] || ' '}`;
      first = m[3];
    }
    if (laidOut(first)) {
      problems.push(`${where}: a comment laid out by hand`);
      out.push(line);
      i++;
      continue;
    }
    if (i === 0) out.push(`${indent}${open}`);
    const texts = [unclose(first)];
    let closes = closing(first);
    let j = i + 1;
    while (!closes && j < block.length) {
      const n = block[j].match(STAR);
      if (!n || breaksParagraph(n[3])) break;
      if (closing(n[3])) {
        if (unclose(n[3]).trim() === '') break;
        texts.push(unclose(n[3]));
        closes = true;
      } else texts.push(n[3]);
      j++;
    }
    out.push(...layout(words(texts.join(' ')), head, cont));
    if (closes) out.push(`${indent} */`);
    i = j;
  }
  return out;
}

/** Rewrites the file's text; answers it and what it left too long. */
export function wrapText(file, text) {
  const problems = [];
  if (!text.split('\n').some((l) => widthOf(l) > WIDTH)) return { text, problems };
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (pos) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const lines = text.split('\n');
  const edits = []; // [firstLine, lastLine, replacement lines]
  const { comments, jsx } = commentsOf(file, text);
  const insideJsx = (pos) => jsx.some(([a, b]) => pos > a && pos < b);
  const lineComments = new Map(); // line → [start col, end col] of a `//` comment on it
  for (const [pos, , kind] of comments) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia) lineComments.set(lineOf(pos), pos - lineStarts[lineOf(pos)]);
  }
  const done = new Set();
  for (const [pos, end, kind] of comments) {
    const first = lineOf(pos);
    const last = lineOf(end - 1);
    if (done.has(first)) continue;
    const tooLong = [];
    for (let l = first; l <= last; l++) if (widthOf(lines[l]) > WIDTH) tooLong.push(l);
    if (tooLong.length === 0) continue;
    const body = text.slice(pos, end);
    const before = lines[first].slice(0, pos - lineStarts[first]);
    const where = `${path.relative(ROOT, file)}:${first + 1}`;
    if (DIRECTIVE.test(body)) {
      problems.push(`${where}: a directive comment`);
      continue;
    }
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      const indent = before.match(/^\s*/)[0];
      const own = before.trim() === '';
      if (!own && insideJsx(lineStarts[first])) {
        problems.push(`${where}: a comment after code inside JSX`);
        continue;
      }
      if (!own) {
        // After code: the comment goes above that code, at its indentation.
        const code = before.replace(/\s+$/, '');
        edits.push([first, first, [...layout(words(body.slice(2)), `${indent}// `, `${indent}// `), code]]);
        done.add(first);
        continue;
      }
      // Own line: this line and the rest of its paragraph.
      const texts = [body.slice(2)];
      let l = first + 1;
      while (
        l < lines.length &&
        lineComments.get(l) === indent.length &&
        lines[l].slice(0, indent.length).trim() === ''
      ) {
        const t = lines[l].slice(indent.length + 2).replace(/^ /, '');
        if (breaksParagraph(t) || DIRECTIVE.test(t)) break;
        texts.push(t);
        l++;
      }
      if (laidOut(texts[0].replace(/^ /, ''))) {
        problems.push(`${where}: a comment laid out by hand`);
        continue;
      }
      const out = layout(words(texts.join(' ')), `${indent}// `, `${indent}// `);
      edits.push([first, l - 1, out]);
      for (let k = first; k < l; k++) done.add(k);
      continue;
    }
    // Block comment.
    if (before.trim() !== '') {
      problems.push(`${where}: a block comment after code`);
      continue;
    }
    const indent = before;
    const open = body.startsWith('/**') ? '/**' : '/*';
    const cont = `${indent} * `;
    if (first === last) {
      const inner = body.slice(open.length, -2);
      edits.push([first, first, [`${indent}${open}`, ...layout(words(inner), cont, cont), `${indent} */`]]);
      done.add(first);
      continue;
    }
    edits.push([first, last, wrapBlock(lines.slice(first, last + 1), indent, open, where, problems)]);
    for (let k = first; k <= last; k++) done.add(k);
  }
  for (const [a, b, repl] of edits.sort((x, y) => y[0] - x[0])) lines.splice(a, b - a + 1, ...repl);
  for (const [a, , repl] of edits) {
    for (const [k, l] of repl.entries()) {
      if (widthOf(l) > WIDTH && words(l).some((w) => widthOf(w) > WIDTH / 2))
        problems.push(`${path.relative(ROOT, file)}:${a + k + 1}: a word too long to wrap`);
    }
  }
  return { text: lines.join('\n'), problems };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const targets = args.filter((a) => !a.startsWith('--'));
  let changed = 0;
  const problems = [];
  for (const file of sourceFiles(targets.length > 0 ? targets : FOLDERS)) {
    const text = fs.readFileSync(file, 'utf8');
    const out = wrapText(file, text);
    problems.push(...out.problems);
    if (out.text !== text) {
      changed++;
      if (!check) fs.writeFileSync(file, out.text);
    }
  }
  for (const p of problems) console.log(`left as it is: ${p}`);
  if (check) {
    if (changed > 0)
      console.error(`${changed} files have comment lines over ${WIDTH} characters: run node scripts/wrap-comments.mjs`);
    process.exit(changed > 0 ? 1 : 0);
  }
  console.log(`wrap-comments: ${changed} files rewrapped`);
}
