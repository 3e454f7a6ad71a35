/**
 * How reliability tests report the figure of their row of docs/decisions.md §20: one console line
 * `[quality] <row>: <figure>`, which quality-reporter.ts gathers into the table printed at the
 * end of `npm test`.
 */
export const QUALITY_PREFIX = '[quality] ';

export function reportFigure(row: string, figure: string): void {
  console.log(`${QUALITY_PREFIX}${row}: ${figure}`);
}
