/**
 * The quality summary's line parser: which console lines are figures of a row of docs/decisions.md §20.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { parseFigure, sectionOf } from '../reliability/quality-reporter.js';

describe('quality figure lines', () => {
  it('reads [quality] lines from any test', () => {
    expect(parseFigure('[quality] SQLite: acked but lost 0 of 10007', false)).toEqual({
      row: 'SQLite',
      figure: 'acked but lost 0 of 10007',
    });
  });

  it('reads tagged and labelled lines from the reliability and security folders only', () => {
    expect(parseFigure('[crash matrix] seed 5: kills 59, duplicates 0', true)).toEqual({
      row: 'crash matrix',
      figure: 'seed 5: kills 59, duplicates 0',
    });
    expect(parseFigure('host matrix: 1234 requests, rejected 1234', true)).toEqual({
      row: 'host matrix',
      figure: '1234 requests, rejected 1234',
    });
    expect(parseFigure('host matrix: 1234 requests', false)).toBeUndefined();
    expect(parseFigure('PDS and PLC up in 812 ms at http://localhost:1', true)).toBeUndefined();
    expect(parseFigure('  needs_review: X may have published', true)).toBeUndefined();
  });

  it("reads the publishing tests' ambiguous-failure line wherever it comes from", () => {
    expect(parseFigure('Ambiguous failures ("committed, then dropped"): cases 7, duplicates 0', false)).toEqual({
      row: 'Ambiguous failures ("committed, then dropped")',
      figure: 'cases 7, duplicates 0',
    });
  });

  it("puts a row in its table: Security rows by name, else by the test's folder", () => {
    const file = (folder: string) => path.join('/repo', 'test', folder, 'x.test.ts');
    expect(sectionOf('Stalls', file('reliability'))).toBe('Security');
    expect(sectionOf('Disk full', file('reliability'))).toBe('Reliability');
    expect(sectionOf('host matrix', file('security'))).toBe('Security');
    expect(sectionOf('Never silent', undefined)).toBe('Reliability');
  });
});
