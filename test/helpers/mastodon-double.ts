/**
 * A small Mastodon double on loopback for the adapter tests, written from platforms.md §3 (the
 * shared simulator in test/simulators/ had not landed when these tests were written). Real
 * shapes: per-instance apps, PKCE S256 checked at /oauth/token (form only), non-expiring tokens,
 * /api/v2/instance limits, v2 media (200, or 202 + 206 polling), statuses with HTML content and
 * an Idempotency-Key remembered per token, `{error}` bodies, ISO 8601 X-RateLimit-Reset, faults.
 */
import crypto from 'node:crypto';
import http from 'node:http';

export interface StatusState { id: string; text: string; content: string; url: string; inReplyToId: string | null; mediaIds: string[]; idempotencyKey?: string; createdAt: string }
type Fault = { status?: number; reset?: Date; commitThenDrop?: boolean; times?: number };

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const toHtml = (text: string) => text.split(/\n\n+/).map((p) => `<p>${escape(p).replace(/\n/g, '<br />').replace(/https?:\/\/[^\s<]+/g, (u) => {
  const m = /^(https?:\/\/)(.{0,20})(.*)$/.exec(u)!;
  return `<a href="${u}" rel="nofollow noopener" target="_blank"><span class="invisible">${m[1]}</span><span class="ellipsis">${m[2]}</span><span class="invisible">${m[3]}</span></a>`;
})}</p>`).join('');

export async function startMastodonDouble() {
  const limits = { maxCharacters: 640, charactersReservedPerUrl: 23, maxMediaAttachments: 4, descriptionLimit: 1500 };
  const user = { id: '109302', username: 'herald', followersCount: 77, followingCount: 5 };
  const apps: { clientId: string; clientSecret: string; redirectUris: string[] }[] = [];
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, boolean>();
  const statuses = new Map<string, StatusState>();
  const byKey = new Map<string, string>();
  const media = new Map<string, { description?: string; polls: number }>();
  const faults = new Map<string, Fault>();
  let seq = 103254962155278888n, tokenCalls = 0, asyncPolls = 0;
  let url = '';

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const u = new URL(req.url!, 'http://m');
    const route = `${req.method} ${u.pathname}`;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const form = async () => {
      const type = String(req.headers['content-type'] ?? '');
      if (type.startsWith('application/json')) return JSON.parse(raw.toString()) as Record<string, any>;
      const f = await new Request('http://m', { method: 'POST', headers: { 'content-type': type }, body: raw }).formData();
      return Object.fromEntries(f.entries()) as Record<string, any>;
    };

    if (route === 'GET /api/v2/instance') {
      return send(200, { domain: u.host, api_versions: { mastodon: 6 }, configuration: { statuses: { max_characters: limits.maxCharacters, max_media_attachments: limits.maxMediaAttachments, characters_reserved_per_url: limits.charactersReservedPerUrl }, media_attachments: { description_limit: limits.descriptionLimit } } });
    }
    if (route === 'POST /api/v1/apps') {
      const b = await form();
      const redirectUris = Array.isArray(b.redirect_uris) ? b.redirect_uris : String(b.redirect_uris).split(/\s+/);
      const app = { clientId: crypto.randomBytes(12).toString('hex'), clientSecret: crypto.randomBytes(16).toString('hex'), redirectUris };
      apps.push(app);
      return send(200, { id: String(apps.length), name: b.client_name, scopes: String(b.scopes).split(' '), redirect_uri: redirectUris.join('\n'), redirect_uris: redirectUris, client_id: app.clientId, client_secret: app.clientSecret, client_secret_expires_at: 0 });
    }
    if (route === 'GET /oauth/authorize') {
      const q = u.searchParams;
      const app = apps.find((a) => a.clientId === q.get('client_id'));
      if (!app || !app.redirectUris.includes(q.get('redirect_uri')!) || q.get('code_challenge_method') !== 'S256') return send(400, { error: 'invalid_request' });
      const code = crypto.randomBytes(12).toString('hex');
      codes.set(code, { clientId: app.clientId, challenge: q.get('code_challenge')!, redirectUri: q.get('redirect_uri')! });
      const to = new URL(q.get('redirect_uri')!);
      to.searchParams.set('code', code);
      to.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: to.toString() });
      return res.end();
    }
    if (route === 'POST /oauth/token') {
      tokenCalls++;
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return send(400, { error: 'invalid_request', error_description: 'form body expected' });
      const f = new URLSearchParams(raw.toString());
      const c = codes.get(f.get('code') ?? '');
      codes.delete(f.get('code') ?? '');
      const app = apps.find((a) => a.clientId === f.get('client_id') && a.clientSecret === f.get('client_secret'));
      if (!app) return send(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      const challenge = crypto.createHash('sha256').update(f.get('code_verifier') ?? '').digest('base64url');
      if (!c || c.clientId !== app.clientId || c.challenge !== challenge || c.redirectUri !== f.get('redirect_uri')) return send(400, { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' });
      const token = `MAT-${crypto.randomBytes(18).toString('base64url')}`;
      tokens.set(token, true);
      return send(200, { access_token: token, token_type: 'Bearer', scope: 'write:statuses write:media profile', created_at: Math.floor(Date.now() / 1000) });
    }
    if (req.method === 'GET' && u.pathname === `/api/v1/accounts/${user.id}/statuses`) {
      const maxId = u.searchParams.get('max_id');
      const list = [...statuses.values()].reverse().filter((s) => !maxId || BigInt(s.id) < BigInt(maxId)).slice(0, Number(u.searchParams.get('limit') ?? 20))
        .map((s) => ({ id: s.id, url: s.url, content: s.content, created_at: s.createdAt, in_reply_to_id: s.inReplyToId, reblog: null }));
      return send(200, list);
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.get(bearer)) return send(401, { error: 'The access token is invalid' });
    const fault = faults.get(route);
    if (fault && (fault.times = (fault.times ?? 1) - 1) <= 0) faults.delete(route);
    if (fault?.status === 429) return send(429, { error: 'Too many requests' }, { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': fault.reset!.toISOString().replace('Z', '000Z') });
    if (route === 'GET /api/v1/accounts/verify_credentials') {
      return send(200, { id: user.id, username: user.username, acct: user.username, display_name: 'Herald Test', url: `${url}/@${user.username}`, avatar: `${url}/avatar.png`, followers_count: user.followersCount, following_count: user.followingCount });
    }
    if (route === 'POST /api/v2/media') {
      const b = await form();
      if (!(b.file instanceof Blob)) return send(422, { error: 'Validation failed: File content type is invalid, File is invalid' });
      const id = String(++seq);
      media.set(id, { description: b.description, polls: asyncPolls });
      const entity = { id, type: 'image', description: b.description ?? null };
      return asyncPolls ? send(202, { ...entity, url: null }) : send(200, { ...entity, url: `${url}/media/${id}.png` });
    }
    if (req.method === 'GET' && u.pathname.startsWith('/api/v1/media/')) {
      const id = u.pathname.split('/').pop()!;
      const m = media.get(id);
      if (!m) return send(404, { error: 'Record not found' });
      if (m.polls > 0) { m.polls--; return send(206, { id, type: 'image', url: null }); }
      return send(200, { id, type: 'image', url: `${url}/media/${id}.png`, description: m.description ?? null });
    }
    if (route === 'POST /api/v1/statuses') {
      const b = await form();
      const key = req.headers['idempotency-key'] as string | undefined;
      const known = key ? byKey.get(`${bearer}:${key}`) : undefined;
      let s = known ? statuses.get(known)! : undefined;
      if (!s) {
        const ids: string[] = b.media_ids ?? [];
        if (ids.some((id) => (media.get(id)?.polls ?? 0) > 0)) return send(422, { error: 'Cannot attach files that have not finished processing. Try again in a moment!' });
        if (!b.status && ids.length === 0) return send(422, { error: "Validation failed: Text can't be blank" });
        const id = String(++seq);
        s = { id, text: b.status ?? '', content: toHtml(b.status ?? ''), url: `${url}/@${user.username}/${id}`, inReplyToId: b.in_reply_to_id ?? null, mediaIds: ids, idempotencyKey: key, createdAt: new Date().toISOString() };
        statuses.set(id, s);
        if (key) byKey.set(`${bearer}:${key}`, id);
      }
      if (fault?.commitThenDrop) return req.socket.destroy();
      return send(200, { id: s.id, url: s.url, uri: `${url}/users/${user.username}/statuses/${s.id}`, content: s.content, created_at: s.createdAt, in_reply_to_id: s.inReplyToId, visibility: 'public', media_attachments: s.mediaIds.map((id) => ({ id })) });
    }
    return send(404, { error: 'Record not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  return {
    url,
    user: () => user,
    limits: () => limits,
    apps: () => apps,
    status: (id: string) => statuses.get(id),
    statusCount: () => statuses.size,
    media: (id: string) => media.get(id),
    processMediaAsync: (polls: number) => { asyncPolls = polls; },
    fail: (route: string, f: Fault) => faults.set(route, f),
    revokeTokens: () => { for (const k of tokens.keys()) tokens.set(k, false); },
    tokenCalls: () => tokenCalls,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export type MastodonDouble = Awaited<ReturnType<typeof startMastodonDouble>>;
