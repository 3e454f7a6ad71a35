/**
 * A small LinkedIn peer on loopback for the adapter tests, following platforms.md §5 (used
 * until test/simulators/linkedin.simulator.ts lands): authorize redirect, form-encoded token
 * exchange and refresh (refresh tokens only when `approvedRefresh`), /v2/userinfo, the Images
 * API (initializeUpload → PUT to a separate upload path → AVAILABLE), POST /rest/posts that
 * requires the version headers and answers 201 with `x-restli-id`, the author finder, error
 * bodies `{status, serviceErrorCode, message}`, and faults on request.
 */
import http from 'node:http';

export interface PeerPost { id: string; body: Record<string, any>; headers: http.IncomingHttpHeaders; createdAt: number }
type Fault = 'rate_limit' | 'server_error' | 'drop_after_commit';

export interface LinkedInPeer {
  url: string;
  clientId: string;
  clientSecret: string;
  sub: string;
  posts: PeerPost[];
  images: Map<string, { owner: string; bytes: number; status: string }>;
  refreshCalls: number;
  approvedRefresh: boolean;
  refuseRefresh: boolean;
  expireTokens(): void;
  fail(path: string, fault: Fault, count?: number): void;
  close(): Promise<void>;
}

export async function startLinkedInPeer(): Promise<LinkedInPeer> {
  const valid = new Set<string>();
  const refreshTokens = new Set<string>();
  const codes = new Map<string, string>();
  const uploads = new Map<string, string>();
  const faults: { path: string; fault: Fault; left: number }[] = [];
  let seq = 7000;
  const next = (p: string) => `${p}${++seq}`;
  const send = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, status: number, message: string, serviceErrorCode?: number) => send(res, status, { status, ...(serviceErrorCode ? { serviceErrorCode } : {}), message });

  const peer: LinkedInPeer = {
    url: '', clientId: 'li-client', clientSecret: 'li-secret', sub: 'AbCdEf123',
    posts: [], images: new Map(), refreshCalls: 0, approvedRefresh: true, refuseRefresh: false,
    expireTokens: () => valid.clear(),
    fail: (path, fault, count = 1) => { faults.push({ path, fault, left: count }); },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const tokens = () => {
    const access = next('li-at-');
    valid.add(access);
    const out: Record<string, unknown> = { access_token: access, expires_in: 5184000, scope: 'openid,profile,w_member_social', token_type: 'Bearer' };
    if (peer.approvedRefresh) {
      const refresh = next('li-rt-');
      refreshTokens.add(refresh);
      Object.assign(out, { refresh_token: refresh, refresh_token_expires_in: 31536000 });
    }
    return out;
  };

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://peer');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = u.pathname;
    const fault = faults.find((f) => f.left > 0 && path === f.path);
    if (fault && fault.fault !== 'drop_after_commit') {
      fault.left -= 1;
      if (fault.fault === 'rate_limit') return fail(res, 429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.');
      return fail(res, 500, 'Internal Server Error');
    }

    if (path === '/oauth/v2/authorization') {
      const scopes = (u.searchParams.get('scope') ?? '').split(' ');
      if (u.searchParams.get('client_id') !== peer.clientId || !['openid', 'profile', 'w_member_social'].every((s) => scopes.includes(s))) return fail(res, 400, 'invalid client_id or scope');
      const code = next('code-');
      codes.set(code, u.searchParams.get('redirect_uri') ?? '');
      const back = new URL(u.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', u.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (path === '/oauth/v2/accessToken') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return send(res, 400, { error: 'invalid_request', error_description: 'form-encoded body required' });
      const form = new URLSearchParams(raw.toString());
      if (form.get('client_id') !== peer.clientId || form.get('client_secret') !== peer.clientSecret) return send(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (codes.get(code) !== form.get('redirect_uri')) return send(res, 400, { error: 'invalid_request', error_description: 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code' });
        codes.delete(code);
        return send(res, 200, tokens());
      }
      if (form.get('grant_type') === 'refresh_token') {
        peer.refreshCalls += 1;
        const rt = form.get('refresh_token') ?? '';
        if (peer.refuseRefresh || !refreshTokens.has(rt)) return send(res, 400, { error: 'invalid_request', error_description: 'The provided authorization grant or refresh token is invalid, expired or revoked' });
        const access = next('li-at-');
        valid.add(access);
        // Non-rotating: the same refresh token comes back.
        return send(res, 200, { access_token: access, expires_in: 5184000, refresh_token: rt, refresh_token_expires_in: 31536000 });
      }
      return send(res, 400, { error: 'unsupported_grant_type' });
    }
    if (path.startsWith('/upload/') && req.method === 'PUT') {
      const urn = uploads.get(path);
      if (!urn || !valid.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return fail(res, 401, 'Invalid access token', 65600);
      const img = peer.images.get(urn)!;
      img.bytes = raw.length;
      img.status = 'AVAILABLE';
      return send(res, 201);
    }

    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!valid.has(token)) return fail(res, 401, 'The token used in the request has expired', 65602);
    if (path === '/v2/userinfo') return send(res, 200, { sub: peer.sub, name: 'Grace Hopper', given_name: 'Grace', family_name: 'Hopper', picture: 'https://media.licdn.example/grace.jpg', locale: { country: 'US', language: 'en' } });

    if (!path.startsWith('/rest/')) return fail(res, 404, 'Not Found');
    if (!/^\d{6}$/.test(String(req.headers['linkedin-version'] ?? ''))) return fail(res, 426, 'Requested version is not active');
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') return fail(res, 400, 'X-Restli-Protocol-Version 2.0.0 required');
    const author = `urn:li:person:${peer.sub}`;

    if (path === '/rest/images' && u.searchParams.get('action') === 'initializeUpload' && req.method === 'POST') {
      const owner = JSON.parse(raw.toString()).initializeUploadRequest?.owner;
      if (owner !== author) return fail(res, 403, 'Not enough permissions to access owner', 100);
      const urn = `urn:li:image:${next('D4E')}`;
      const uploadPath = `/upload/${seq}`;
      uploads.set(uploadPath, urn);
      peer.images.set(urn, { owner, bytes: 0, status: 'WAITING_UPLOAD' });
      return send(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${peer.url}${uploadPath}`, image: urn } });
    }
    if (path.startsWith('/rest/images/') && req.method === 'GET') {
      const urn = decodeURIComponent(path.slice('/rest/images/'.length));
      const img = peer.images.get(urn);
      return img ? send(res, 200, { id: urn, owner: img.owner, status: img.status }) : fail(res, 404, 'Not Found');
    }
    if (path === '/rest/posts' && req.method === 'POST') {
      const body = JSON.parse(raw.toString());
      for (const field of ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState']) {
        if (body[field] === undefined) return fail(res, 422, `ERROR :: /${field} :: field is required but not found and has no default value`);
      }
      if (body.author !== author) return fail(res, 403, 'Not enough permissions to post as this author', 100);
      const media = body.content?.media ? [body.content.media] : body.content?.multiImage?.images ?? [];
      for (const m of media) {
        const img = peer.images.get(m.id);
        if (!img || img.owner !== body.author) return fail(res, 400, 'Content(s) you provided must be owned by post author', 100);
        if (img.status !== 'AVAILABLE') return fail(res, 400, `Image ${m.id} is not available`);
      }
      const id = `urn:li:share:${next('70')}`;
      peer.posts.push({ id, body, headers: req.headers, createdAt: Date.now() });
      if (fault?.fault === 'drop_after_commit') { fault.left -= 1; req.socket.destroy(); return; }
      return send(res, 201, undefined, { 'x-restli-id': id });
    }
    if (path === '/rest/posts' && req.method === 'GET' && u.searchParams.get('q') === 'author') {
      const list = peer.posts.filter((p) => p.body.author === u.searchParams.get('author')).reverse();
      return send(res, 200, { elements: list.map((p) => ({ id: p.id, author: p.body.author, commentary: p.body.commentary, createdAt: p.createdAt, lifecycleState: 'PUBLISHED' })), paging: { start: 0, count: 50 } });
    }
    return fail(res, 404, 'Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return peer;
}
