/**
 * Drafts from CSV: one draft per row, each row checked on its own so an import can name every
 * bad row and column at once instead of stopping at the first.
 */
import { csvParser } from './file-parsers.js';
import type { DraftFile, RowError } from '../../contracts/draft-files.js';
import { validLanguage } from '../../core/config.js';
import { isValidTimeZone } from '../../../time/index.js';
import { timeProblem } from './draft-file-time.js';
import { splitPosts } from './draft-markdown.js';

/** The columns a CSV header may name, in the order the error messages list them. */
export const CSV_COLUMNS = ['text', 'networks', 'scheduledFor', 'timeZone', 'media', 'language'] as const;

/** A row that passed its checks: its spreadsheet row number (for later errors) and its draft. */
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
    records = csvParser()(source.replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: false,
    }) as string[][];
  } catch (err) {
    const e = err as { lines?: number; message: string };
    return {
      rows: [],
      errors: [{ row: e.lines ?? 1, column: 'row', message: `Broken CSV: ${e.message.split('\n')[0]}` }],
    };
  }
  if (records.length === 0)
    return {
      rows: [],
      errors: [
        {
          row: 1,
          column: 'row',
          message: 'The file is empty: the first row names the columns (text, networks, scheduledFor, timeZone, media)',
        },
      ],
    };
  const header = records[0].map((h) => h.trim());
  const errors: RowError[] = [];
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0 || !header.includes('text')) {
    return {
      rows: [],
      errors: [
        {
          row: 1,
          column: unknown[0] ?? 'text',
          message:
            unknown.length > 0
              ? `Unknown column "${unknown[0]}": the columns are ${CSV_COLUMNS.join(', ')}`
              : 'The header has no text column',
        },
      ],
    };
  }
  const col = Object.fromEntries(CSV_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<
    (typeof CSV_COLUMNS)[number],
    number
  >;
  const rows: CsvRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const r = records[i];
    const row = i + 1;
    const cell = (c: (typeof CSV_COLUMNS)[number]) => (col[c] === -1 ? '' : (r[col[c]] ?? '')).trim();
    const before = errors.length;
    if (r.length > header.length)
      errors.push({ row, column: 'row', message: `${r.length} cells for ${header.length} columns` });
    const text = col.text === -1 ? '' : (r[col.text] ?? '').replace(/\r\n/g, '\n');
    const posts = splitPosts(text)
      .map((t) => t.trim())
      .filter((t) => t !== '');
    if (posts.length === 0) errors.push({ row, column: 'text', message: 'no text' });
    else if (posts.some((p) => p.length > 100_000))
      errors.push({ row, column: 'text', message: 'at most 100,000 characters per post' });
    const networks = list(cell('networks'));
    if (networks.length > 100) errors.push({ row, column: 'networks', message: 'at most 100 networks' });
    const zone = cell('timeZone') || null;
    const when = cell('scheduledFor') || null;
    if (zone && !isValidTimeZone(zone))
      errors.push({ row, column: 'timeZone', message: `"${zone}" is not an IANA time zone (like Europe/Paris)` });
    else {
      const why = timeProblem(when, zone);
      if (why) errors.push({ row, column: 'scheduledFor', message: `"${when}" ${why}` });
    }
    const media = list(cell('media'));
    if (media.length > 4) errors.push({ row, column: 'media', message: 'at most 4 media per row' });
    const language = cell('language') ? validLanguage(cell('language')) : undefined;
    if (cell('language') && !language)
      errors.push({
        row,
        column: 'language',
        message: `"${cell('language')}" is not a language tag (BCP 47, e.g. en, de, pt-BR)`,
      });
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
