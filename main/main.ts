/**
 * Electron main process: boots the same server as `npm run serve` in-process, then opens one
 * locked-down window on it. Electron is an optional dependency: this file is only loaded by
 * Electron itself (scripts/start.mjs decides).
 */
import { app, BrowserWindow, shell } from 'electron';
import { createServer, type HeraldServer } from '../server/server.js';

let server: HeraldServer | undefined;

function createWindow(url: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Herald',
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false },
  });
  const origin = new URL(url).origin;
  win.webContents.setWindowOpenHandler(({ url: target }) => {
    if (new URL(target).protocol === 'https:') void shell.openExternal(target);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, target) => {
    if (new URL(target).origin !== origin) event.preventDefault();
  });
  void win.loadURL(url);
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.whenReady().then(async () => {
    server = await createServer({ overrides: { HERALD_DATA_DIR: process.env.HERALD_DATA_DIR ?? app.getPath('userData') } });
    createWindow(`${server.url}/api/v1/docs`);
  }).catch((err: Error) => {
    console.error(`Herald could not start: ${err.message}`);
    app.exit(1);
  });
  app.on('before-quit', () => { void server?.close(); });
}
