/**
 * A small X API v2 double on loopback for the adapter tests, written from platforms.md §1 (the
 * shared simulator in test/simulators/ had not landed when these tests were written). It keeps
 * the real shapes: PKCE S256 checked at the token endpoint, Basic client auth and form bodies
 * required, single-use rotating refresh tokens, `data`-wrapped answers, problem+json errors,
 * x-rate-limit-* headers, and faults (429 with reset, commit-then-drop).
 */
import crypto from 'node:crypto';
import http from 'node:http';

export interface XTweetState { id: string; text: string; authorId: string; inReplyTo?: string; quoteOf?: string; mediaIds: string[]; createdAt: string }
type Fault = { status?: number; reset?: number; commitThenDrop?: boolean };

export async function startXDouble(client: { clientId: string; clientSecret: string }) {
  const user = { id: '2244994945', username: 'heraldtester', name: 'Herald Tester', followersCount: 321, followingCount: 12 };
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const access = new Map<string, boolean>(); // token -> valid
  const refresh = new Map<string, boolean>();
  const issued: string[] = [];
  const tweets = new Map<string, XTweetState>();
  const media = new Map<string, { altText?: string; bytes: number; total?: number; type?: string; segments?: number[]; polls?: number; finalized?: boolean }>();
  const faults = new Map<string, Fault>();
  let seq = 1445880548472328192n;
  let tokenCalls = 0, refreshCount = 0;
  const token = (p: string) => { const v = `${p}${crypto.randomBytes(18).toString('base64url')}`; issued.push(v); return v; };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url!, 'http://x');
    const route = `${req.method} ${url.pathname.replace(/^\/2\/users\/\d+\//, '/2/users/:id/')}`;
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '99', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 900) });
      res.end(JSON.stringify(body));
    };
    const problem = (status: number, title: string, detail: string) => send(status, { title, detail, type: 'about:blank', status }, 'application/problem+json');

    if (req.method === 'GET' && url.pathname === '/i/oauth2/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== client.clientId || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || q.get('response_type') !== 'code') return problem(400, 'Bad Request', 'invalid authorize request');
      const code = crypto.randomBytes(12).toString('base64url');
      codes.set(code, { challenge: q.get('code_challenge')!, redirectUri: q.get('redirect_uri')! });
      const to = new URL(q.get('redirect_uri')!);
      to.searchParams.set('state', q.get('state') ?? '');
      to.searchParams.set('code', code);
      res.writeHead(302, { location: to.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/2/oauth2/token') {
      tokenCalls++;
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return send(400, { error: 'invalid_request', error_description: 'Body must be form-encoded' });
      if (req.headers.authorization !== `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`) return send(401, { error: 'unauthorized_client', error_description: 'Missing valid authorization header' });
      const f = new URLSearchParams(raw.toString());
      if (f.get('grant_type') === 'authorization_code') {
        const c = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        const challenge = crypto.createHash('sha256').update(f.get('code_verifier') ?? '').digest('base64url');
        if (!c || c.challenge !== challenge || c.redirectUri !== f.get('redirect_uri')) return send(400, { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' });
      } else if (f.get('grant_type') === 'refresh_token') {
        refreshCount++;
        const r = f.get('refresh_token') ?? '';
        if (!refresh.get(r)) return send(400, { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' });
        refresh.set(r, false); // single use
      } else return send(400, { error: 'unsupported_grant_type' });
      const a = token('XAT-'), r = token('XRT-');
      access.set(a, true); refresh.set(r, true);
      return send(200, { token_type: 'bearer', expires_in: 7200, access_token: a, scope: 'tweet.read tweet.write users.read media.write offline.access follows.write', refresh_token: r });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !access.get(bearer)) return problem(401, 'Unauthorized', 'Unauthorized');
    const fault = faults.get(route);
    if (fault) faults.delete(route);
    if (fault?.status === 429) {
      res.writeHead(429, { 'content-type': 'application/json', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(fault.reset) });
      return res.end(JSON.stringify({ title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 }));
    }
    if (route === 'GET /2/users/me') {
      return send(200, { data: { id: user.id, name: user.name, username: user.username, profile_image_url: 'https://pbs.example/p.png', public_metrics: { followers_count: user.followersCount, following_count: user.followingCount, tweet_count: tweets.size } } });
    }
    if (route === 'POST /2/media/upload') {
      const form = await new Request('http://x', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: raw }).formData();
      const file = form.get('media');
      if (!(file instanceof Blob) || form.get('media_category') !== 'tweet_image') return problem(400, 'Invalid Request', 'media and media_category are required');
      const id = String(++seq);
      media.set(id, { bytes: file.size });
      return send(200, { data: { id, media_key: `3_${id}`, size: file.size, expires_after_secs: 86400, image: { image_type: file.type } } });
    }
    if (route === 'POST /2/media/upload/initialize') {
      const b = JSON.parse(raw.toString());
      if (!b.media_type || !b.total_bytes || !b.media_category) return problem(400, 'Invalid Request', 'media_type, total_bytes and media_category are required');
      const id = String(++seq);
      media.set(id, { bytes: 0, total: b.total_bytes, type: b.media_type, segments: [], polls: 2 });
      return send(200, { data: { id, media_key: `16_${id}`, expires_after_secs: 86400 } });
    }
    const chunkStep = /^\/2\/media\/upload\/(\d+)\/(append|finalize)$/.exec(url.pathname);
    if (req.method === 'POST' && chunkStep) {
      const m = media.get(chunkStep[1]);
      if (!m || m.total === undefined) return problem(400, 'Invalid Request', 'unknown media id');
      if (chunkStep[2] === 'append') {
        const form = await new Request('http://x', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: raw }).formData();
        const part = form.get('media');
        if (!(part instanceof Blob) || form.get('segment_index') !== String(m.segments!.length)) return problem(400, 'Invalid Request', 'segments must arrive in order');
        m.segments!.push(part.size);
        m.bytes += part.size;
        res.writeHead(204);
        return res.end();
      }
      if (m.bytes !== m.total) return problem(400, 'Invalid Request', `expected ${m.total} bytes, got ${m.bytes}`);
      m.finalized = true;
      return send(200, { data: { id: chunkStep[1], media_key: `16_${chunkStep[1]}`, size: m.bytes, processing_info: { state: 'pending', check_after_secs: 0 } } });
    }
    if (route === 'GET /2/media/upload' && url.searchParams.get('command') === 'STATUS') {
      const id = url.searchParams.get('media_id') ?? '';
      const m = media.get(id);
      if (!m?.finalized) return problem(400, 'Invalid Request', 'media not finalized');
      const state = m.polls! > 0 ? (m.polls!--, 'in_progress') : 'succeeded';
      return send(200, { data: { id, media_key: `16_${id}`, processing_info: state === 'succeeded' ? { state, progress_percent: 100 } : { state, check_after_secs: 0, progress_percent: 50 } } });
    }
    if (route === 'POST /2/media/metadata') {
      const b = JSON.parse(raw.toString());
      const m = media.get(b.id);
      if (!m) return problem(400, 'Invalid Request', 'unknown media id');
      m.altText = b.metadata?.alt_text?.text;
      return send(200, { data: { id: b.id, associated_metadata: b.metadata } });
    }
    if (route === 'POST /2/tweets') {
      const b = JSON.parse(raw.toString());
      if ([...tweets.values()].some((t) => t.text === b.text && t.authorId === user.id)) return problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
      const ids: string[] = b.media?.media_ids ?? [];
      if (ids.some((m: string) => { const e = media.get(m); return !e || (e.total !== undefined && (e.polls ?? 0) > 0); })) return problem(400, 'Invalid Request', 'Your media IDs are invalid.');
      const id = String(++seq);
      tweets.set(id, { id, text: b.text, authorId: user.id, inReplyTo: b.reply?.in_reply_to_tweet_id, quoteOf: b.quote_tweet_id, mediaIds: b.media?.media_ids ?? [], createdAt: new Date().toISOString() });
      if (fault?.commitThenDrop) return req.socket.destroy();
      return send(201, { data: { id, text: b.text, edit_history_tweet_ids: [id] } });
    }
    if (route === 'GET /2/users/:id/tweets' || (req.method === 'GET' && /^\/2\/users\/\d+\/tweets$/.test(url.pathname))) {
      const start = Date.parse(url.searchParams.get('start_time') ?? '1970-01-01T00:00:00Z');
      const data = [...tweets.values()].reverse().filter((t) => Date.parse(t.createdAt) >= start).slice(0, 100)
        .map((t) => ({ id: t.id, text: t.mediaIds.length ? `${t.text} https://t.co/abc` : t.text, created_at: t.createdAt, ...(t.inReplyTo ? { referenced_tweets: [{ type: 'replied_to', id: t.inReplyTo }] } : {}) }));
      return send(200, { data, meta: { result_count: data.length } });
    }
    return problem(404, 'Not Found Error', `no route ${route}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  return {
    url,
    user: () => user,
    tweet: (id: string) => tweets.get(id),
    tweetCount: () => tweets.size,
    media: (id: string) => media.get(id),
    fail: (route: string, f: Fault) => faults.set(route, f),
    expireAccessTokens: () => { for (const k of access.keys()) access.set(k, false); },
    revokeRefreshTokens: () => { for (const k of refresh.keys()) refresh.set(k, false); },
    refreshCount: () => refreshCount,
    tokenCalls: () => tokenCalls,
    issuedTokens: () => [...issued],
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export type XDouble = Awaited<ReturnType<typeof startXDouble>>;
