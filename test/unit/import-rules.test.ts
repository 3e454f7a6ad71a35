/**
 * The layer rules of docs/architecture.md, read from the imports of every source file:
 * http → domain → (db repos, platforms, secrets) → core/text. A forbidden edge fails the test
 * with the file and the import, so a change that reaches across a layer is caught at once.
 * The second test feeds the checker one file per rule to show each rule really fires.
 *
 * text/ is imported by the server, the client library, the CLI and the UI (a browser
 * renderer): it may import only itself and twitter-text, never Node built-ins or the server.
 * The one exception is the emoji pattern of twemoji-parser, the browser-safe module twitter-text
 * itself weighs emoji with (text/urls.ts runs it without parse()'s per-emoji URL
 * building): exactly that file, and the same copy twitter-text loads.
 *
 * time/ (zones, the DST rule, slots, the formatter of shown times) is a leaf in the same way and
 * stricter: it imports no package at all, only its own files.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('.');
const FOLDERS = ['server', 'client', 'cli', 'renderer/src', 'text', 'time', 'main'];

/** The layer a repository path belongs to. */
function layerOf(p: string): string {
  if (p.startsWith('server/')) {
    const rest = p.slice('server/'.length);
    if (!rest.includes('/')) return rest === 'server.ts' || rest === 'main.ts' ? 'server:root' : 'server:top';
    return `server/${rest.split('/')[0]}`;
  }
  if (p.startsWith('renderer/')) return 'renderer';
  return p.split('/')[0];
}

interface Rule {
  from: RegExp;
  to: RegExp;
  why: string;
}

const RULES: Rule[] = [
  { from: /^server\/domain$/, to: /^server\/http$/, why: 'domain never imports http' },
  { from: /^server\/db$/, to: /^server\/domain$/, why: 'db never imports domain' },
  { from: /^server\/platforms$/, to: /^server\/(domain|db)$/, why: 'platforms never import domain or db' },
  {
    from: /^server\/http$/,
    to: /^server\/(db|platforms)$/,
    why: 'http reaches db and platforms only through domain services',
  },
  {
    from: /^server\/jobs$/,
    to: /^server\/(db|platforms)$/,
    why: 'jobs only wake, claim and call the publishing service',
  },
  {
    from: /^server\/(domain|platforms|secrets|db|core)$/,
    to: /^server:(root|top)$/,
    why: 'lower layers use server/core, never the composition root or top-level grab-bags',
  },
  { from: /^server\/core$/, to: /^server\/(?!core$)/, why: 'core is a leaf' },
  { from: /^text$/, to: /./, why: 'text imports nothing else in the repository' },
  { from: /^time$/, to: /./, why: 'time imports nothing else in the repository' },
  {
    from: /^renderer$/,
    to: /^server(\/|:)/,
    why: 'the renderer depends on client, text and time, never on anything under server/',
  },
  {
    from: /^cli$/,
    to: /^server\/(?!contracts$)|^server:/,
    why: 'the cli depends on client, contracts, text and time, never on server internals',
  },
  { from: /^client$/, to: /^server\/(?!contracts$)|^server:/, why: 'client never imports server internals' },
  {
    from: /^(server\/.*|server:.*)$/,
    to: /^(main|cli|client|renderer)$/,
    why: 'server imports neither main, the CLI, the client nor the UI',
  },
];
/** Edges inside one layer that the layer rules cannot see. */
const FILE_RULES: Rule[] = [
  {
    from: /^renderer\/src\/(pages|components)\//,
    to: /^renderer\/src\/App(\.tsx?|\.js)?$/,
    why: 'pages use the router module, never the app shell (App.tsx imports every page)',
  },
];
const PACKAGE_RULES: { from: RegExp; pkg: RegExp; why: string }[] = [
  { from: /^(server\/.*|server:.*)$/, pkg: /^electron(\/|$)/, why: 'server never imports electron' },
  { from: /^time$/, pkg: /./, why: 'time imports no package (it runs in browsers and the server alike)' },
  {
    from: /^text$/,
    pkg: /^(?!twitter-text$|twemoji-parser\/dist\/lib\/regex\.js$)/,
    why: 'text imports only twitter-text and the emoji pattern twitter-text itself uses (it runs in browsers too)',
  },
];

const SPECIFIER = new RegExp(
  [
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/.source,
    /(?:^|[\s;])import\s*['"]([^'"]+)['"]/.source,
    /import\(\s*['"]([^'"]+)['"]\s*\)/.source,
    /require\(\s*['"]([^'"]+)['"]\s*\)/.source,
  ].join('|'),
  'g',
);

/** Every forbidden edge in `files` (repository path → source text). */
export function violations(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, src] of files) {
    const from = layerOf(file);
    const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of code.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (spec.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        for (const r of FILE_RULES)
          if (r.from.test(file) && r.to.test(target)) out.push(`${file} imports ${spec} (${r.why})`);
        const to = layerOf(target);
        if (to === from) continue;
        for (const r of RULES) if (r.from.test(from) && r.to.test(to)) out.push(`${file} imports ${spec} (${r.why})`);
      } else {
        const pkg = spec.startsWith('node:') ? null : spec;
        if (spec.startsWith('node:') && (from === 'text' || from === 'time'))
          out.push(`${file} imports ${spec} (${from} runs in browsers: no Node built-ins)`);
        if (!pkg) continue;
        for (const r of PACKAGE_RULES)
          if (r.from.test(from) && r.pkg.test(pkg)) out.push(`${file} imports ${spec} (${r.why})`);
      }
    }
  }
  return out;
}

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'dist') walk(p);
      } else if (/\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
        files.set(p, fs.readFileSync(path.join(ROOT, p), 'utf8'));
    }
  };
  for (const f of FOLDERS) walk(f);
  return files;
}

describe('import rules (architecture.md)', () => {
  it('no source file imports across a forbidden edge', () => {
    const files = sources();
    expect(files.size).toBeGreaterThan(150);
    expect(violations(files)).toEqual([]);
  });

  it('each rule fires on a forbidden import', () => {
    const cases: [string, string][] = [
      ['server/domain/x/a.service.ts', "import { r } from '../../http/route.js';"],
      ['server/db/repos/a.repo.ts', "import { s } from '../../domain/drafts/drafts.service.js';"],
      ['server/platforms/a.adapter.ts', "import { s } from '../domain/media/shrink.js';"],
      ['server/platforms/a.adapter.ts', "import { d } from '../db/connection.js';"],
      ['server/http/routes/a.routes.ts', "import { d } from '../../db/repos/drafts.repo.js';"],
      ['server/http/routes/a.routes.ts', "import { a } from '../../platforms/registry.js';"],
      ['server/jobs/scheduler.ts', "const d = await import('../db/repos/schedule.repo.js');"],
      ['server/domain/x/a.service.ts', "import type { Deps } from '../../server.js';"],
      ['server/platforms/a.adapter.ts', "import { loadConfig } from '../config.js';"],
      ['server/secrets/a.ts', "import { HeraldError } from '../errors.js';"],
      ['text/a.ts', "import { x } from '../client/index.js';"],
      ['text/a.ts', "import fs from 'node:fs';"],
      ['renderer/src/pages/A.tsx', "import { s } from '../../../server/domain/drafts/drafts.service.js';"],
      ['cli/a.command.ts', "const b = await import('../server/db/backup.js');"],
      ['client/a.ts', "export { x } from '../server/http/route.js';"],
      ['server/domain/x/a.service.ts', "import { BrowserWindow } from 'electron';"],
      ['server/server.ts', "import { boot } from '../main/desktop.js';"],
      ['renderer/src/pages/A.tsx', "import { navigate } from '../App';"],
      ['time/a.ts', "import { countText } from '../text/index.js';"],
      ['time/a.ts', "import fs from 'node:fs';"],
      ['time/a.ts', "import { z } from 'zod';"],
      ['renderer/src/components/A.tsx', "import { offsetAt } from '../../../server/contracts/drafts';"],
    ];
    for (const [file, src] of cases) expect(violations(new Map([[file, src]])), `${file}: ${src}`).toHaveLength(1);
    // Allowed edges stay quiet.
    const allowed: [string, string][] = [
      ['server/http/routes/a.routes.ts', "import { s } from '../../domain/drafts/drafts.service.js';"],
      [
        'server/domain/x/a.service.ts',
        "import { r } from '../../db/repos/drafts.repo.js';\nimport { c } from '../../core/clock.js';\n" +
          "import { t } from '../../../text/counting.js';",
      ],
      [
        'cli/a.command.ts',
        "import { c } from '../client/index.js';\nimport type { D } from '../server/contracts/drafts.js';",
      ],
      ['text/a.ts', "import twitter from 'twitter-text';\nimport { u } from './urls.js';"],
      ['renderer/src/pages/A.tsx', "import { navigate } from '../router';\nimport { client } from '../api';"],
      ['renderer/src/main.tsx', "import { App } from './App';"],
      ['renderer/src/components/A.tsx', "import { formatTime } from '../../../time/index';"],
      ['server/domain/x/a.service.ts', "import { slotInstants } from '../../../time/index.js';"],
      ['time/a.ts', "import { offsetAt } from './zones.js';"],
    ];
    for (const [file, src] of allowed) expect(violations(new Map([[file, src]])), `${file}: ${src}`).toEqual([]);
  });
});

const textDir = path.resolve('text');
const TWEMOJI_REGEX = 'twemoji-parser/dist/lib/regex.js';

describe('text/ imports', () => {
  it('imports nothing but its own files and twitter-text', () => {
    const files = fs.readdirSync(textDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const src = fs.readFileSync(path.join(textDir, f), 'utf8');
      const specifiers = [
        ...src.matchAll(
          new RegExp(
            [
              /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/.source,
              /import\(\s*['"]([^'"]+)['"]\s*\)/.source,
              /require\(\s*['"]([^'"]+)['"]\s*\)/.source,
            ].join('|'),
            'g',
          ),
        ),
      ].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const s of specifiers)
        expect(s === 'twitter-text' || s === TWEMOJI_REGEX || /^\.\/[a-z-]+\.js$/.test(s), `${f} imports ${s}`).toBe(
          true,
        );
      expect(src).not.toMatch(/\bprocess\.|\bBuffer\b|__dirname/);
    }
  });

  it('the twemoji-parser pattern it imports is the copy twitter-text uses', () => {
    const req = createRequire(path.join(textDir, 'urls.ts'));
    const fromTwitterText = createRequire(req.resolve('twitter-text'));
    expect(req.resolve(TWEMOJI_REGEX)).toBe(fromTwitterText.resolve(TWEMOJI_REGEX));
  });
});
