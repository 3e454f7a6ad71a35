/**
 * House style (docs/architecture.md, habit 3; issues #20 and #34): a file is split before it
 * reaches about 400 lines. This test reads every code file of the app, the client, the CLI, the
 * text and time rules, the desktop main process, the scripts, the tests (simulators and helpers
 * included) and the benches, and names each one over 400 lines, so a file that grows past it is
 * split in the change that grows it, not found later.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 400;
const FOLDERS = ['server', 'client', 'cli', 'renderer/src', 'text', 'time', 'main', 'scripts', 'test', 'bench'];
const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs|js)$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(p);
    return SOURCE.test(e.name) ? [p] : [];
  });
}

export function linesOf(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('code files', () => {
  it(`stay at ${MAX_LINES} lines or fewer`, () => {
    const files = FOLDERS.flatMap((f) => sourceFiles(f));
    expect(files.length).toBeGreaterThan(200);
    for (const folder of ['test/e2e', 'test/simulators', 'bench'])
      expect(files.some((f) => f.startsWith(folder))).toBe(true);
    const over = files
      .map((f) => ({ f, n: linesOf(f) }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n} lines`);
    expect(over).toEqual([]);
  });

  it('counts lines as an editor shows them', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'herald-lines-'));
    try {
      const file = path.join(dir, 'x.ts');
      fs.writeFileSync(file, `${'a\n'.repeat(MAX_LINES + 1)}`);
      expect(linesOf(file)).toBe(MAX_LINES + 1);
      fs.writeFileSync(file, 'one\ntwo');
      expect(linesOf(file)).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
