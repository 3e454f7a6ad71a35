/** Output in the three formats: json (the API's data, complete), table (aligned), minimal (ids). */
import type { OutputFormat } from './context.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Longest width before the cell is cut with an ellipsis. */
  max?: number;
}

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s+/g, ' ');
};

const width = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length;

function clip(s: string, max: number): string {
  if (width(s) <= max) return s;
  const parts = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((p) => p.segment);
  return parts.slice(0, max - 1).join('') + '…';
}

export function table<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => clip(cell(c.value(r)), c.max ?? 60)));
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((row) => width(row[i]))));
  const line = (values: string[]) => values.map((v, i) => v + ' '.repeat(widths[i] - width(v))).join('  ').trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n');
}

/** Prints `data` in the chosen format. `ids` gives what minimal prints (one per line). */
export function print<T>(format: OutputFormat, data: unknown, view: { rows?: T[]; columns?: Column<T>[]; ids: string[]; text?: string }): void {
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

export function keyValues(pairs: [string, unknown][]): string {
  const w = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(w)}  ${cell(v)}`).join('\n');
}
