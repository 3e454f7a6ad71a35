/**
 * The UI reaches data only through the typed client over HTTP. Inside Electron the preload gives
 * the base URL and the UI's own key; in a browser (npm run serve) the key comes from signing in
 * and lives in sessionStorage.
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
  interface Window { herald?: DesktopBridge }
}

const KEY = 'herald.apiKey';
export const desktop = window.herald;
const baseUrl = desktop?.baseUrl || `${window.location.origin}/api/v1`;

export const client = new HeraldClient({ baseUrl, apiKey: desktop?.apiKey || sessionStorage.getItem(KEY) || undefined });

export function setKey(key: string | undefined): void {
  client.apiKey = key;
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
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
