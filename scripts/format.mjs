#!/usr/bin/env node
/**
 * One formatter for the source folders: Prettier (.prettierrc: 120 columns, single quotes), then
 * what Prettier leaves over 120 characters: comments are rewrapped (wrap-comments.mjs) and long
 * strings split at spaces (wrap-strings.mjs), then Prettier lays the result out again.
 *
 *   npm run format          (node scripts/format.mjs)          writes
 *   npm run format:check    (node scripts/format.mjs --check)  lists what is not formatted and
 *                                                              every line over 120, exits 1
 *
 * Both are idempotent. The check keeps the hash of each file it found formatted in
 * node_modules/.cache, so it reads Prettier's verdict again only for files that changed.
 * test/unit/format.test.ts runs the check inside `npm test`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { FOLDERS, WIDTH, sourceFiles, widthOf, wrapText } from './wrap-comments.mjs';
import { wrapStrings } from './wrap-strings.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules/.cache/herald-format.json');
const rel = (f) => path.relative(ROOT, f).split(path.sep).join('/');

/** The source files the formatter owns: the source folders less what .prettierignore names. */
export async function formattedFiles(targets = FOLDERS) {
  const ignore = path.join(ROOT, '.prettierignore');
  const out = [];
  for (const f of sourceFiles(targets)) {
    const info = await prettier.getFileInfo(f, { ignorePath: ignore });
    if (!info.ignored && info.inferredParser) out.push(f);
  }
  return out;
}

async function pretty(file, text) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

/** Formats one file's text: Prettier, the wrappers, Prettier again, until nothing moves. */
export async function formatText(file, text) {
  let out = await pretty(file, text);
  for (let round = 0; round < 3; round++) {
    const wrapped = wrapStrings(file, wrapText(file, out).text);
    if (wrapped === out) break;
    out = await pretty(file, wrapped);
  }
  return out;
}

/** The style sheets: Prettier leaves them (one rule a line is their style), the line width does not. */
export const cssFiles = (targets = FOLDERS) =>
  targets.flatMap((t) => (t === 'renderer/src' ? cssIn(path.join(ROOT, t)) : []));
function cssIn(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? cssIn(p) : e.name.endsWith('.css') ? [p] : [];
  });
}

/** Declarations of a one-line rule split at top-level semicolons (not inside quotes or brackets). */
function declarations(body) {
  const out = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ';' && depth === 0) {
      out.push(body.slice(from, i + 1).trim());
      from = i + 1;
    }
  }
  if (body.slice(from).trim()) out.push(body.slice(from).trim());
  return out.filter(Boolean);
}

/** Declarations laid over rows of at most WIDTH at `indent`. */
function rows(decls, indent) {
  const out = [];
  let row = '';
  for (const d of decls) {
    const next = row ? `${row} ${d}` : `${indent}${d}`;
    if (row && widthOf(next) > WIDTH) {
      out.push(row);
      row = `${indent}${d}`;
    } else row = next;
  }
  if (row) out.push(row);
  return out;
}

/** `text` read as rules `selector { body }` (bodies may nest); null when its braces do not pair. */
function rules(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open < 0) return text.slice(i).trim() ? null : out;
    let depth = 0;
    let close = -1;
    for (let k = open; k < text.length; k++) {
      if (text[k] === '{') depth++;
      else if (text[k] === '}' && --depth === 0) {
        close = k;
        break;
      }
    }
    if (close < 0) return null;
    out.push({ selector: text.slice(i, open).trim(), body: text.slice(open + 1, close).trim() });
    i = close + 1;
  }
  return out;
}

/** One rule at `indent`: on one line when it fits, else its declarations or nested rules below it. */
function layoutRule({ selector, body }, indent) {
  const one = `${indent}${selector} { ${body} }`;
  if (widthOf(one) <= WIDTH) return [one];
  const nested = body.includes('{') ? rules(body) : null;
  const inner = nested ? nested.flatMap((r) => layoutRule(r, `${indent}  `)) : rows(declarations(body), `${indent}  `);
  return [`${indent}${selector} {`, ...inner, `${indent}}`];
}

/** A style sheet with each line over WIDTH laid out again: rules, nested rules or declarations. */
export function wrapCss(text) {
  return text
    .split('\n')
    .flatMap((line) => {
      if (widthOf(line) <= WIDTH) return [line];
      const indent = line.match(/^\s*/)[0];
      const t = line.trim();
      const whole = rules(t);
      if (whole && whole.length > 0) return whole.flatMap((r) => layoutRule(r, indent));
      if (!t.includes('{') && !t.includes('}')) return rows(declarations(t), indent);
      const open = t.match(/^([^{}]+)\{([^{}]*)$/);
      if (open) return [`${indent}${open[1].trim()} {`, ...rows(declarations(open[2]), `${indent}  `)];
      return [line];
    })
    .join('\n');
}

/** Lines over WIDTH characters, as `file:line (N characters)`. */
export function longLines(file, text) {
  return text
    .split('\n')
    .flatMap((l, i) => (widthOf(l) > WIDTH ? [`${rel(file)}:${i + 1} (${widthOf(l)} characters)`] : []));
}

function loadCache(key) {
  try {
    const c = JSON.parse(fs.readFileSync(CACHE, 'utf8'));
    return c.key === key ? new Set(c.formatted) : new Set();
  } catch {
    return new Set();
  }
}

/** What is not formatted, and every line over WIDTH, in the formatter's files. */
export async function check(targets = FOLDERS) {
  const settings = fs.readFileSync(path.join(ROOT, '.prettierrc'), 'utf8');
  const key = `${prettier.version}:${settings}:${fs.statSync(fileURLToPath(import.meta.url)).mtimeMs}`;
  const cached = loadCache(key);
  const formatted = new Set();
  const unformatted = [];
  const long = [];
  for (const file of await formattedFiles(targets)) {
    const text = fs.readFileSync(file, 'utf8');
    long.push(...longLines(file, text));
    const hash = crypto.createHash('sha1').update(text).digest('hex');
    if (cached.has(hash) || (await pretty(file, text)) === text) formatted.add(hash);
    else unformatted.push(rel(file));
  }
  for (const file of cssFiles(targets)) {
    const text = fs.readFileSync(file, 'utf8');
    long.push(...longLines(file, text));
    if (wrapCss(text) !== text) unformatted.push(rel(file));
  }
  fs.mkdirSync(path.dirname(CACHE), { recursive: true });
  fs.writeFileSync(CACHE, JSON.stringify({ key, formatted: [...formatted] }));
  return { unformatted, long };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const targets = args.filter((a) => !a.startsWith('--'));
  if (args.includes('--check')) {
    const { unformatted, long } = await check(targets.length > 0 ? targets : FOLDERS);
    for (const f of unformatted) console.log(`not formatted: ${f}`);
    for (const l of long) console.log(`over ${WIDTH} characters: ${l}`);
    if (unformatted.length + long.length > 0) {
      console.error('Run npm run format; split by hand what it cannot (a word or a regular expression).');
      process.exit(1);
    }
  } else {
    let changed = 0;
    const long = [];
    for (const file of await formattedFiles(targets.length > 0 ? targets : FOLDERS)) {
      const text = fs.readFileSync(file, 'utf8');
      const out = await formatText(file, text);
      if (out !== text) {
        fs.writeFileSync(file, out);
        changed++;
      }
      long.push(...longLines(file, out));
    }
    for (const file of cssFiles(targets.length > 0 ? targets : FOLDERS)) {
      const text = fs.readFileSync(file, 'utf8');
      const out = wrapCss(text);
      if (out !== text) {
        fs.writeFileSync(file, out);
        changed++;
      }
      long.push(...longLines(file, out));
    }
    console.log(`format: ${changed} files changed`);
    for (const l of long) console.log(`still over ${WIDTH} characters (split it by hand): ${l}`);
  }
}
