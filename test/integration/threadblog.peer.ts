/**
 * A small Threads Graph peer on loopback for the adapter tests, following platforms.md §4 (used
 * until test/simulators/threads.simulator.ts lands): authorize redirect with `#_`, form-encoded
 * code exchange, th_exchange_token and th_refresh_token, /me, containers whose images it
 * downloads itself (IN_PROGRESS until fetched), threads_publish that answers "Media Not Found"
 * (24/4279009) for an unready container, reply chains, permalinks, the user's post lists, and
 * faults on request.
 */
import http from 'node:http';

export interface PeerPost { id: string; text: string; mediaType: string; replyTo?: string; replyControl?: string; children: { imageUrl: string; altText?: string; bytes: number }[]; timestamp: string }
interface Container { id: string; params: Record<string, string>; status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR'; error?: string; bytes: number; published?: boolean }
type Fault = 'rate_limit' | 'media_not_found' | 'drop_after_commit' | 'server_error';

export interface ThreadsPeer {
  url: string;
  clientId: string;
  clientSecret: string;
  user: { id: string; username: string; name: string };
  posts: PeerPost[];
  refreshCalls: number;
  /** Makes every token issued so far invalid (code 190). */
  expireTokens(): void;
  /** The next `count` calls to `path` (suffix match) fail with `fault`. */
  fail(path: string, fault: Fault, count?: number): void;
  close(): Promise<void>;
}

export async function startThreadsPeer(): Promise<ThreadsPeer> {
  const valid = new Set<string>();
  const containers = new Map<string, Container>();
  const faults: { path: string; fault: Fault; left: number }[] = [];
  let seq = 1000;
  const next = (p: string) => `${p}${++seq}`;
  const codes = new Map<string, string>();

  const graphErr = (res: http.ServerResponse, status: number, error: Record<string, unknown>) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'OAuthException', fbtrace_id: 'Atrace', ...error } }));
  };
  const json = (res: http.ServerResponse, body: unknown) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };

  const peer: ThreadsPeer = {
    url: '', clientId: 'threads-app-id', clientSecret: 'threads-app-secret',
    user: { id: '17841400000000001', username: 'ada.threads', name: 'Ada L' },
    posts: [], refreshCalls: 0,
    expireTokens: () => valid.clear(),
    fail: (path, fault, count = 1) => { faults.push({ path, fault, left: count }); },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const issue = (prefix: string) => { const token = next(prefix); valid.add(token); return token; };

  async function fetchImage(c: Container, url: string) {
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      c.bytes = (await res.arrayBuffer()).byteLength;
      c.status = 'FINISHED';
    } catch (err) {
      c.status = 'ERROR';
      c.error = `Media download has failed: ${(err as Error).message}`;
    }
  }

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://peer');
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(raw) : new URLSearchParams();
    const p = (k: string) => form.get(k) ?? u.searchParams.get(k) ?? undefined;
    const path = u.pathname;

    const fault = faults.find((f) => f.left > 0 && path.endsWith(f.path));
    if (fault && fault.fault !== 'drop_after_commit') {
      fault.left -= 1;
      if (fault.fault === 'rate_limit') return graphErr(res, 400, { code: 4, message: 'Application request limit reached', is_transient: true });
      if (fault.fault === 'server_error') return graphErr(res, 500, { code: 2, message: 'Service temporarily unavailable', is_transient: true });
      if (fault.fault === 'media_not_found') return graphErr(res, 400, { code: 24, error_subcode: 4279009, message: 'The requested resource does not exist', error_user_title: 'Media Not Found', error_user_msg: 'The media cannot be found.' });
    }

    if (path === '/oauth/authorize') {
      if (p('client_id') !== peer.clientId || p('response_type') !== 'code') return graphErr(res, 400, { code: 100, message: 'Invalid client_id or response_type' });
      const scopes = (p('scope') ?? '').split(',');
      if (!scopes.includes('threads_basic') || !scopes.includes('threads_content_publish')) return graphErr(res, 400, { code: 100, message: 'Missing scopes' });
      const code = next('code');
      codes.set(code, p('redirect_uri') ?? '');
      const back = new URL(p('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', p('state') ?? '');
      res.writeHead(302, { location: `${back}#_` });
      return res.end();
    }
    if (path === '/oauth/access_token' && req.method === 'POST') {
      const code = form.get('code') ?? '';
      if (form.get('client_secret') !== peer.clientSecret || form.get('grant_type') !== 'authorization_code' || codes.get(code) !== form.get('redirect_uri')) {
        return graphErr(res, 400, { code: 100, message: 'Invalid verification code format.' });
      }
      codes.delete(code);
      return json(res, { access_token: issue('short-'), user_id: Number(peer.user.id) });
    }
    if (path === '/access_token') {
      const short = p('access_token') ?? '';
      if (p('grant_type') !== 'th_exchange_token' || p('client_secret') !== peer.clientSecret || !short.startsWith('short-') || !valid.delete(short)) {
        return graphErr(res, 400, { code: 190, message: 'Error validating access token' });
      }
      return json(res, { access_token: issue('long-'), token_type: 'bearer', expires_in: 5183944 });
    }
    if (path === '/refresh_access_token') {
      peer.refreshCalls += 1;
      const old = p('access_token') ?? '';
      // An expired (or otherwise invalid) token cannot be renewed.
      if (p('grant_type') !== 'th_refresh_token' || !old.startsWith('long-') || !valid.has(old)) {
        return graphErr(res, 400, { code: 190, message: 'Error validating access token: Session has expired' });
      }
      return json(res, { access_token: issue('long-'), token_type: 'bearer', expires_in: 5183944 });
    }

    if (!path.startsWith('/v1.0/')) return graphErr(res, 404, { code: 100, message: 'Unknown path' });
    if (!valid.has(p('access_token') ?? '')) return graphErr(res, 400, { code: 190, message: 'Error validating access token: Session has expired', type: 'OAuthException' });
    const parts = path.slice('/v1.0/'.length).split('/');
    const uid = peer.user.id;

    if (parts[0] === 'me') return json(res, { id: uid, username: peer.user.username, name: peer.user.name, threads_profile_picture_url: 'https://scontent.example/ada.jpg' });
    if (parts[0] === uid && parts[1] === 'threads' && req.method === 'POST') {
      const params = Object.fromEntries(form) as Record<string, string>;
      const type = params.media_type;
      const c: Container = { id: next('c'), params, status: 'IN_PROGRESS', bytes: 0 };
      if (type === 'TEXT') {
        if (!params.text) return graphErr(res, 400, { code: 100, message: 'The parameter text is required' });
        c.status = 'FINISHED';
      } else if (type === 'IMAGE') {
        if (!params.image_url) return graphErr(res, 400, { code: 100, message: 'The parameter image_url is required' });
        void fetchImage(c, params.image_url);
      } else if (type === 'CAROUSEL') {
        const kids = (params.children ?? '').split(',').map((id) => containers.get(id));
        if (kids.length < 2 || kids.some((k) => !k || k.status !== 'FINISHED' || k.params.is_carousel_item !== 'true')) {
          return graphErr(res, 400, { code: 100, message: 'Invalid carousel children' });
        }
        c.status = 'FINISHED';
      } else {
        return graphErr(res, 400, { code: 100, message: 'Invalid media_type' });
      }
      if (params.reply_to_id && !peer.posts.some((x) => x.id === params.reply_to_id)) return graphErr(res, 400, { code: 100, message: 'Invalid reply_to_id' });
      containers.set(c.id, c);
      return json(res, { id: c.id });
    }
    if (parts[0] === uid && parts[1] === 'threads_publish' && req.method === 'POST') {
      const c = containers.get(form.get('creation_id') ?? u.searchParams.get('creation_id') ?? '');
      if (!c || c.published || c.status !== 'FINISHED') {
        return graphErr(res, 400, { code: 24, error_subcode: 4279009, message: 'The requested resource does not exist', error_user_title: 'Media Not Found' });
      }
      c.published = true;
      const kids = c.params.media_type === 'CAROUSEL' ? c.params.children.split(',').map((id) => containers.get(id)!) : c.params.media_type === 'IMAGE' ? [c] : [];
      const id = next('m');
      peer.posts.push({
        id, text: c.params.text ?? '', mediaType: c.params.media_type, replyTo: c.params.reply_to_id, replyControl: c.params.reply_control,
        children: kids.map((k) => ({ imageUrl: k.params.image_url, altText: k.params.alt_text, bytes: k.bytes })), timestamp: new Date().toISOString().replace('Z', '+0000'),
      });
      if (fault?.fault === 'drop_after_commit') { fault.left -= 1; req.socket.destroy(); return; }
      return json(res, { id });
    }
    if (parts[0] === uid && (parts[1] === 'threads' || parts[1] === 'replies')) {
      const since = Number(p('since') ?? 0) * 1000;
      const list = peer.posts.filter((x) => (parts[1] === 'replies') === !!x.replyTo && Date.parse(x.timestamp) >= since).reverse();
      return json(res, { data: list.map((x) => ({ id: x.id, text: x.text, timestamp: x.timestamp, permalink: `https://www.threads.net/@${peer.user.username}/post/${x.id}`, ...(x.replyTo ? { replied_to: { id: x.replyTo } } : {}) })) });
    }
    const c = containers.get(parts[0]);
    if (c && !c.published) return json(res, { id: c.id, status: c.status, ...(c.error ? { error_message: c.error } : {}) });
    const published = peer.posts.find((x) => x.id === parts[0]);
    if (published) return json(res, { id: published.id, permalink: `https://www.threads.net/@${peer.user.username}/post/${published.id}` });
    return graphErr(res, 400, { code: 100, message: 'Unsupported get request' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return peer;
}
