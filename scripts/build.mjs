#!/usr/bin/env node
// Bundles the headless server into dist/server/main.mjs (compiled JS for start-up figures and
// packaging). Native and optional modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Loaded lazily with require() on first use, so start-up does not parse them.
  external: ['better-sqlite3', 'keytar', 'electron', '@atproto/*', 'file-type', 'sharp', 'node-schedule'],
  minify: true,
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log('built dist/server/main.mjs');
