/**
 * Drives an OAuth connection the way a person's browser would: POST /<platform>/auth on Herald,
 * open the authUrl at the network (a simulator on loopback), follow its redirect back to
 * Herald's callback and read the JSON answer. No step of Herald's is skipped or stubbed.
 */
import type { TestServer } from './server.js';

export interface ConnectResult {
  authUrl: string;
  callbackUrl: string;
  status: number;
  body: any;
}

/** Opens `authUrl` at the network and returns where it redirects the browser. */
export async function authorizeAtNetwork(authUrl: string): Promise<string> {
  let url = authUrl;
  for (let hop = 0; hop < 5; hop++) {
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || !location) {
      throw new Error(
        `the network's authorize page answered ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`,
      );
    }
    await res.arrayBuffer();
    const next = new URL(location, url).toString();
    if (next.includes('/callback')) return next;
    url = next;
  }
  throw new Error('too many redirects at the network');
}

export async function finishCallback(callbackUrl: string): Promise<{ status: number; body: any }> {
  const res = await fetch(callbackUrl, { headers: { accept: 'application/json' } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

export async function connectOAuth(
  t: Pick<TestServer, 'call'>,
  key: string,
  platform: string,
  body: Record<string, unknown> = {},
): Promise<ConnectResult> {
  const start = await t.call('POST', `/${platform}/auth`, { key, body });
  if (start.status !== 200) throw new Error(`POST /${platform}/auth answered ${start.status}: ${start.text}`);
  const authUrl = start.body.authUrl as string;
  const callbackUrl = await authorizeAtNetwork(authUrl);
  const done = await finishCallback(callbackUrl);
  return { authUrl, callbackUrl, ...done };
}
