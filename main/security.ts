/**
 * Every security decision of the Electron main process, as pure functions over parsed URLs so
 * they can be tested without Electron. Untrusted URLs are parsed with `new URL`, never compared
 * as strings.
 */
import type { WebPreferences } from 'electron';

const parse = (raw: string): URL | undefined => {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
};

/** In-app navigation: only to the app's own origin (the local server that serves the UI). */
export function allowNavigation(target: string, appOrigin: string): boolean {
  const url = parse(target);
  return url !== undefined && url.origin === appOrigin && url.username === '' && url.password === '';
}

/**
 * The one sink for opening things outside the app: https only, with a real host, no
 * credentials, no odd ports and no loopback/IP-literal tricks. Everything else is refused.
 */
export function allowOpenExternal(target: string): boolean {
  const url = parse(target);
  if (!url || url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  const host = url.hostname;
  if (!host || !host.includes('.') || host.endsWith('.')) return false;
  if (/^\[/.test(host) || /^\d+(\.\d+){3}$/.test(host)) return false;
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (url.port && url.port !== '443') return false;
  return true;
}

/** The UI's CSP (the server sends it; the main process enforces it on every response too). */
export { uiContentSecurityPolicy as contentSecurityPolicy } from '../server/http/ui.js';

/** What an IPC handler may trust: a message from the app's own main frame, nothing else. */
export interface SenderInfo {
  /** URL of the frame that sent the message. */
  frameUrl: string | undefined;
  /** Whether that frame is the top-level frame of its page. */
  isMainFrame: boolean;
  /** The webContents id, checked against the app's window. */
  webContentsId: number;
}

export function trustedSender(sender: SenderInfo, appOrigin: string, appWebContentsIds: ReadonlySet<number>): boolean {
  if (!sender.isMainFrame || !appWebContentsIds.has(sender.webContentsId)) return false;
  return sender.frameUrl !== undefined && allowNavigation(sender.frameUrl, appOrigin);
}

/**
 * The window's web preferences: isolated, sandboxed, no Node, no webviews. Checked against the
 * installed Electron's own types, so a key an upgrade renames or removes fails the typecheck
 * instead of being silently ignored.
 */
export function webPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: true,
  } as const satisfies WebPreferences;
}
