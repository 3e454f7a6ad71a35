/**
 * Stand-ins for the Electron modules the desktop wiring uses (Electron's binary cannot run on
 * these machines). They record what the app asks of Electron and let a test play Electron's part:
 * fire navigation events, ask the window-open handler, send IPC from a chosen sender, close the
 * window, click tray menu items. Only Electron is replaced; Herald's code runs for real.
 */
import { EventEmitter } from 'node:events';
import type { ElectronModules } from '../../main/desktop.js';

export class FakeEvent {
  defaultPrevented = false;
  returnValue: unknown;
  preventDefault() {
    this.defaultPrevented = true;
  }
}

let nextId = 1;

export class FakeWebContents extends EventEmitter {
  id = nextId++;
  openHandler?: (details: { url: string }) => { action: string };
  setWindowOpenHandler(h: (details: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
  /** Fires `name` like Electron does and says whether the app prevented it. */
  fire(name: string, ...args: unknown[]): boolean {
    const ev = new FakeEvent();
    this.emit(name, ev, ...args);
    return ev.defaultPrevented;
  }
}

export class FakeWindow extends EventEmitter {
  webContents = new FakeWebContents();
  url?: string;
  visible = false;
  destroyed = false;
  constructor(public options: any) {
    super();
  }
  loadURL(url: string) {
    this.url = url;
    queueMicrotask(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {}
  isDestroyed() {
    return this.destroyed;
  }
  /** The user closes the window: true if it really closed (not kept in the tray). */
  close(): boolean {
    const ev = new FakeEvent();
    this.emit('close', ev);
    if (ev.defaultPrevented) return false;
    this.destroyed = true;
    this.visible = false;
    this.emit('closed');
    return true;
  }
}

export interface Sender {
  id: number;
  url?: string;
  mainFrame?: boolean;
}

export function fakeElectron(opts: { lock?: boolean; userData: string; trayFails?: boolean }) {
  const app = Object.assign(new EventEmitter(), {
    lock: opts.lock ?? true,
    quitCalls: 0,
    exitCode: undefined as number | undefined,
    isPackaged: false,
    loginItems: { openAtLogin: false },
    requestSingleInstanceLock() {
      return this.lock;
    },
    quit() {
      this.quitCalls++;
    },
    exit(code = 0) {
      this.exitCode = code;
    },
    whenReady: () => Promise.resolve(),
    getPath: (name: string) => (name === 'userData' ? opts.userData : `/tmp/${name}`),
    getAppPath: () => '/app',
    getLoginItemSettings() {
      return { ...this.loginItems };
    },
    setLoginItemSettings(s: { openAtLogin: boolean }) {
      this.loginItems = { openAtLogin: s.openAtLogin };
    },
  });
  const windows: FakeWindow[] = [];
  const listeners = new Map<string, (event: any, ...args: any[]) => any>();
  const handlers = new Map<string, (event: any, ...args: any[]) => any>();
  const opened: string[] = [];
  const notifications: { title: string; body?: string }[] = [];
  const session = {
    permissionRequest: undefined as undefined | ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void),
    permissionCheck: undefined as undefined | ((...a: unknown[]) => boolean),
    headers: undefined as undefined | ((details: any, cb: (r: any) => void) => void),
  };
  const tray = { menus: [] as any[][], tooltip: '', events: new EventEmitter() };

  const event = (s: Sender) => ({
    sender: { id: s.id },
    senderFrame: s.url === undefined ? null : { url: s.url, parent: s.mainFrame === false ? {} : null },
    returnValue: undefined as unknown,
  });

  const modules = {
    app,
    BrowserWindow: class extends FakeWindow {
      constructor(o: any) {
        super(o);
        windows.push(this);
      }
    },
    ipcMain: {
      on: (channel: string, fn: any) => {
        listeners.set(channel, fn);
      },
      handle: (channel: string, fn: any) => {
        handlers.set(channel, fn);
      },
    },
    Menu: { buildFromTemplate: (items: any[]) => items },
    Notification: class {
      static isSupported() {
        return true;
      }
      constructor(private o: { title: string; body?: string }) {}
      show() {
        notifications.push(this.o);
      }
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: any) => {
          session.permissionRequest = h;
        },
        setPermissionCheckHandler: (h: any) => {
          session.permissionCheck = h;
        },
        webRequest: {
          onHeadersReceived: (h: any) => {
            session.headers = h;
          },
        },
      },
    },
    shell: {
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
    Tray: class {
      constructor() {
        if (opts.trayFails) throw new Error('no tray on this desktop');
      }
      setContextMenu(m: any[]) {
        tray.menus.push(m);
      }
      setToolTip(t: string) {
        tray.tooltip = t;
      }
      on(name: string, fn: () => void) {
        tray.events.on(name, fn);
      }
    },
    nativeImage: { createFromBuffer: (buffer: Buffer) => ({ buffer }) },
  };

  return {
    modules: modules as unknown as ElectronModules,
    app,
    windows,
    opened,
    notifications,
    session,
    tray,
    /** ipcRenderer.sendSync from `sender`. */
    sendSync(channel: string, sender: Sender) {
      const ev = event(sender);
      listeners.get(channel)!(ev);
      return ev.returnValue;
    },
    /** ipcRenderer.invoke from `sender`. */
    invoke(channel: string, sender: Sender, ...args: unknown[]) {
      const fn = handlers.get(channel);
      if (!fn) throw new Error(`no handler for ${channel}`);
      return Promise.resolve().then(() => fn(event(sender), ...args));
    },
    channels: () => [...listeners.keys(), ...handlers.keys()],
    /** Clicks the tray menu item whose label starts with `label`. */
    clickTray(label: string) {
      const item = tray.menus.at(-1)!.find((i) => i.label.startsWith(label));
      if (!item?.click) throw new Error(`no clickable tray item ${label}`);
      item.click();
    },
  };
}
