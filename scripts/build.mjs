#!/usr/bin/env node
// Bundles the headless server into dist/server/main.mjs (compiled JS for start-up figures and
// packaging). Native and optional modules stay external.
import path from 'node:path';
import { build } from 'esbuild';

// zod re-exports every locale through `z.locales` (about 260 KB of the bundle, a fifth of what
// Node parses at start-up); Herald speaks English only and never reads z.locales, so only the
// English one is bundled.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (args.importer.includes(`${path.sep}zod${path.sep}`)
      ? { path: path.join(path.dirname(args.importer), '../locales/index.js'), namespace: 'zod-locales' }
      : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: 'export { default as en } from "./en.js";', resolveDir: path.dirname(args.path) }));
  },
};

// twitter-text (with twemoji-parser and Babel helpers: about a tenth of start-up) is needed only
// when a post is counted. In the server bundle its default import becomes a stand-in that loads
// the package from node_modules on first use (client/text reads it only inside functions).
const lazyTwitterText = {
  name: 'lazy-twitter-text',
  setup(b) {
    b.onResolve({ filter: /^twitter-text$/ }, () => ({ path: 'twitter-text', namespace: 'lazy-twitter-text' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-twitter-text' }, () => ({
      contents: `import { createRequire } from 'node:module';
        let loaded;
        const real = () => { if (!loaded) { const m = createRequire(import.meta.url)('twitter-text'); loaded = m.default ?? m; } return loaded; };
        export default new Proxy({}, { get: (_, key) => real()[key], has: (_, key) => key in real(), ownKeys: () => Reflect.ownKeys(real()), getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(real(), key) });`,
      resolveDir: process.cwd(),
    }));
  },
};

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Loaded by Node from node_modules, not parsed as part of the bundle at start-up: native and
  // optional modules; those Herald requires on first use (node-schedule, file-type, sanitize-html,
  // multer, and twitter-text through the stand-in above); iconv-lite, whose codecs body-parser
  // loads only when a body is first decoded; and mime-db, a JSON file Node reads far faster than
  // the same data bundled as JavaScript.
  external: ['better-sqlite3', 'keytar', 'electron', '@atproto/*', 'file-type', 'sharp', 'node-schedule', 'sanitize-html', 'multer', 'iconv-lite', 'mime-db'],
  plugins: [zodEnglishOnly, lazyTwitterText],
  minify: true,
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log('built dist/server/main.mjs');
