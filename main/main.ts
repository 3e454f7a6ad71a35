/**
 * Electron main process: boots the same server as `npm run serve` in-process, then opens one
 * locked-down window on the UI it serves. Loaded only by Electron (scripts/start.mjs decides).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, Menu, Notification, session, shell, Tray, nativeImage, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { createServer, type HeraldServer } from '../server/server.js';
import { allowNavigation, allowOpenExternal, contentSecurityPolicy, trustedSender, webPreferences } from './security.js';
import { onWindowClose, trayMenu } from './tray.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let server: HeraldServer | undefined;
let win: BrowserWindow | undefined;
let tray: Tray | undefined;
const state = { quitting: false, hasTray: false };
const appContents = new Set<number>();

function origin(): string {
  return new URL(server!.url).origin;
}

/** Navigation, new windows, webviews and permission requests: all denied but the app's own. */
function harden(contents: WebContents): void {
  contents.on('will-navigate', (event, target) => { if (!allowNavigation(target, origin())) event.preventDefault(); });
  contents.on('will-redirect', (event, target) => { if (!allowNavigation(target, origin())) event.preventDefault(); });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (allowOpenExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

function createWindow(): BrowserWindow {
  const w = new BrowserWindow({
    width: 1280, height: 800, minWidth: 960, minHeight: 640, title: 'Herald', show: false,
    webPreferences: webPreferences(path.join(here, 'preload.cjs')),
  });
  appContents.add(w.webContents.id);
  harden(w.webContents);
  w.once('ready-to-show', () => w.show());
  w.on('close', (event) => {
    if (onWindowClose(state) === 'hide') {
      event.preventDefault();
      w.hide();
    }
  });
  void w.loadURL(`${server!.url}/`);
  return w;
}

function senderOk(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return trustedSender({ frameUrl: frame?.url, isMainFrame: frame ? frame.parent === null : false, webContentsId: event.sender.id }, origin(), appContents);
}

/** The UI's own enterprise key, kept in the secret store; made once the owner exists. */
async function uiKey(): Promise<string> {
  const s = server!.services;
  const owner = s.users.count() > 0 ? s.deps.db.query.users.findFirst() : undefined;
  const user = await owner;
  if (!user) return '';
  const saved = await s.deps.secrets.get('ui-key').catch(() => null);
  if (saved) {
    try { await s.auth.authenticate(saved); return saved; } catch { /* deleted: make a new one */ }
  }
  const issued = s.auth.issueKey(user.id, 'Herald desktop app', 'enterprise');
  await s.deps.secrets.set('ui-key', issued.key).catch(() => undefined);
  return issued.key;
}

function registerIpc(key: () => string): void {
  ipcMain.on('herald:config', (event) => {
    event.returnValue = senderOk(event) ? { baseUrl: `${server!.url}/api/v1`, apiKey: key() } : { baseUrl: '', apiKey: '' };
  });
  const handle = (channel: string, fn: (...args: any[]) => unknown) => ipcMain.handle(channel, (event, ...args) => {
    if (!senderOk(event)) throw new Error('refused');
    return fn(...args);
  });
  handle('herald:open-external', (url: string) => (allowOpenExternal(url) ? shell.openExternal(url).then(() => true) : false));
  handle('herald:notify', (title: string, body: string) => { new Notification({ title: title.slice(0, 100), body: body.slice(0, 300) }).show(); });
  handle('herald:get-start-at-login', () => app.getLoginItemSettings().openAtLogin);
  handle('herald:set-start-at-login', (on: boolean) => { app.setLoginItemSettings({ openAtLogin: on }); return on; });
}

function refreshTray(): void {
  if (!tray || !server) return;
  const rows = server.deps.sqlite.prepare(`SELECT d.title AS draftTitle, e.fire_at AS fireAt, e.platform FROM schedule_entries e JOIN drafts d ON d.id = e.draft_id
    WHERE e.status = 'pending' ORDER BY e.due_at LIMIT 1`).all() as { draftTitle: string; fireAt: number; platform: string }[];
  const pending = (server.deps.sqlite.prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE status = 'pending'").get() as { n: number }).n;
  const next = rows[0] ? { draftTitle: rows[0].draftTitle, scheduledFor: new Date(rows[0].fireAt).toISOString(), platform: rows[0].platform } : undefined;
  const items = trayMenu(next, pending, (iso) => new Date(iso).toLocaleString());
  tray.setContextMenu(Menu.buildFromTemplate(items.map((i) => ({
    label: i.label, enabled: i.enabled ?? true,
    click: i.action === 'open' ? () => { win?.show(); win?.focus(); } : i.action === 'quit' ? () => { state.quitting = true; app.quit(); } : undefined,
  }))));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => { win?.show(); win?.focus(); });
  app.on('web-contents-created', (_e, contents) => harden(contents));
  app.whenReady().then(async () => {
    server = await createServer({ overrides: { HERALD_DATA_DIR: process.env.HERALD_DATA_DIR ?? app.getPath('userData') } });
    const csp = contentSecurityPolicy(origin());
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
      cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
    });
    let key = await uiKey();
    registerIpc(() => key);
    server.services.publishing.events.on('target', (r: { platform: string; success: boolean; error?: { message: string } }) => {
      if (Notification.isSupported()) new Notification({ title: r.success ? `Published to ${r.platform}` : `Publishing to ${r.platform} failed`, body: r.success ? '' : r.error?.message ?? '' }).show();
      refreshTray();
    });
    try {
      tray = new Tray(nativeImage.createEmpty());
      state.hasTray = true;
      refreshTray();
      setInterval(refreshTray, 60_000).unref();
    } catch {
      state.hasTray = false;
    }
    win = createWindow();
    // After onboarding creates the owner, the UI asks again for its key.
    ipcMain.handle('herald:refresh-key', async (event) => {
      if (!senderOk(event)) throw new Error('refused');
      key = await uiKey();
      return key;
    });
  }).catch((err: Error) => {
    console.error(`Herald could not start: ${err.message}`);
    app.exit(1);
  });
  app.on('before-quit', () => { state.quitting = true; });
  app.on('will-quit', (event) => {
    if (server) {
      event.preventDefault();
      const s = server;
      server = undefined;
      void s.close().finally(() => app.exit(0));
    }
  });
}
