#!/usr/bin/env node
// `npm start`: the desktop app where Electron's binary is installed, else the headless server.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const bin = require('electron'); // the package exports the binary's path, and throws when it is missing
    return typeof bin === 'string' ? bin : undefined;
  } catch {
    return undefined;
  }
}

const electron = process.env.HERALD_HEADLESS ? undefined : electronBinary();
let child;
if (electron) {
  child = spawn(electron, [path.join(root, 'main', 'electron-entry.cjs')], { stdio: 'inherit', cwd: root });
} else {
  console.log('Electron is not installed here; starting Herald headless (the same API, no window).');
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  child = spawn(process.execPath, [tsx, path.join(root, 'server', 'main.ts')], { stdio: 'inherit', cwd: root });
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
// A SIGTERM sent to npm alone stops the shell npm started, not this script: when the parent is
// gone, pass the stop on instead of leaving Herald running.
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) child.kill('SIGTERM'); }, 500).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
