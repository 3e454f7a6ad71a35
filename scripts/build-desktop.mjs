#!/usr/bin/env node
/**
 * Builds what electron-builder packs (electron-builder.yml): the UI (vite → renderer/dist), the
 * main process bundled to dist/main/main.cjs (esbuild; native and lazily required modules stay
 * in node_modules), and the preload beside it. `--out <dir>` builds into another folder (tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : root;
const skipUi = process.argv.includes('--skip-ui');

if (!skipUi) {
  const env = { ...process.env };
  delete env.NODE_ENV;
  const vite = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--outDir', path.join(out, 'renderer/dist'), '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
}

await build({
  entryPoints: [path.join(root, 'main/main.ts')],
  outfile: path.join(out, 'dist/main/main.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: false,
  minify: false,
  // Native modules, Electron itself, and what the server requires lazily at run time.
  external: ['electron', 'better-sqlite3', 'keytar', 'node-schedule', 'multer', 'sanitize-html'],
  // import.meta.url in a CommonJS bundle: this file's own URL.
  define: { 'import.meta.url': '__heraldMetaUrl' },
  banner: { js: "const __heraldMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
fs.copyFileSync(path.join(root, 'main/preload.cjs'), path.join(out, 'dist/main/preload.cjs'));
console.log(`built ${path.relative(root, path.join(out, 'dist/main/main.cjs')) || 'dist/main/main.cjs'}, preload.cjs and renderer/dist`);
