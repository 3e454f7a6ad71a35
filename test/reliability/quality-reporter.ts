/**
 * A vitest reporter that gathers the figures the tests of docs/decisions.md §20 print and shows them as one
 * table at the very end of the run, so a reader of `npm test` sees at a glance what each
 * Reliability and Security row measured. A figure is:
 * - a line `[quality] <row>: <figure>` from any test (quality.ts's reportFigure), or
 * - a line `<label>: <figure>` or `[<label>] <figure>` printed by a test in test/reliability or
 *   test/security (the crash matrix, scheduler and attack suites print theirs this way), or
 * - the ambiguous-failure line of the publishing tests.
 * A figure from a file that failed is marked. scripts/test.mjs adds this reporter after the
 * others; `npx vitest run --reporter=default --reporter=./test/reliability/quality-reporter.ts`
 * does the same by hand.
 */
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { QUALITY_PREFIX } from './quality.js';

interface Row {
  section: 'Reliability' | 'Security';
  row: string;
  figure: string;
  file?: string;
}

const FIGURE_FOLDERS = [
  `${path.sep}test${path.sep}reliability${path.sep}`,
  `${path.sep}test${path.sep}security${path.sep}`,
];
/** Figure lines other tests print in their own words. */
const ALSO_FIGURES = [/^Ambiguous failures\b/];

/** Rows listed under Security although their tests live elsewhere (the Stalls test is a reliability test). */
const SECURITY_ROWS = new Set(['Stalls', 'Slowloris', 'One address policy', 'Sessions and keys']);

/** The table of docs/decisions.md §20 a figure belongs to: its row's, else its test folder's. */
export function sectionOf(row: string, file: string | undefined): 'Reliability' | 'Security' {
  if (SECURITY_ROWS.has(row)) return 'Security';
  return file?.includes(`${path.sep}test${path.sep}security${path.sep}`) ? 'Security' : 'Reliability';
}

/** Splits a figure line into its row label and figure, or says it is not one. */
export function parseFigure(line: string, fromFigureFolder: boolean): { row: string; figure: string } | undefined {
  if (line.startsWith(QUALITY_PREFIX)) {
    const rest = line.slice(QUALITY_PREFIX.length);
    const colon = rest.indexOf(': ');
    return colon < 0
      ? { row: 'quality', figure: rest.trim() }
      : { row: rest.slice(0, colon).trim(), figure: rest.slice(colon + 2).trim() };
  }
  if (!fromFigureFolder && !ALSO_FIGURES.some((re) => re.test(line))) return undefined;
  const tagged = /^\[([A-Za-z][\w -]{0,40})\] (.+)$/.exec(line);
  if (tagged) return { row: tagged[1], figure: tagged[2].trim() };
  const labelled = /^([A-Za-z][^:\n]{0,80}?): (\S.*)$/.exec(line);
  if (labelled) return { row: labelled[1], figure: labelled[2].trim() };
  return undefined;
}

export default class QualityReporter implements Reporter {
  private rows: Row[] = [];
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.rows = [];
  }

  onUserConsoleLog(log: { content: string; taskId?: string; type?: string }): void {
    if (log.type === 'stderr') return;
    const task = log.taskId ? this.vitest?.state.idMap.get(log.taskId) : undefined;
    const file = task?.file?.filepath;
    const fromFigureFolder = !!file && FIGURE_FOLDERS.some((f) => file.includes(f));
    for (const line of log.content.split('\n')) {
      const parsed = parseFigure(line, fromFigureFolder);
      if (!parsed) continue;
      const section = sectionOf(parsed.row, file);
      this.rows.push({ section, ...parsed, file });
    }
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (this.rows.length === 0) return;
    const failedFiles = new Set(testModules.filter((m) => m.state() === 'failed').map((m) => m.moduleId));
    const width = Math.min(32, Math.max(...this.rows.map((r) => r.row.length), 3));
    const out: string[] = ['', ' Quality figures (rows of docs/decisions.md §20, as the tests measured them)'];
    for (const section of ['Reliability', 'Security'] as const) {
      const rows = this.rows.filter((r) => r.section === section);
      if (rows.length === 0) continue;
      out.push(`  ${section}`);
      for (const r of rows) {
        const mark = r.file && failedFiles.has(r.file) ? '  ← its test file FAILED' : '';
        out.push(`    ${r.row.padEnd(width)}  ${r.figure}${mark}`);
      }
    }
    const table = `${out.join('\n')}\n\n`;
    // Printed as vitest exits, after every other reporter's last words (the JSON reporter logs
    // where it wrote its file after this hook): scripts/test.mjs then prints its final line.
    process.once('exit', () => {
      process.stdout.write(table);
    });
  }
}
