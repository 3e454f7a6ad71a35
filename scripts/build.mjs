#!/usr/bin/env node
/**
 * Compiles what Herald runs, so that no TypeScript loader is needed at run time:
 * - dist/server/main.mjs: the headless server (`npm start`, `npm run serve`, `herald serve`), and
 *   beside it dist/server/database-commands.mjs (`herald backup` and `herald restore`);
 * - dist/cli/herald.mjs: the `herald` command (bin/herald.mjs loads it); it contains no server
 *   code: serve, backup and restore load the compiled server at run time (cli/server-entry.ts);
 * - dist/main/main.cjs + preload.cjs: the Electron main process (scripts/build-desktop.mjs);
 * - renderer/dist: the UI (Vite).
 * `node scripts/build.mjs` builds them all (npm runs it after install); the start scripts call
 * `ensureBuilt` (build-state.mjs, which loads this file only when something is to be built) so a
 * checkout whose sources changed is rebuilt before it runs. Outputs are
 * written to a temporary name and renamed, so processes building at once never see half a file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARTS } from './build-state.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { PARTS, isStale, ensureBuilt } from './build-state.mjs';

// zod re-exports every locale through `z.locales` (a fifth of what Node parses at start-up:
// README, Performance); Herald speaks English only and never reads z.locales.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), '../locales/index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
    }));
  },
};

// twitter-text (with twemoji-parser and Babel helpers: about a tenth of start-up) is needed only
// when a post is counted: its default import becomes a stand-in that loads the package on first use.
const lazyTwitterText = {
  name: 'lazy-twitter-text',
  setup(b) {
    b.onResolve({ filter: /^twitter-text$/ }, () => ({ path: 'twitter-text', namespace: 'lazy-twitter-text' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-twitter-text' }, () => ({
      contents: `import { createRequire } from 'node:module';
        let loaded;
        const real = () => {
          if (!loaded) { const m = createRequire(import.meta.url)('twitter-text'); loaded = m.default ?? m; }
          return loaded;
        };
        export default new Proxy({}, {
          get: (_, key) => real()[key],
          has: (_, key) => key in real(),
          ownKeys: () => Reflect.ownKeys(real()),
          getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(real(), key),
        });`,
      resolveDir: ROOT,
    }));
  },
};

/**
 * The source of a CommonJS module exporting a stand-in for what `loadExpr` loads: an object with
 * one property per name of `real` (the module as this build sees it) that loads it on first read.
 * esbuild's interop copies the property names at start-up; only a use reads through them.
 */
function lazyObjectSource(loadExpr, real, skip = []) {
  const names = Object.getOwnPropertyNames(real).filter((n) => n !== '__esModule' && !skip.includes(n));
  return `let real; const load = () => (real ??= ${loadExpr}); const lazy = {};
    for (const k of ${JSON.stringify(names)}) {
      Object.defineProperty(lazy, k, { enumerable: true, get: () => load()[k], set: (v) => { load()[k] = v; } });
    }
    module.exports = lazy;`;
}

// CommonJS packages Express loads at start-up for features Herald does not use then: qs (the
// "extended" query and form parsers; Herald's query parser is "simple" and it takes no forms) and
// mime-types (which builds its extension maps from mime-db as it loads; only a static file or a
// Content-Type lookup needs them). A require() of one gets an object whose properties load the
// package on first read; the package itself stays in the bundle, as before.
const LAZY_PACKAGES = ['qs', 'mime-types'];
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${LAZY_PACKAGES.join('|')})$`) }, (args) => {
      if (args.kind !== 'require-call') return undefined;
      const real = createRequire(path.join(args.resolveDir, 'index.js')).resolve(args.path);
      return { path: real, namespace: 'lazy-package' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
      const real = createRequire(args.path)(args.path);
      if (!real || typeof real !== 'object') throw new Error(`lazy-packages: ${args.path} does not export an object`);
      return {
        contents: lazyObjectSource(`require(${JSON.stringify(args.path)})`, real),
        resolveDir: path.dirname(args.path),
        loader: 'js',
      };
    });
  },
};

// `import http from 'node:http'` in an ES module makes Node build the builtin's ES module facade,
// which reads every export: node:http's lazy WebSocket/EventSource getters load all of undici
// (the figures: README, Performance), node:fs's ReadStream getter loads fs/promises and readline,
// node:dns's promises getter builds a resolver. Bundled code takes builtins from
// process.getBuiltinModule (Node 22.3+) instead, as CommonJS code does: nothing is read until used.
// Builtins the bare Express app never loads, whose loading (TLS contexts, the DNS resolver, worker
// and web-stream classes) a start-up would otherwise pay although only a later request uses them.
const LAZY_BUILTINS = new Set([
  'node:crypto',
  'node:https',
  'node:tls',
  'node:dns',
  'node:dns/promises',
  'node:worker_threads',
  'node:fs/promises',
  'node:timers/promises',
  'node:readline',
  'node:readline/promises',
  'node:stream/web',
  'node:child_process',
  'node:zlib',
  'node:perf_hooks',
  'node:http2',
  'node:v8',
]);
const builtinsWithoutFacade = {
  name: 'builtins-without-esm-facade',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z][a-z0-9_/]*$/ }, (args) => {
      const id = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      // Bundled CommonJS packages' `require('crypto')` too (Express's etag and cookie-signature
      // load it at start-up only to call it later): lazy builtins only, the rest as Node loads them.
      if (args.kind !== 'import-statement' && !(args.kind === 'require-call' && LAZY_BUILTINS.has(id)))
        return undefined;
      return isBuiltin(id) ? { path: id, namespace: 'node-builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const id = JSON.stringify(args.path);
      const get = `(typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule(${id}) : require(${id}))`;
      const real = process.getBuiltinModule?.(args.path);
      if (!LAZY_BUILTINS.has(args.path) || !real || typeof real !== 'object')
        return { contents: `module.exports = ${get};`, loader: 'js' };
      return { contents: lazyObjectSource(get, real, ['default']), loader: 'js' };
    });
  },
};

// Loaded by Node from node_modules, not parsed as part of a bundle at start-up: native and
// optional modules; those Herald requires on first use (node-schedule, file-type, sanitize-html,
// multer); iconv-lite, whose codecs body-parser loads only when a body is first decoded; and
// mime-db, a JSON file Node reads far faster than the same data bundled as JavaScript.
const EXTERNAL = [
  'better-sqlite3',
  'keytar',
  'electron',
  '@atproto/*',
  'file-type',
  'sharp',
  'node-schedule',
  'sanitize-html',
  'multer',
  'iconv-lite',
  'mime-db',
];
const ESM_REQUIRE = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

/** Writes esbuild's in-memory outputs, each under a temporary name first. */
function writeOutputs(outputFiles) {
  // The entry last: a reader that finds the new entry finds its chunks too.
  const sorted = [...outputFiles].sort((a, b) => Number(/chunk-/.test(b.path)) - Number(/chunk-/.test(a.path)));
  for (const f of sorted) {
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    const tmp = `${f.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, f.contents);
    fs.renameSync(tmp, f.path);
  }
  // Chunks of earlier builds (each build names its chunks by content) are removed once a day old:
  // a process started from an earlier build may still load one it has not needed yet.
  const written = new Set(outputFiles.map((f) => f.path));
  for (const dir of new Set(outputFiles.filter((f) => /chunk-/.test(f.path)).map((f) => path.dirname(f.path)))) {
    for (const name of fs.readdirSync(dir).filter((n) => /^chunk-.*\.mjs(\.map)?$/.test(n))) {
      const p = path.join(dir, name);
      try {
        if (!written.has(p) && Date.now() - fs.statSync(p).mtimeMs > 86_400_000) fs.rmSync(p, { force: true });
      } catch {
        /* removed meanwhile */
      }
    }
  }
}

async function esbuild(options) {
  const { build } = await import('esbuild');
  const result = await build({
    bundle: true,
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    write: false,
    ...options,
  });
  writeOutputs(result.outputFiles);
}

export async function buildServer(root = ROOT) {
  await esbuild({
    // server/main.ts is a small entry that turns on the compile cache before it loads the rest
    // (server/headless.ts) from a chunk of its own. server/database-commands.ts is what
    // `herald backup` and `herald restore` load (the CLI opens no database itself).
    entryPoints: [path.join(root, 'server/main.ts'), path.join(root, 'server/database-commands.ts')],
    outdir: path.join(root, path.dirname(PARTS.server.output)),
    format: 'esm',
    splitting: true,
    sourcemap: true,
    minify: true,
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    plugins: [builtinsWithoutFacade, lazyPackages, zodEnglishOnly, lazyTwitterText],
    banner: { js: ESM_REQUIRE },
  });
}

export async function buildCli(root = ROOT) {
  await esbuild({
    entryPoints: { herald: path.join(root, 'cli/herald.ts') },
    outdir: path.join(root, 'dist/cli'),
    format: 'esm',
    splitting: true,
    minify: true,
    sourcemap: true,
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    plugins: [builtinsWithoutFacade, lazyPackages, zodEnglishOnly, lazyTwitterText],
    banner: { js: ESM_REQUIRE },
  });
}

export async function buildDesktopMain(root = ROOT, out = root) {
  await esbuild({
    entryPoints: [path.join(root, 'main/main.ts')],
    outfile: path.join(out, PARTS.desktop.output),
    format: 'cjs',
    sourcemap: false,
    minify: false,
    // Native modules, Electron itself, and what the server requires lazily at run time.
    external: ['electron', 'better-sqlite3', 'keytar', 'node-schedule', 'multer', 'sanitize-html'],
    // import.meta.url in a CommonJS bundle: this file's own URL.
    define: { 'import.meta.url': '__heraldMetaUrl' },
    banner: { js: "const __heraldMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  fs.copyFileSync(path.join(root, 'main/preload.cjs'), path.join(out, 'dist/main/preload.cjs'));
}

/** Builds the UI with Vite (about a second) into `outDir`. */
export function buildUi(root = ROOT, outDir = path.join(root, 'renderer/dist')) {
  const env = { ...process.env };
  delete env.NODE_ENV;
  const vite = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env },
  );
  if (vite.status !== 0) throw new Error(`the UI build failed (vite exited ${vite.status ?? vite.signal})`);
}

/** Each part's builder (build-state.mjs's ensureBuilt runs them for what is stale). */
export const BUILDERS = {
  server: buildServer,
  cli: buildCli,
  desktop: buildDesktopMain,
  ui: async (root) => buildUi(root),
};
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // After `npm install --omit=dev` there is nothing to build with; the start scripts say so if
  // something is missing.
  if (process.argv.includes('--after-install') && !fs.existsSync(path.join(ROOT, 'node_modules/esbuild')))
    process.exit(0);
  const only = process.argv.slice(2).filter((a) => a in PARTS);
  const parts = only.length > 0 ? only : ['server', 'cli', 'ui'];
  for (const p of parts) {
    await BUILDERS[p](ROOT);
    console.log(`built ${PARTS[p].output}`);
  }
  const { stop } = await import('esbuild');
  await stop();
}
