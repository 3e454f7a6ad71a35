/**
 * Electron main process entry: hands Electron's modules to the desktop wiring (desktop.ts),
 * which boots the server in-process and opens the window. Loaded only by Electron, either from
 * source through electron-entry.cjs (tsx) or bundled to dist/main/main.cjs for packaging.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { startDesktop } from './desktop.js';

const here = path.dirname(fileURLToPath(import.meta.url));

startDesktop(electron, { here, resourcesPath: process.resourcesPath }).catch((err: Error) => {
  console.error(`Herald could not start: ${err.message}`);
  electron.app.exit(1);
});
