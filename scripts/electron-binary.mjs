/**
 * Where Electron's binary is, when it is installed, found without fetching it. Since Electron 42
 * `npm install` no longer downloads the binary (the electron package dropped its postinstall), and
 * `require('electron')` from Node downloads it on the spot when it is missing: a silent ~100 MB
 * fetch, or a failure offline. `npm start` only looks; `npx --no install-electron` installs it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The binary's path (the same one `require('electron')` gives), or undefined when it is absent. */
export function installedElectron(from = import.meta.url) {
  let dir;
  try {
    dir = path.dirname(createRequire(from).resolve('electron/package.json'));
  } catch {
    return undefined; // the optional dependency itself is not installed
  }
  let rel = '';
  try {
    rel = fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
  } catch {
    /* never installed */
  }
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const bin = override ? path.join(override, rel || 'electron') : rel ? path.join(dir, 'dist', rel) : undefined;
  return bin && fs.existsSync(bin) ? bin : undefined;
}

/** What to run once for the desktop window. */
export const INSTALL_ELECTRON = 'npx --no install-electron';
