/**
 * The desktop app's wiring: boots the same server as `npm run serve` in-process, then opens one
 * locked-down window on the UI it serves, with a tray that keeps Herald running (so scheduled
 * posts fire) when the window is closed. Electron's modules are passed in, so this runs under
 * Electron (main.ts) and in unit tests with stand-ins, never importing 'electron' itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type * as E from 'electron';
import { createServer as createHeraldServer, type HeraldServer, type ServerOptions } from '../server/server.js';
import {
  allowNavigation,
  allowOpenExternal,
  contentSecurityPolicy,
  trustedSender,
  webPreferences,
} from './security.js';
import { onWindowClose, trayMenu, type KeepAliveState } from './tray.js';
import { watchNotifications } from './notifications.js';
import { trayIconPng } from './tray-icon.js';
import { wireKeepAwake, type KeepAwake } from './keep-awake.js';
import { formatTime } from '../time/index.js';

/** The parts of Electron the app uses. */
export interface ElectronModules {
  app: Pick<
    E.App,
    | 'requestSingleInstanceLock'
    | 'quit'
    | 'exit'
    | 'on'
    | 'whenReady'
    | 'getPath'
    | 'getAppPath'
    | 'isPackaged'
    | 'getLoginItemSettings'
    | 'setLoginItemSettings'
  >;
  BrowserWindow: new (options: E.BrowserWindowConstructorOptions) => E.BrowserWindow;
  ipcMain: Pick<E.IpcMain, 'on' | 'handle'>;
  Menu: Pick<typeof E.Menu, 'buildFromTemplate'>;
  Notification: {
    new (options: E.NotificationConstructorOptions): Pick<E.Notification, 'show'>;
    isSupported(): boolean;
  };
  session: {
    defaultSession: Pick<E.Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>;
  };
  shell: Pick<E.Shell, 'openExternal'>;
  Tray: new (image: E.NativeImage) => Pick<E.Tray, 'setContextMenu' | 'setToolTip' | 'on'>;
  nativeImage: Pick<typeof E.nativeImage, 'createFromBuffer'>;
  /** Keep-awake and wake handling (keep-awake.ts); absent in stand-ins that do not test it. */
  powerSaveBlocker?: Pick<E.PowerSaveBlocker, 'start' | 'stop' | 'isStarted'>;
  powerMonitor?: Pick<E.PowerMonitor, 'on'>;
}

export interface DesktopOptions {
  /** Folder of main/ (or of the bundle), where preload.cjs is. */
  here: string;
  env?: NodeJS.ProcessEnv;
  /** Electron's process.resourcesPath when packaged. */
  resourcesPath?: string;
  /** Extra server options (tests: config overrides, clock, secret store). */
  server?: Partial<ServerOptions>;
  /** How often the tray's next-post line is refreshed. */
  trayRefreshMs?: number;
}

export interface Desktop {
  server: HeraldServer;
  window(): E.BrowserWindow | undefined;
  state: KeepAliveState;
  refreshTray(): void;
  /** Keep-awake around due posts and the grace/missed rule after a wake (undefined without a scheduler). */
  keepAwake?: KeepAwake;
  /** The UI's own key (made once the owner exists). */
  key(): string;
}

type Sender = E.IpcMainEvent | E.IpcMainInvokeEvent;

/** Where the packaged app keeps what is outside app.asar; sets the env the server reads. */
export function packagedPaths(
  e: Pick<ElectronModules, 'app'>,
  resourcesPath: string | undefined,
  env: NodeJS.ProcessEnv,
): void {
  if (!e.app.isPackaged || !resourcesPath) return;
  const migrations = path.join(resourcesPath, 'migrations');
  if (!env.HERALD_MIGRATIONS_DIR && fs.existsSync(migrations)) env.HERALD_MIGRATIONS_DIR = migrations;
  const ui = path.join(e.app.getAppPath(), 'renderer', 'dist');
  if (!env.HERALD_UI_DIR) env.HERALD_UI_DIR = ui;
}

export async function startDesktop(e: ElectronModules, opts: DesktopOptions): Promise<Desktop | undefined> {
  const env = opts.env ?? process.env;
  if (!e.app.requestSingleInstanceLock()) {
    e.app.quit();
    return undefined;
  }
  packagedPaths(e, opts.resourcesPath, env);

  let server: HeraldServer | undefined;
  let win: E.BrowserWindow | undefined;
  let tray: Pick<E.Tray, 'setContextMenu' | 'setToolTip' | 'on'> | undefined;
  let key = '';
  const state: KeepAliveState = { quitting: false, hasTray: false };
  const appContents = new Set<number>();
  const origin = () => new URL(server!.url).origin;

  /** Navigation, new windows, webviews: all denied but the app's own; https links go to the browser. */
  const harden = (contents: E.WebContents) => {
    contents.on('will-navigate', (event, target) => {
      if (!allowNavigation(target, origin())) event.preventDefault();
    });
    contents.on('will-redirect', (event, target) => {
      if (!allowNavigation(target, origin())) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (allowOpenExternal(url)) void e.shell.openExternal(url);
      return { action: 'deny' };
    });
  };

  const show = () => {
    if (!win || win.isDestroyed()) win = createWindow();
    win.show();
    win.focus();
  };

  const createWindow = (): E.BrowserWindow => {
    const w = new e.BrowserWindow({
      width: 1280,
      height: 800,
      minWidth: 960,
      minHeight: 640,
      title: 'Herald',
      show: false,
      backgroundColor: '#f6f7f9',
      webPreferences: webPreferences(path.join(opts.here, 'preload.cjs')),
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
    w.on('closed', () => {
      appContents.delete(w.webContents.id);
      if (win === w) win = undefined;
    });
    void w.loadURL(`${server!.url}/`);
    return w;
  };

  const senderOk = (event: Sender) => {
    const frame = event.senderFrame;
    return trustedSender(
      { frameUrl: frame?.url, isMainFrame: frame ? frame.parent === null : false, webContentsId: event.sender.id },
      origin(),
      appContents,
    );
  };

  /**
   * The UI's own enterprise key, kept in the secret store; made once the owner exists. A session
   * key: it expires 30 days after its last use, so a copy taken from the keychain does not work
   * forever; an expired one is replaced here, at the next start or refresh.
   */
  const uiKey = async (): Promise<string> => {
    const s = server!.services;
    const ownerId = s.users.ownerId();
    if (!ownerId) return '';
    const saved = await server!.deps.secrets.get('ui-key').catch(() => null);
    if (saved) {
      try {
        await s.auth.authenticate(saved);
        return saved;
      } catch {
        /* deleted: make a new one */
      }
    }
    const issued = s.auth.issueKey(ownerId, 'Herald desktop app', 'enterprise', { session: true });
    await server!.deps.secrets.set('ui-key', issued.key).catch(() => undefined);
    return issued.key;
  };

  const refreshTray = () => {
    if (!tray || !server) return;
    const { next, pending } = server.services.scheduling.outlook();
    // In the user's zone (the setting), as every page shows it, not the machine's.
    const userZone = server.services.settings.userZone(server.services.users.ownerId() ?? '');
    const items = trayMenu(next, pending, (iso) => formatTime(iso, { userZone }));
    tray.setToolTip(items[0].label);
    tray.setContextMenu(
      e.Menu.buildFromTemplate(
        items.map((i) => ({
          label: i.label,
          enabled: i.enabled ?? true,
          click:
            i.action === 'open'
              ? show
              : i.action === 'quit'
                ? () => {
                    state.quitting = true;
                    e.app.quit();
                  }
                : undefined,
        })),
      ),
    );
  };

  e.app.on('second-instance', show);
  e.app.on('web-contents-created', (_event, contents) => harden(contents));
  e.app.on('before-quit', () => {
    state.quitting = true;
  });
  e.app.on('window-all-closed', () => {
    if (!state.hasTray) e.app.quit();
  });
  e.app.on('will-quit', (event) => {
    if (!server) return;
    event.preventDefault();
    const s = server;
    server = undefined;
    void s.close().finally(() => e.app.exit(0));
  });

  await e.app.whenReady();
  server = await createHeraldServer({
    ...opts.server,
    overrides: { HERALD_DATA_DIR: env.HERALD_DATA_DIR ?? e.app.getPath('userData'), ...opts.server?.overrides },
  });
  const csp = contentSecurityPolicy(origin());
  const ses = e.session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });

  key = await uiKey();
  e.ipcMain.on('herald:config', (event) => {
    event.returnValue = senderOk(event)
      ? { baseUrl: `${server!.url}/api/v1`, apiKey: key }
      : { baseUrl: '', apiKey: '' };
  });
  const handle = (channel: string, fn: (...args: any[]) => unknown) =>
    e.ipcMain.handle(channel, (event, ...args) => {
      if (!senderOk(event)) throw new Error('refused');
      return fn(...args);
    });
  handle('herald:open-external', async (url: unknown) => {
    if (typeof url !== 'string' || !allowOpenExternal(url)) return false;
    await e.shell.openExternal(url);
    return true;
  });
  handle('herald:notify', (title: unknown, body: unknown) => {
    if (e.Notification.isSupported())
      new e.Notification({ title: String(title).slice(0, 100), body: String(body).slice(0, 300) }).show();
  });
  handle('herald:get-start-at-login', () => e.app.getLoginItemSettings().openAtLogin);
  handle('herald:set-start-at-login', (on: unknown) => {
    e.app.setLoginItemSettings({ openAtLogin: on === true });
    return on === true;
  });
  // After onboarding creates the owner, the UI asks again for its key.
  handle('herald:refresh-key', async () => {
    key = await uiKey();
    return key;
  });

  // Sleep-proof (issue #23 item 5b): awake from shortly before a due post until it is sent; on
  // resume, the grace/missed rule at once through the scheduler's hook, and a word about it.
  let keepAwake: KeepAwake | undefined;
  if (e.powerSaveBlocker && e.powerMonitor && server.scheduler) {
    const notify = (title: string, body: string) => {
      if (e.Notification.isSupported()) new e.Notification({ title, body }).show();
    };
    keepAwake = wireKeepAwake(
      { powerSaveBlocker: e.powerSaveBlocker, powerMonitor: e.powerMonitor as never, notify },
      { clock: server.deps.clock, scheduler: server.scheduler },
    );
    e.app.on('will-quit', () => keepAwake?.stop());
  }

  // System notifications and the tray follow the event stream (main/notifications.ts), under the same switches as the
  // UI's.
  const ownerId = () => server?.services.users.ownerId() ?? null;
  watchNotifications(server.services.events, {
    owner: ownerId,
    switches: () => server!.deps.config.notifications,
    show: (n) => {
      if (e.Notification.isSupported()) new e.Notification({ title: n.title, body: n.body }).show();
    },
    changed: () => {
      keepAwake?.check();
      refreshTray();
    },
  });

  try {
    tray = new e.Tray(e.nativeImage.createFromBuffer(trayIconPng()));
    tray.on('click', show);
    state.hasTray = true;
    refreshTray();
    setInterval(refreshTray, opts.trayRefreshMs ?? 60_000).unref();
  } catch {
    state.hasTray = false;
  }
  win = createWindow();

  return { server, window: () => win, state, refreshTray, key: () => key, keepAwake };
}
