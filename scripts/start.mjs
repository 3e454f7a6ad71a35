#!/usr/bin/env node
/**
 * `npm start`: the desktop app where Electron's binary is installed, else the headless server;
 * `npm run serve` (`--headless`): always the headless server. Whatever is missing or older than
 * its sources is compiled first (server, UI; the desktop main process), then the headless server
 * runs inside this very process: one Node process serves the app, with no TypeScript loader.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { INSTALL_ELECTRON, installedElectron } from './electron-binary.mjs';
import { checkNodeVersion } from './node-version.mjs';

checkNodeVersion();
const { ensureBuilt, PARTS } = await import('./build.mjs');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const headless = process.argv.includes('--headless') || Boolean(process.env.HERALD_HEADLESS);
// Looked up, never require('electron'): since Electron 42 that downloads a missing binary.
const electron = headless ? undefined : installedElectron();
const serverEntry = pathToFileURL(path.join(root, PARTS.server.output)).href;
// The compiled server loads while its sources' times are checked (on libuv's threads): importing
// it starts nothing, and when the check rebuilds it, the new build is imported instead.
const loading = electron ? undefined : import(serverEntry).catch(() => undefined);
let rebuilt;
try {
  rebuilt = await ensureBuilt(electron ? ['desktop', 'ui'] : ['server', 'ui']);
} catch (err) {
  console.error(`Herald cannot start: ${err.message}`);
  process.exit(1);
}

if (electron) {
  const child = spawn(electron, [path.join(root, 'main', 'electron-entry.cjs')], { stdio: 'inherit', cwd: root });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  // A SIGTERM sent to npm alone stops the shell npm started, not this script: when the parent is
  // gone, pass the stop on instead of leaving Herald running.
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) child.kill('SIGTERM'); }, 500).unref();
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (!headless) console.log(`Electron is not installed here, so Herald runs headless: the same app in your browser, no window. For the desktop window, install Electron's binary once (${INSTALL_ELECTRON}) and run npm start again.`);
  const loaded = await loading;
  const { runHeadless } = loaded && !rebuilt.includes('server') ? loaded : await import(`${serverEntry}?build=${Date.now()}`);
  await runHeadless();
}
