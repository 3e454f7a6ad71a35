/** Output in the three formats: json (the API's data, complete), table (aligned), minimal (ids). */
import type { OutputFormat } from './context.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Longest width (terminal columns) before the cell is cut with an ellipsis. */
  max?: number;
}

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  // Control characters (and so escape sequences from the data) never reach the terminal.
  return String(v)
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
};

/** Text for the terminal: keeps newlines and tabs, drops other control characters (no escape sequences from data). */
export const safe = (s: string) => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const WIDE = new RegExp(
  String.raw`[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-` +
    String.raw`\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]`,
  'u',
);
const EMOJI = /\p{Extended_Pictographic}/u;
const ZERO = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufeff]+$/u;

/** Terminal columns of one grapheme: 2 for East Asian wide and emoji-presentation, 0 for marks. */
function graphemeWidth(g: string): number {
  if (ZERO.test(g)) return 0;
  const cp = g.codePointAt(0)!;
  if (WIDE.test(String.fromCodePoint(cp))) return 2;
  if (EMOJI.test(g) && (g.includes('\ufe0f') || cp >= 0x1f000)) return 2;
  return 1;
}

const graphemes = (s: string) => [...segmenter.segment(s)].map((p) => p.segment);

/** Width of a string in terminal columns. */
export const width = (s: string) => graphemes(s).reduce((n, g) => n + graphemeWidth(g), 0);

function clip(s: string, max: number): string {
  if (width(s) <= max) return s;
  let out = '';
  let w = 0;
  for (const g of graphemes(s)) {
    const gw = graphemeWidth(g);
    if (w + gw > max - 1) break;
    out += g;
    w += gw;
  }
  return `${out}…`;
}

export function table<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => clip(cell(c.value(r)), c.max ?? 60)));
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((row) => width(row[i]))));
  const line = (values: string[]) =>
    values
      .map((v, i) => v + ' '.repeat(widths[i] - width(v)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n');
}

/** Prints `data` in the chosen format. `ids` gives what minimal prints (one per line). */
export function print<T>(
  format: OutputFormat,
  data: unknown,
  view: { rows?: T[]; columns?: Column<T>[]; ids: string[]; text?: string },
): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  } else if (format === 'minimal') {
    if (view.ids.length) process.stdout.write(`${view.ids.join('\n')}\n`);
  } else if (view.text !== undefined) {
    process.stdout.write(`${view.text}\n`);
  } else if (view.rows && view.columns) {
    process.stdout.write(view.rows.length ? `${table(view.rows, view.columns)}\n` : '(none)\n');
  }
}

/** Aligned `key  value` lines. */
export function keyValues(pairs: [string, unknown][]): string {
  const w = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(w)}  ${cell(v)}`).join('\n');
}
