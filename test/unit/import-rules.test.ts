/**
 * The layer rules of docs/architecture.md, read from the imports of every source file:
 * http → domain → (db repos, platforms, secrets) → core/text. A forbidden edge fails the test
 * with the file and the import, so a change that reaches across a layer is caught at once.
 * The second test feeds the checker one file per rule to show each rule really fires.
 *
 * Beyond the layers: no service reaches another's parts through it (`publishing.repos` outside
 * the publishing core: an edge no import shows), jobs reach the database by no path (no db
 * import, no SQLite package, no repos through a service), the renderer imports nothing under
 * server/ (shared rules live in leaves both import), and no value import circle (an import that
 * only names types is erased, so it closes no circle).
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
  {
    from: /^server\/net$/,
    to: /^server\/(?!core$)|^server:/,
    why: 'net (the address guard and the guarded fetch every service uses) stands on core alone',
  },
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
  {
    from: /^server\/jobs$/,
    pkg: /^(better-sqlite3|drizzle-orm)(\/|$)/,
    why: 'jobs reach the database by no path: not even SQLite itself',
  },
];
/**
 * Reaching another service's repositories through it (`this.publishing.repos.handOff…`): a
 * layer edge no import shows. Only the publishing core's own files (and db/) may name them so.
 */
const FACADE = /\b(?!this\b)([A-Za-z_$][\w$]*)\.repos\b/g;
const FACADE_OWNERS = /^server\/(domain\/publishing|db)\//;

/** An import or re-export naming only types (erased: it closes no circle). */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s|^\s*(?:import|export)\s*\{\s*type\s[^}]*\}\s*from/;
const STATIC_IMPORT = /(?:^|[\s;])((?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"])/g;

/** The repository path a relative specifier names, if it is one of `files`. */
function resolve(files: Map<string, string>, from: string, spec: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(js|mjs|jsx)$/, '');
  for (const c of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base])
    if (files.has(c)) return c;
  return undefined;
}

/** Value import circles (static imports that are not type-only), each as `a → b → a`. */
export function circles(files: Map<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, src] of files) {
    const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const out: string[] = [];
    for (const m of code.matchAll(STATIC_IMPORT)) {
      const spec = m[2] ?? m[3];
      if (!spec.startsWith('.') || TYPE_ONLY.test(m[1])) continue;
      const to = resolve(files, file, spec);
      if (to) out.push(to);
    }
    edges.set(file, out);
  }
  // Tarjan's strongly connected components: each component of more than one file (or a file
  // importing itself) holds a circle; one path around it is reported.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) !== idx.get(v)) return;
    const comp: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      on.delete(w);
      comp.push(w);
    } while (w !== v);
    const inComp = new Set(comp);
    if (comp.length === 1 && !(edges.get(v) ?? []).includes(v)) return;
    // A path around the circle, from its first file back to it.
    const start = [...comp].sort()[0];
    const seen = new Set<string>();
    const walk = (at: string, trail: string[]): string[] | null => {
      for (const n of edges.get(at) ?? []) {
        if (n === start) return [...trail, n];
        if (!inComp.has(n) || seen.has(n)) continue;
        seen.add(n);
        const r = walk(n, [...trail, n]);
        if (r) return r;
      }
      return null;
    };
    found.push(`import circle: ${(walk(start, [start]) ?? comp).join(' → ')}`);
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return found;
}

const SPECIFIER = new RegExp(
  [
    String.raw`(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]`,
    String.raw`(?:^|[\s;])import\s*['"]([^'"]+)['"]`,
    String.raw`import\(\s*['"]([^'"]+)['"]\s*\)`,
    String.raw`require\(\s*['"]([^'"]+)['"]\s*\)`,
  ].join('|'),
  'g',
);
const TEXT_SPECIFIER = new RegExp(
  [
    String.raw`(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]`,
    String.raw`import\(\s*['"]([^'"]+)['"]\s*\)`,
    String.raw`require\(\s*['"]([^'"]+)['"]\s*\)`,
  ].join('|'),
  'g',
);

/** Every forbidden edge in `files` (repository path → source text). */
export function violations(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, src] of files) {
    const from = layerOf(file);
    const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    if (file.startsWith('server/') && !FACADE_OWNERS.test(file)) {
      for (const m of code.matchAll(FACADE))
        out.push(`${file} reaches ${m[0]} (no service reaches another's repositories through it)`);
    }
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

  it('no value import circle', () => {
    expect(circles(sources())).toEqual([]);
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
      // A service's parts through the service: the scheduler's old reach into publishing.
      ['server/jobs/scheduler.ts', 'const due = this.publishing.repos.handOff.nextLocalDue();'],
      ['server/domain/scheduling/a.service.ts', 'publishing.repos.outbox.parts(id);'],
      // Jobs and SQLite, by package.
      ['server/jobs/a-lock.ts', "import Database from 'better-sqlite3';"],
      ['server/net/guarded-fetch.ts', "import { MAX_MEDIA_BYTES } from '../domain/media/media-types.js';"],
      // The renderer and server/, contracts included.
      ['renderer/src/pages/A.tsx', "import { draftBody } from '../../../server/contracts/drafts';"],
      ['renderer/src/components/a.ts', "import type { Deps } from '../../../server/domain/deps.js';"],
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
      [
        'server/domain/publishing/scheduled-runner.ts',
        'const { schedule } = this.repos;\nthis.repos.commits.relaxed(fn);',
      ],
      ['server/domain/services.ts', 'const repos = createRepos(sqlite, deps);\nrepos.tx.run(fn);'],
    ];
    for (const [file, src] of allowed) expect(violations(new Map([[file, src]])), `${file}: ${src}`).toEqual([]);
  });

  it('finds value import circles, and not type-only ones', () => {
    // The publishing core's old circle: plan → runner → x-spend → plan.
    const circle = new Map([
      ['server/domain/publishing/plan.ts', "import { MediaRef } from './runner.js';"],
      ['server/domain/publishing/runner.ts', "import { xRequestCostUsd } from './x-spend.js';"],
      ['server/domain/publishing/x-spend.ts', "import { loadDraft, partsFor } from './plan.js';"],
    ]);
    expect(circles(circle)).toEqual([
      'import circle: server/domain/publishing/plan.ts → server/domain/publishing/runner.ts → ' +
        'server/domain/publishing/x-spend.ts → server/domain/publishing/plan.ts',
    ]);
    const typeOnly = new Map(circle);
    typeOnly.set('server/domain/publishing/plan.ts', "import type { MediaRef } from './runner.js';");
    expect(circles(typeOnly)).toEqual([]);
    typeOnly.set('server/domain/publishing/plan.ts', "import { type MediaRef } from './runner.js';");
    expect(circles(typeOnly)).toEqual([]);
    expect(
      circles(
        new Map([
          ['text/a.ts', "export { b } from './b.js';"],
          ['text/b.ts', "import { a } from './a.js';"],
        ]),
      ),
    ).toHaveLength(1);
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
      const specifiers = [...src.matchAll(TEXT_SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]);
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
