/**
 * What a person's browser does in an OAuth connection: POST /<platform>/auth on Herald, open the
 * authUrl at the network peer, follow its redirect to Herald's callback, read the JSON answer.
 */
import type { TestServer } from '../helpers/server.js';

export async function connectThroughBrowser(t: TestServer, key: string, platform: string): Promise<{ authUrl: string; status: number; body: any }> {
  const start = await t.call('POST', `/${platform}/auth`, { key, body: {} });
  if (start.status !== 200) throw new Error(`POST /${platform}/auth answered ${start.status}: ${start.text}`);
  const authUrl = start.body.authUrl as string;
  const at = await fetch(authUrl, { redirect: 'manual' });
  const location = at.headers.get('location');
  if (at.status < 300 || at.status > 399 || !location) throw new Error(`the authorize page answered ${at.status}: ${(await at.text()).slice(0, 300)}`);
  const callback = new URL(location, authUrl);
  if (!callback.pathname.endsWith(`/api/v1/${platform}/callback`)) throw new Error(`redirected to ${callback}`);
  const res = await fetch(callback, { headers: { accept: 'application/json' } });
  return { authUrl, status: res.status, body: await res.json() };
}
