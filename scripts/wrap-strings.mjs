#!/usr/bin/env node
/**
 * Splits string literals and one-line untagged templates that keep a line over 120 characters
 * into pieces joined with `+`, at spaces, so Prettier (which never breaks a string) can lay them
 * out on lines of their own. The value is the same to the character: a piece ends after a space
 * that is not escaped, and each piece keeps its quotes. Strings that must stay one literal are
 * left alone: module specifiers, types, property names, JSX attributes, `as const` values,
 * directives, and tagged templates (their tag reads the pieces).
 *
 *   node scripts/wrap-strings.mjs [files or folders...]   (default: the source folders)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { FOLDERS, WIDTH, sourceFiles, widthOf } from './wrap-comments.mjs';

const K = ts.SyntaxKind;

/** Whether a literal at `node` may become `a + b` without changing what the code means or types. */
function splittable(node) {
  const p = node.parent;
  if (!p) return false;
  if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isExternalModuleReference(p)) return false;
  if (ts.isImportTypeNode(p) || ts.isLiteralTypeNode(p) || ts.isModuleDeclaration(p)) return false;
  if (ts.isJsxAttribute(p) || ts.isTaggedTemplateExpression(p)) return false;
  if (ts.isAsExpression(p) || ts.isSatisfiesExpression(p) || ts.isTypeAssertionExpression(p)) return false;
  if (ts.isExpressionStatement(p)) return false;
  if ('name' in p && p.name === node) return false;
  if (
    ts.isCallExpression(p) &&
    (p.expression.kind === K.ImportKeyword || (ts.isIdentifier(p.expression) && p.expression.text === 'require'))
  ) {
    return false;
  }
  if (ts.isElementAccessExpression(p) || ts.isComputedPropertyName(p)) return false;
  return true;
}

/** Where the raw text (between the quotes) may be cut: after a space or a `\\n`, never inside an escape. */
function cuts(raw) {
  const out = [];
  for (let i = 0; i < raw.length - 1; i++) {
    if (raw[i] === '\\') {
      // After an escaped line break (`\n`) is a cut too; any other escape is skipped whole.
      if (raw[i + 1] === 'n' && i + 2 < raw.length) out.push(i + 2);
      i++;
    } else if (raw[i] === ' ') out.push(i + 1);
  }
  return out;
}

/** Pieces of `raw` of at most `room` characters each where spaces allow (a long word stays whole). */
function pieces(raw, room, cutsAt = cuts(raw)) {
  const at = cutsAt.filter((c) => c > 0 && c < raw.length);
  const out = [];
  let start = 0;
  while (widthOf(raw.slice(start)) > room) {
    const fit = at.filter((c) => c > start && widthOf(raw.slice(start, c)) <= room);
    const cut = fit.length > 0 ? fit[fit.length - 1] : at.find((c) => c > start);
    if (cut === undefined) break;
    out.push(raw.slice(start, cut));
    start = cut;
  }
  out.push(raw.slice(start));
  return out;
}

/** Cut positions of a template: after each space of its own text, and before each `${…}`. */
function templateCuts(src) {
  const cuts = [];
  const quoted = (j, q) => {
    for (j++; j < src.length && src[j] !== q; j++) if (src[j] === '\\') j++;
    return j + 1;
  };
  const expr = (j) => {
    for (let depth = 1; j < src.length && depth > 0;) {
      const c = src[j];
      if (c === '`') j = template(j);
      else if (c === "'" || c === '"') j = quoted(j, c);
      else {
        if (c === '{') depth++;
        else if (c === '}') depth--;
        j++;
      }
    }
    return j;
  };
  const template = (j) => {
    for (j++; j < src.length && src[j] !== '`';) {
      if (src[j] === '\\') j += 2;
      else if (src[j] === '$' && src[j + 1] === '{') j = expr(j + 2);
      else j++;
    }
    return j + 1;
  };
  for (let i = 1; i < src.length - 1;) {
    if (src[i] === '\\') i += 2;
    else if (src[i] === '$' && src[i + 1] === '{') {
      // Before a substitution is a cut too: `${a}${b}` is `${a}` + `${b}`.
      if (i > 1) cuts.push(i);
      i = expr(i + 2);
    } else {
      if (src[i] === ' ' && src[i - 1] !== ' ') cuts.push(i + 1);
      i++;
    }
  }
  return cuts;
}

const SQL = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|REPLACE)\b/i;

/**
 * SQL in a template of server/db/ laid over lines of at most WIDTH: SQL reads a newline as a
 * space, so a line is cut at a space outside quotes and `${…}` and goes on at its indentation.
 */
function breakSql(source, column, baseIndent, tail = 0) {
  const safe = new Set();
  let depth = 0;
  let quoted = false;
  let comment = false;
  for (let i = 1; i < source.length - 1; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (depth === 0 && c === '$' && source[i + 1] === '{') {
      depth = 1;
      i++;
    } else if (depth > 0 && c === '{') depth++;
    else if (depth > 0 && c === '}') depth--;
    else if (c === '\n') comment = false;
    else if (depth === 0 && !quoted && c === '-' && source[i + 1] === '-') comment = true;
    else if (depth === 0 && !comment && c === "'") quoted = !quoted;
    else if (depth === 0 && !quoted && !comment && c === ' ' && source[i - 1] !== ' ') safe.add(i);
  }
  let out = '';
  let lineStart = 0;
  let lead = column;
  for (let i = 0; i <= source.length; i++) {
    if (i < source.length && source[i] !== '\n') continue;
    let line = source.slice(lineStart, i);
    let offset = lineStart;
    const indent = lineStart === 0 ? baseIndent : line.match(/^\s*/)[0];
    const after = i === source.length ? tail : 0;
    while (lead + widthOf(line) + after > WIDTH) {
      let cut = -1;
      for (let k = line.length - 1; k > indent.length; k--) {
        if (safe.has(offset + k) && lead + widthOf(line.slice(0, k)) <= WIDTH) {
          cut = k;
          break;
        }
      }
      if (cut < 0) break;
      out += `${line.slice(0, cut)}\n${indent}`;
      const rest = line.slice(cut + 1);
      offset += cut + 1 - indent.length;
      line = indent + rest;
      lead = 0;
    }
    out += line + (i < source.length ? '\n' : '');
    lineStart = i + 1;
    lead = 0;
  }
  return out;
}

/** The file's text with its long literals split; unchanged when none is. */
export function wrapStrings(file, text) {
  const lines = text.split('\n');
  if (!lines.some((l) => widthOf(l) > WIDTH)) return text;
  const kind = /\.(tsx|jsx)$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.(mjs|cjs|js)$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edits = [];
  const visit = (node) => {
    const isString = node.kind === K.StringLiteral || node.kind === K.NoSubstitutionTemplateLiteral;
    const isTemplate = node.kind === K.TemplateExpression;
    if (isString || isTemplate) {
      const start = node.getStart(sf);
      const { line } = sf.getLineAndCharacterOfPosition(start);
      const endLine = sf.getLineAndCharacterOfPosition(node.end).line;
      const body =
        node.kind === K.TemplateExpression
          ? node.head.text
          : node.kind === K.NoSubstitutionTemplateLiteral
            ? node.text
            : '';
      const inDb = /(^|\/)server\/db\//.test(file.split(path.sep).join('/'));
      const sql =
        node.kind !== K.StringLiteral &&
        !ts.isTaggedTemplateExpression(node.parent) &&
        (SQL.test(body) || (inDb && endLine > line));
      if (sql) {
        let long = false;
        for (let l = line; l <= endLine; l++) long ||= widthOf(lines[l]) > WIDTH;
        if (long) {
          const source = text.slice(start, node.end);
          // Lines the first one gives away go on at the template's own indentation, else two deeper.
          const next = endLine > line ? lines[line + 1].match(/^\s*/)[0] : `${lines[line].match(/^\s*/)[0]}  `;
          const endAt = sf.getLineAndCharacterOfPosition(node.end);
          const tail = widthOf(lines[endAt.line].slice(endAt.character));
          const out = breakSql(source, sf.getLineAndCharacterOfPosition(start).character, next, tail);
          if (out !== source) edits.push([start, node.end, out]);
          return;
        }
      }
      if (endLine === line && widthOf(lines[line]) > WIDTH && splittable(node)) {
        const indent = lines[line].match(/^\s*/)[0].length;
        const room = Math.max(40, WIDTH - indent - 12);
        const source = text.slice(start, node.end);
        const quote = source[0];
        if (isString) {
          const inner = source.slice(1, -1);
          // One that fits its room but keeps the line long (a test's name: Prettier keeps `it('…', () => {`
          // on one line) is cut in two.
          const half = widthOf(inner) <= room && widthOf(inner) > 40 ? Math.ceil(widthOf(inner) / 2) + 8 : room;
          const parts = pieces(inner, half);
          if (parts.length > 1) edits.push([start, node.end, parts.map((p) => `${quote}${p}${quote}`).join(' + ')]);
        } else {
          // A template: cut only in its own text, outside every ${…}.
          const inner = source.slice(1, -1);
          const half = widthOf(inner) <= room && widthOf(inner) > 40 ? Math.ceil(widthOf(inner) / 2) + 8 : room;
          const parts = pieces(
            inner,
            half,
            templateCuts(source).map((p) => p - 1),
          );
          if (parts.length > 1) edits.push([start, node.end, parts.map((p) => `\`${p}\``).join(' + ')]);
        }
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  let out = text;
  for (const [a, b, repl] of edits.sort((x, y) => y[0] - x[0])) out = out.slice(0, a) + repl + out.slice(b);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const targets = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  let changed = 0;
  for (const file of sourceFiles(targets.length > 0 ? targets : FOLDERS)) {
    const text = fs.readFileSync(file, 'utf8');
    const out = wrapStrings(file, text);
    if (out !== text) {
      fs.writeFileSync(file, out);
      changed++;
    }
  }
  console.log(`wrap-strings: ${changed} files changed`);
}
