#!/usr/bin/env node
/**
 * Builds what electron-builder packs (electron-builder.yml): the UI (vite → renderer/dist), the
 * main process bundled to dist/main/main.cjs (esbuild; native and lazily required modules stay
 * in node_modules), and the preload beside it. `--out <dir>` builds into another folder (tests).
 */
import path from 'node:path';
import { buildDesktopMain, buildUi } from './build.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : root;
if (!process.argv.includes('--skip-ui')) buildUi(root, path.join(out, 'renderer/dist'));
await buildDesktopMain(root, out);
const { stop } = await import('esbuild');
await stop();
console.log(
  `built ${path.relative(root, path.join(out, 'dist/main/main.cjs')) || 'dist/main/main.cjs'}, preload.cjs ` +
    `and renderer/dist`,
);
