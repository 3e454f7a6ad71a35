/**
 * Every time the UI shows goes through one formatter (renderer/src/components/time.tsx over
 * time/format.ts), so no page can show a time in the browser's zone or in Intl's default format
 * by accident again: this reads every renderer source and fails on a Date formatted by its own
 * locale methods, an Intl.DateTimeFormat (or its defaults, e.g. the machine's zone) built outside
 * the formatter, or a Date read in the machine's zone (getHours and the like; the UTC getters
 * are fine). A case per pattern shows the check fires.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('renderer/src');
const FORMATTER = 'components/time.tsx';

const PATTERNS: [RegExp, string][] = [
  [/\.toLocale(?:Date|Time)String\(/, 'a Date formatted by its own locale method'],
  [
    /\.toLocaleString\(\s*(?:\)|undefined\b|\[\]|\{)/,
    "toLocaleString with the default locale (a Date shown in the browser's zone and format)",
  ],
  [
    /\bIntl\s*\.\s*DateTimeFormat\b/,
    "an Intl.DateTimeFormat outside the formatter (or its defaults: the machine's zone)",
  ],
  [
    /\.(?:get|set)(?:FullYear|Month|Date|Day|Hours|Minutes|Seconds)\(|\.getTimezoneOffset\(/,
    "a Date read in the machine's zone",
  ],
];

/** Each stray use in `files` (path → source) as "path:line: why". */
export function strays(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, src] of files) {
    if (file === FORMATTER) continue;
    const code = src.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
    code.split('\n').forEach((line, i) => {
      for (const [re, why] of PATTERNS) if (re.test(line)) out.push(`${file}:${i + 1}: ${why}`);
    });
  }
  return out;
}

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const p = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name)) files.set(p, fs.readFileSync(path.join(ROOT, p), 'utf8'));
    }
  };
  walk('');
  return files;
}

describe('shown times go through the one formatter', () => {
  it('no renderer source formats or reads a time on its own', () => {
    const files = sources();
    expect(files.size).toBeGreaterThan(40);
    expect(files.has(FORMATTER)).toBe(true);
    expect(strays(files)).toEqual([]);
  });

  it('each pattern is caught, and numbers, UTC getters and comments are not', () => {
    const caught = [
      'const s = new Date(iso).toLocaleString();',
      'const s = d.toLocaleString(undefined, { timeZone: zone });',
      '<td>{new Date(k.createdAt).toLocaleDateString()}</td>',
      'const t = d.toLocaleTimeString("en-GB");',
      'const f = new Intl.DateTimeFormat(undefined, { weekday: "short" });',
      'const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;',
      'const h = new Date().getHours();',
      'd.setDate(d.getUTCDate() + 1);',
    ];
    for (const src of caught) expect(strays(new Map([['pages/A.tsx', src]])), src).toHaveLength(1);
    const fine = [
      "const n = (1234).toLocaleString('en');",
      'const d = new Date(ms).getUTCDay();',
      '// new Date().toLocaleString() was the bug',
      "import { formatTime } from '../../../time/index';",
    ];
    for (const src of fine) expect(strays(new Map([['pages/A.tsx', src]])), src).toEqual([]);
    expect(strays(new Map([[FORMATTER, 'const z = Intl.DateTimeFormat;']]))).toEqual([]);
  });
});
