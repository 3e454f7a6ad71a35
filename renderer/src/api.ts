/**
 * The UI reaches data only through the typed client over HTTP. Inside Electron the preload gives
 * the base URL and the UI's own key; in a browser (npm run serve) the key comes from signing in
 * as a session key (it expires 30 days after its last use; signing out revokes it on the server).
 *
 * It lives in localStorage, so one sign-in serves every tab of the app, and the `storage` event
 * tells the other tabs when it changes. Script on this origin could read it from localStorage as
 * it could from sessionStorage or from the page's memory (the key must reach fetch), so the
 * choice adds persistence, not exposure; the strict CSP with no inline script keeps such script
 * out, the key expires when unused, and signing out revokes it rather than only forgetting it.
 */
import { HeraldClient, HeraldError } from '../../client/index';

interface DesktopBridge {
  baseUrl: string;
  apiKey: string;
  desktop: true;
  openExternal(url: string): Promise<boolean>;
  notify(title: string, body: string): Promise<void>;
  refreshKey(): Promise<string>;
}

declare global {
  interface Window {
    herald?: DesktopBridge;
  }
}

const KEY = 'herald.apiKey';
export const desktop = window.herald;
const baseUrl = desktop?.baseUrl || `${window.location.origin}/api/v1`;

export const client = new HeraldClient({ baseUrl, apiKey: desktop?.apiKey || localStorage.getItem(KEY) || undefined });

export function setKey(key: string | undefined): void {
  client.apiKey = key;
  if (desktop) return; // the desktop's key comes from the preload, never from storage
  if (key) localStorage.setItem(KEY, key);
  else localStorage.removeItem(KEY);
}

/** Signs out: the server revokes the key, then every tab forgets it. */
export async function signOut(): Promise<void> {
  // Already expired or revoked: forgetting it is all that is left to do.
  await client.logout().catch(() => undefined);
  setKey(undefined);
}

/** Calls `onChange` with the key when another tab signs in or out. */
export function onKeyChange(onChange: (key: string | undefined) => void): () => void {
  const listener = (e: StorageEvent) => {
    if (e.key !== KEY && e.key !== null) return; // null: storage was cleared
    const key = localStorage.getItem(KEY) || undefined;
    client.apiKey = key;
    onChange(key);
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

export function message(err: unknown): string {
  if (err instanceof HeraldError) return err.message;
  return (err as Error)?.message ?? String(err);
}

/** Opens a link outside the app: the desktop's checked sink, or a new tab in a browser. */
export function openExternal(url: string): void {
  if (desktop) void desktop.openExternal(url);
  else window.open(url, '_blank', 'noopener,noreferrer');
}

export { HeraldError };
