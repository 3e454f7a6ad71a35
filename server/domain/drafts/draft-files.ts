/**
 * Drafts as files: pure converters between the file model (contracts/draft-files.ts) and
 * Markdown, JSON and CSV text. No database, no clock, no file system: the service resolves
 * networks and media and writes drafts; the CLI reads and writes the files.
 *
 * Markdown: YAML front matter between two lines of `---`, then the posts separated by lines of
 * `---`. The writer pads each separator with one blank line on either side and the reader takes
 * at most one blank line off each side of a post (the last post's end is only its final
 * newline), so hand-written files may use either style and export → import gives every post back
 * exactly, blank lines at its start included.
 *
 * Escape rule: a text line that would read as a separator (`---`, optionally followed by spaces)
 * is written with one more backslash in front (`\---`), and a line of backslashes before `---` is
 * read with one backslash fewer, so `\---` in a post survives too. The front matter is parsed
 * with yaml's default (core, safe) schema: no custom tags, no code.
 */
import { csvParser, yamlLib } from './file-parsers.js';
import { dateTimeProblem } from '../../contracts/common.js';
import { draftFile, FILE_FORMAT, type DraftFile, type RowError } from '../../contracts/draft-files.js';
import type { CreateDraftInput, Draft } from '../../contracts/drafts.js';
import { HeraldError, type ErrorDetail } from '../../core/errors.js';
import { validLanguage } from '../../core/config.js';
import { plainToHtml } from '../../../text/html.js';
import { isValidTimeZone, MINUTE, offsetAt, wallToInstant } from '../../../time/index.js';
import type { Platform } from '../../../text/index.js';
import { PLATFORMS as NETWORKS } from '../../../text/networks.js';

const SEPARATOR = /^---[ \t]*$/;
const ESCAPED = /^(\\+)(---[ \t]*)$/;

const escapeLine = (line: string) => (SEPARATOR.test(line) || ESCAPED.test(line) ? `\\${line}` : line);
const unescapeLine = (line: string) => {
  const m = ESCAPED.exec(line);
  return m ? m[1].slice(1) + m[2] : line;
};

const invalid = (message: string, details: ErrorDetail[]) => new HeraldError('INVALID_INPUT', message.slice(0, 500), { details });

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
  if (file.socialSetId) out.socialSetId = file.socialSetId;
  if (file.media && file.media.length > 0) out.media = file.media.map((m) => ({ ...m }));
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
      throw invalid('Broken front matter: the opening --- line has no closing --- line', [{ path: `${where}.frontMatter`, message: 'line 1 opens the front matter; no line of --- closes it' }]);
    }
    // Each YAML line keeps its newline: a block scalar's kept trailing newlines (|+) need it.
    const doc = yamlLib().parseDocument(`${lines.slice(1, end).join('\n')}\n`);
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) {
      // The file's line: the YAML's own line plus the opening ---.
      const line = problem.linePos ? problem.linePos[0].line + 1 : undefined;
      const why = problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw invalid(`Broken front matter${line ? ` at line ${line}` : ''}: ${why}`, [{ path: `${where}.frontMatter${line ? `.line${line}` : ''}`, message: why }]);
    }
    const parsed: unknown = doc.toJS();
    if (parsed !== null && parsed !== undefined && (typeof parsed !== 'object' || Array.isArray(parsed))) {
      throw invalid('Broken front matter: it must be a mapping of fields (networks, platforms, scheduledFor, timeZone, language, media)', [{ path: `${where}.frontMatter`, message: 'not a mapping' }]);
    }
    fm = (parsed ?? {}) as Record<string, unknown>;
    bodyStart = end + 1;
  }
  const posts = splitPosts(lines.slice(bodyStart).join('\n')).map((t) => ({ text: t }));
  return checkFile({ ...fm, posts }, `${where}.frontMatter`);
}

/** Validates the model; a time with no offset needs timeZone, and is turned into an instant. */
export function checkFile(value: unknown, where: string): DraftFile {
  const r = draftFile.safeParse(value);
  if (!r.success) {
    const details = r.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
    throw invalid(`Invalid draft file: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  }
  const file = r.data;
  const why = timeProblem(file.scheduledFor ?? null, file.timeZone ?? null);
  if (why) throw invalid(`Invalid draft file: scheduledFor ${why}`, [{ path: `${where}.scheduledFor`, message: why }]);
  return file;
}

export function toJson(file: DraftFile): string {
  return `${JSON.stringify({ format: FILE_FORMAT, ...file }, null, 2)}\n`;
}

/** One draft object, an array of them, or `{drafts: [...]}`. */
export function fromJson(source: string): DraftFile[] {
  let value: unknown;
  try {
    value = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw invalid(`Broken JSON: ${(err as Error).message}`, [{ path: 'body', message: (err as Error).message }]);
  }
  const wrapped = value !== null && typeof value === 'object' && !Array.isArray(value) && Array.isArray((value as { drafts?: unknown }).drafts);
  const single = !wrapped && !Array.isArray(value);
  const list: unknown[] = wrapped ? (value as { drafts: unknown[] }).drafts : Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > 100) throw invalid('Give 1 to 100 drafts', [{ path: 'body', message: `${list.length} drafts` }]);
  return list.map((d, i) => checkFile(d, single ? 'body' : `body.drafts.${i}`));
}

// ---- time ------------------------------------------------------------------------------------

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A wall-clock time in `zone` as an instant, by the one DST rule (time/zones.ts). */
export function localToInstant(local: string, zone: string): number {
  const m = LOCAL.exec(local)!;
  return wallToInstant(zone, Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0)));
}

/** An instant written in `zone` with its offset: 2026-12-01T09:30:00+01:00. */
export function instantInZone(iso: string, zone: string): string {
  const t = Date.parse(iso);
  const off = offsetAt(zone, t) / MINUTE;
  const local = new Date(t + off * MINUTE).toISOString().slice(0, 19);
  if (off === 0) return `${local}Z`;
  const abs = Math.abs(off);
  return `${local}${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function timeProblem(when: string | null, zone: string | null): string | undefined {
  if (zone && !isValidTimeZone(zone)) return `names the time zone "${zone}", which is not an IANA zone (like Europe/Paris)`;
  if (!when) return undefined;
  if (LOCAL.test(when)) return zone ? (Number.isNaN(Date.parse(`${when.replace(' ', 'T')}Z`)) ? 'is not a calendar date and time' : undefined) : 'has no offset: add Z or +hh:mm, or give timeZone';
  return dateTimeProblem(when);
}

/** The instant (ISO, UTC) of a file's time, or null. Call after checkFile. */
export function instantOf(file: Pick<DraftFile, 'scheduledFor' | 'timeZone'>): string | null {
  if (!file.scheduledFor) return null;
  if (LOCAL.test(file.scheduledFor)) return new Date(localToInstant(file.scheduledFor.replace(' ', 'T'), file.timeZone!)).toISOString();
  return new Date(file.scheduledFor).toISOString();
}

// ---- CSV -------------------------------------------------------------------------------------

export const CSV_COLUMNS = ['text', 'networks', 'scheduledFor', 'timeZone', 'media', 'language'] as const;

export interface CsvRow {
  row: number;
  file: DraftFile;
}

const list = (cell: string | undefined) => (cell ?? '').split(/[\s,;|]+/).filter(Boolean);

/**
 * CSV with a header naming some of text, networks, scheduledFor, timeZone, media (text is
 * required). Rows are numbered as a spreadsheet shows them (the header is row 1). `networks` and
 * `media` hold several values separated by spaces, commas, semicolons or bars; media are media
 * ids (the server never reads paths). A cell's lines of `---` separate thread posts.
 */
export function fromCsv(source: string): { rows: CsvRow[]; errors: RowError[] } {
  let records: string[][];
  try {
    records = csvParser()(source.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: false }) as string[][];
  } catch (err) {
    const e = err as { lines?: number; message: string };
    return { rows: [], errors: [{ row: e.lines ?? 1, column: 'row', message: `Broken CSV: ${e.message.split('\n')[0]}` }] };
  }
  if (records.length === 0) return { rows: [], errors: [{ row: 1, column: 'row', message: 'The file is empty: the first row names the columns (text, networks, scheduledFor, timeZone, media)' }] };
  const header = records[0].map((h) => h.trim());
  const errors: RowError[] = [];
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0 || !header.includes('text')) {
    return { rows: [], errors: [{ row: 1, column: unknown[0] ?? 'text', message: unknown.length > 0 ? `Unknown column "${unknown[0]}": the columns are ${CSV_COLUMNS.join(', ')}` : 'The header has no text column' }] };
  }
  const col = Object.fromEntries(CSV_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof CSV_COLUMNS)[number], number>;
  const rows: CsvRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const r = records[i];
    const row = i + 1;
    const cell = (c: (typeof CSV_COLUMNS)[number]) => (col[c] === -1 ? '' : (r[col[c]] ?? '')).trim();
    const before = errors.length;
    if (r.length > header.length) errors.push({ row, column: 'row', message: `${r.length} cells for ${header.length} columns` });
    const text = col.text === -1 ? '' : (r[col.text] ?? '').replace(/\r\n/g, '\n');
    const posts = splitPosts(text).map((t) => t.trim()).filter((t) => t !== '');
    if (posts.length === 0) errors.push({ row, column: 'text', message: 'no text' });
    else if (posts.some((p) => p.length > 100_000)) errors.push({ row, column: 'text', message: 'at most 100,000 characters per post' });
    const networks = list(cell('networks'));
    if (networks.length > 100) errors.push({ row, column: 'networks', message: 'at most 100 networks' });
    const zone = cell('timeZone') || null;
    const when = cell('scheduledFor') || null;
    if (zone && !isValidTimeZone(zone)) errors.push({ row, column: 'timeZone', message: `"${zone}" is not an IANA time zone (like Europe/Paris)` });
    else {
      const why = timeProblem(when, zone);
      if (why) errors.push({ row, column: 'scheduledFor', message: `"${when}" ${why}` });
    }
    const media = list(cell('media'));
    if (media.length > 4) errors.push({ row, column: 'media', message: 'at most 4 media per row' });
    const language = cell('language') ? validLanguage(cell('language')) : undefined;
    if (cell('language') && !language) errors.push({ row, column: 'language', message: `"${cell('language')}" is not a language tag (BCP 47, e.g. en, de, pt-BR)` });
    if (errors.length > before) continue;
    rows.push({
      row,
      file: {
        posts: posts.map((t) => ({ text: t })),
        ...(networks.length > 0 ? { networks } : {}),
        ...(when ? { scheduledFor: when } : {}),
        ...(zone ? { timeZone: zone } : {}),
        ...(media.length > 0 ? { media: media.map((id) => ({ post: 1, id })) } : {}),
        ...(language ? { language } : {}),
      },
    });
  }
  return { rows, errors };
}

/** Whether a `networks` entry names a network rather than an account id. */
export const isNetworkName = (s: string) => (NETWORKS as readonly string[]).includes(s);

// ---- drafts <-> files ------------------------------------------------------------------------

/**
 * A draft as a file. Posts are their plain text (what every network receives); with `html` (the
 * JSON format) each post also carries its HTML content, so bold and links come back too.
 * scheduledFor is written in `timeZone` with its offset when one is given, else in UTC.
 */
export function draftToFile(
  draft: Pick<Draft, 'title' | 'scheduledFor' | 'socialSetId' | 'selectedAccountIds' | 'tweets'> & Partial<Pick<Draft, 'language' | 'linkCard'>>,
  platforms: { platform: Platform; content: string }[],
  opts: { timeZone?: string; html?: boolean } = {},
): DraftFile {
  const media = draft.tweets.flatMap((t, i) => t.media.map((m) => ({ post: i + 1, id: m.mediaId, ...(m.altText !== undefined ? { alt: m.altText } : {}) })));
  const file: DraftFile = {
    title: draft.title,
    posts: draft.tweets.map((t) => (opts.html ? { text: t.plainText, html: t.content } : { text: t.plainText })),
  };
  if (draft.selectedAccountIds.length > 0) file.networks = [...draft.selectedAccountIds];
  if (platforms.length > 0) file.platforms = Object.fromEntries(platforms.map((p) => [p.platform, p.content]));
  if (draft.scheduledFor) {
    file.scheduledFor = opts.timeZone ? instantInZone(draft.scheduledFor, opts.timeZone) : draft.scheduledFor;
    if (opts.timeZone) file.timeZone = opts.timeZone;
  }
  if (draft.socialSetId) file.socialSetId = draft.socialSetId;
  if (draft.language) file.language = draft.language;
  if (draft.linkCard !== undefined && draft.linkCard !== null) file.linkCard = draft.linkCard;
  if (media.length > 0) file.media = media;
  return file;
}

/**
 * Plain text as post content: escaped when it holds `<` or `&`, which the API would otherwise
 * read as HTML; as it is otherwise, which the API keeps as plain text, the same content without
 * a pass through the HTML sanitiser (a tenth of a CSV import's time).
 */
const asContent = (text: string) => (/[<&]/.test(text) ? plainToHtml(text) : text);

/**
 * The create body a file stands for, without its targets (the service resolves `networks`).
 * Plain text is sent as escaped HTML, so every character stays (`a <b> c` is text, not markup).
 * A media entry with a path and no id is refused: the server never reads user paths.
 */
export function fileToInput(file: DraftFile, where: string): Omit<CreateDraftInput, 'selectedAccountIds'> {
  const details: ErrorDetail[] = [];
  const media: { mediaId: string; altText?: string }[][] = file.posts.map(() => []);
  (file.media ?? []).forEach((m, i) => {
    if (m.post > file.posts.length) details.push({ path: `${where}.media.${i}.post`, message: `there is no post ${m.post} (the draft has ${file.posts.length})` });
    else if (m.id === undefined) details.push({ path: `${where}.media.${i}.path`, message: `${m.path}: the server does not read files; upload it and give its id (herald draft import does this)` });
    else media[m.post - 1].push(m.alt !== undefined ? { mediaId: m.id, altText: m.alt } : { mediaId: m.id });
  });
  if (details.length > 0) throw invalid(`Invalid media: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  return {
    title: file.title ?? (file.posts[0]?.text ?? '').split('\n')[0].slice(0, 80),
    tweets: file.posts.map((p, i) => ({ content: p.html ?? asContent(p.text), position: i, ...(media[i].length > 0 ? { media: media[i] } : {}) })),
    scheduledFor: instantOf(file),
    ...(file.socialSetId ? { socialSetId: file.socialSetId } : {}),
    ...(file.language ? { language: file.language } : {}),
    ...(file.linkCard !== undefined && file.linkCard !== null ? { linkCard: file.linkCard } : {}),
  };
}
