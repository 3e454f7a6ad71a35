#!/usr/bin/env node
/**
 * `npm start`: the desktop app where Electron's binary is installed, else the headless server;
 * `npm run serve` (`--headless`): always the headless server. Whatever is missing or older than
 * its sources is compiled first (server, UI; the desktop main process), then the headless server
 * runs inside this very process: one Node process serves the app, with no TypeScript loader.
 */
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Node's compile cache (the same folder the server's entry uses, server/main.ts) from the first
// module on: these scripts are read at every start too.
if (!process.env.NODE_COMPILE_CACHE) {
  try {
    module.enableCompileCache?.(path.join(root, 'node_modules', '.cache', 'herald-compile'));
  } catch {
    /* only slower */
  }
}
const { checkNodeVersion } = await import('./node-version.mjs');
checkNodeVersion();
const { INSTALL_ELECTRON, installedElectron } = await import('./electron-binary.mjs');
const { ensureBuilt, PARTS } = await import('./build-state.mjs');

const headless = process.argv.includes('--headless') || Boolean(process.env.HERALD_HEADLESS);
// Looked up, never require('electron'): since Electron 42 that downloads a missing binary.
const electron = headless ? undefined : installedElectron();
const serverEntry = pathToFileURL(path.join(root, PARTS.server.output)).href;
try {
  await ensureBuilt(electron ? ['desktop', 'ui'] : ['server', 'ui']);
} catch (err) {
  console.error(`Herald cannot start: ${err.message}`);
  process.exit(1);
}

if (electron) {
  const { spawn } = await import('node:child_process');
  const child = spawn(electron, [path.join(root, 'main', 'electron-entry.cjs')], { stdio: 'inherit', cwd: root });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  // A SIGTERM sent to npm alone stops the shell npm started, not this script: when the parent is
  // gone, pass the stop on instead of leaving Herald running.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) child.kill('SIGTERM');
  }, 500).unref();
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (!headless)
    console.log(
      `Electron is not installed here, so Herald runs headless: the same app in your browser, no window. For ` +
        `the desktop window, install Electron's binary once (${INSTALL_ELECTRON}) and run npm start again.`,
    );
  const { runHeadless } = await import(serverEntry);
  await runHeadless();
}
