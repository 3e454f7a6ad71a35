/**
 * Tools shared by the attack suites (test/security/*.exploit.test.ts): an HTTP exchange over a
 * raw socket (for requests no client library sends: duplicate or missing Host, absolute-form
 * targets, broken framing), a seeded world whose ids fill every route's parameters, the list of
 * every route in allRoutes plus the non-API paths (OpenAPI, docs, UI), and counters that show
 * whether a request changed anything.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { allRoutes, API_PREFIX } from '../../server/http/app.js';
import type { RouteDef } from '../../server/http/route.js';
import { insertAccount, ownerId } from './fixtures.js';
import { png, upload } from './media-files.js';
import { tempDir, type TestServer } from './server.js';

export interface RawReply {
  /** 0 when no status line came back (connection closed or timed out first). */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent. */
  raw: Buffer;
  /** The server closed the connection (rather than the client timing out). */
  closed: boolean;
  timedOut: boolean;
  error?: string;
}

/** Decodes a chunked body as far as it is well formed. */
function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < buf.length) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(i, eol).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export function parseRawResponse(raw: Buffer): Pick<RawReply, 'status' | 'headers' | 'body'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '' };
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const c = line.indexOf(':');
    if (c > 0) {
      const k = line.slice(0, c).trim().toLowerCase();
      headers[k] = headers[k] === undefined ? line.slice(c + 1).trim() : `${headers[k]}, ${line.slice(c + 1).trim()}`;
    }
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: m ? Number(m[1]) : 0, headers, body: body.toString('utf8') };
}

export interface RawOptions {
  host?: string;
  /** Give up (and destroy the socket) after this long. */
  timeoutMs?: number;
  /** Pieces written with a pause between them (slow clients). */
  pauseMs?: number;
  /** Stop reading once a full response head is in and this long passed without more bytes. */
  idleMs?: number;
}

/**
 * Writes `request` (bytes exactly as given; an array is written piece by piece) to a fresh
 * connection and reads until the server closes it, the response is complete, or the timeout.
 */
export function rawExchange(
  port: number,
  request: string | Buffer | (string | Buffer)[],
  opts: RawOptions = {},
): Promise<RawReply> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    let closed = false;
    let timedOut = false;
    let error: string | undefined;
    const socket = net.connect({ host: opts.host ?? '127.0.0.1', port });
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      resolve({ ...parseRawResponse(raw), raw, closed, timedOut, error });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      finish();
    }, timeoutMs);
    const complete = () => {
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const head = raw.subarray(0, end).toString('latin1');
      const len = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (len) return raw.length - end - 4 >= Number(len[1]);
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head))
        return raw.subarray(end + 4).includes('\r\n0\r\n\r\n') || raw.subarray(end + 4).indexOf('0\r\n\r\n') === 0;
      return /^HTTP\/1\.[01] (1\d\d|204|304)/.test(head);
    };
    socket.on('data', (c) => {
      chunks.push(c);
      if (complete()) finish();
    });
    socket.on('end', () => {
      closed = true;
      finish();
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
      closed = true;
      finish();
    });
    socket.once('connect', async () => {
      const pieces = Array.isArray(request) ? request : [request];
      for (const [i, p] of pieces.entries()) {
        if (settled || socket.destroyed) return;
        socket.write(p);
        if (opts.pauseMs && i < pieces.length - 1) await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
    });
  });
}

/** Runs `fn` over `items` with at most `width` in flight; results in input order. */
export async function pool<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** Everything a route needs to name real rows, so a request that got through would touch data. */
export interface World {
  key: string;
  userId: string;
  spareKeyId: string;
  accountId: string;
  socialSetId: string;
  templateId: string;
  draftId: string;
  mediaId: string;
  /** Text planted in the draft and template: any answer that carries it leaked data. */
  canary: string;
}

export const WORLD_CANARY = 'leakcanary7Q3xZ';

async function ok<T = any>(p: Promise<{ status: number; body: T; text: string }>, what: string): Promise<T> {
  const r = await p;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

/** Signs in the owner and creates one of everything through the API (an account row directly). */
export async function seedWorld(t: TestServer): Promise<World> {
  const key = await t.login();
  const userId = ownerId(t);
  const spare = await ok(t.call('POST', '/auth/api-keys', { key, body: { name: 'spare' } }), 'create key');
  const accountId = insertAccount(t, userId, 'microblog', 'canaryuser');
  const socialSetId = t.server.services.socialSets.defaultSet(userId)!.id;
  const tpl = await ok(
    t.call('POST', '/templates', { key, body: { name: `tpl ${WORLD_CANARY}`, headContentPlain: WORLD_CANARY } }),
    'create template',
  );
  const draft = await ok(
    t.call('POST', '/microblog/drafts', {
      key,
      body: { title: `draft ${WORLD_CANARY}`, tweets: [{ content: `secret plan ${WORLD_CANARY}` }] },
    }),
    'create draft',
  );
  const up = await upload(t.base, key, [{ filename: 'a.png', data: png(8, 8) }]);
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
  return {
    key,
    userId,
    spareKeyId: spare.apiKey?.id ?? spare.id ?? spare.key?.id,
    accountId,
    socialSetId,
    templateId: tpl.template.uuid,
    draftId: draft.draft.id,
    mediaId: up.body.data.uploads[0].mediaId,
    canary: WORLD_CANARY,
  };
}

export interface Target {
  method: string;
  /** Request-target on the wire (origin-form): prefix, path, query. */
  path: string;
  /** Whether the route wants the svc-key header. */
  auth: boolean;
  /** A JSON body, for routes that take one. */
  body?: string;
  contentType?: string;
  label: string;
  route?: RouteDef;
}

/**
 * The key to send to `method target`: the world's key, except for POST /auth/logout, which
 * revokes the key that calls it; it gets a fresh key of the owner each time (as DELETE
 * /auth/api-keys/:keyId gets the spare key's id), so a sweep does not sign itself out.
 */
export function callerKey(t: TestServer, w: World, method: string, target: string): string {
  if (method.toUpperCase() !== 'POST' || !/\/auth\/logout(\?|$)/.test(target)) return w.key;
  return t.server.services.auth.issueKey(w.userId, 'revoked by a sweep', 'pro').key;
}

/** The route's path with `:params` filled from the world. */
export function fillPath(r: Pick<RouteDef, 'path'>, w: World): string {
  return r.path
    .replace(':keyId', w.spareKeyId)
    .replace(':mediaId', w.mediaId)
    .replace(/^\/accounts\/:id/, `/accounts/${w.accountId}`)
    .replace(/^\/templates\/:id/, `/templates/${w.templateId}`)
    .replace(/^\/microblog\/drafts\/:id/, `/microblog/drafts/${w.draftId}`);
}

/** A body the route would act on, so a request that slipped through would change something. */
export function sampleBody(r: RouteDef, w: World): unknown {
  switch (`${r.method} ${r.path}`) {
    case 'post /auth/login':
    case 'post /auth/setup':
      return { email: 'owner@example.test', password: 'correct horse battery' };
    case 'post /auth/api-keys':
      return { name: 'attacker' };
    case 'post /social-sets':
      return { name: 'attacker set' };
    case 'put /social-sets':
      return { id: w.socialSetId, name: 'renamed by attacker' };
    case 'delete /social-sets':
      return { id: w.socialSetId };
    case 'post /templates':
    case 'put /templates/:id':
      return { name: 'attacker template' };
    case 'post /microblog/drafts':
    case 'put /microblog/drafts/:id':
      return { title: 'attacker', tweets: [{ content: 'pwned' }] };
    case 'post /microblog/drafts/batch':
      return { drafts: [{ title: 'attacker', tweets: [{ content: 'pwned' }] }] };
    case 'post /microblog/drafts/split':
      return { text: 'hello', platform: 'microblog' };
    case 'put /microblog/drafts/:id/platforms':
      return { platforms: [{ platform: 'microblog', content: 'pwned' }] };
    case 'patch /microblog/media/:mediaId':
      return { altText: 'attacker' };
    case 'put /settings':
      return { timezone: 'UTC' };
    case 'post /microblog/schedule':
      return { draftId: w.draftId, scheduledFor: '2027-06-01T00:00:00Z' };
    default:
      return {};
  }
}

/** Query strings some routes need to do anything at all. */
function sampleQuery(r: RouteDef, w: World): string {
  if (r.path.endsWith('/callback') && r.method === 'get') return '?code=abc&state=def';
  if (r.method === 'delete' && r.path === '/microblog/schedule') return `?draftId=${w.draftId}`;
  return '';
}

/** Every route of allRoutes with real ids, in definition order. */
export function apiTargets(t: TestServer, w: World): Target[] {
  return allRoutes(t.server.services).map((r) => {
    const withBody = r.method !== 'get' && r.bodyType !== 'none' && r.bodyType !== 'multipart';
    return {
      method: r.method.toUpperCase(),
      path: API_PREFIX + fillPath(r, w) + sampleQuery(r, w),
      auth: r.auth !== false,
      body: withBody ? JSON.stringify(sampleBody(r, w)) : undefined,
      contentType: withBody
        ? 'application/json'
        : r.bodyType === 'multipart'
          ? 'multipart/form-data; boundary=x'
          : undefined,
      label: `${r.method.toUpperCase()} ${r.path}`,
      route: r,
    };
  });
}

/** Paths outside allRoutes that the app also serves: the API document, docs and the UI. */
export function extraTargets(): Target[] {
  const get = (p: string, label = `GET ${p}`): Target => ({ method: 'GET', path: p, auth: false, label });
  return [
    get(`${API_PREFIX}/openapi.json`),
    get(`${API_PREFIX}/docs`),
    get(`${API_PREFIX}/docs.css`),
    get(`${API_PREFIX}/no-such-endpoint`),
    get('/'),
    get('/index.html'),
    get('/assets/app.js'),
    get('/compose', 'GET /compose (UI route)'),
    { method: 'HEAD', path: '/', auth: false, label: 'HEAD /' },
    { method: 'OPTIONS', path: `${API_PREFIX}/me`, auth: true, label: 'OPTIONS /me' },
  ];
}

/**
 * A built-UI folder with a marker in every file, served through the real static handlers. Put it
 * inside the test's data folder (`parent`) so closing the server removes it.
 */
export function uiFixture(parent = tempDir('herald-ui-')): { dir: string; marker: string } {
  const dir = path.join(parent, 'ui');
  fs.mkdirSync(dir);
  const marker = 'uimarker9Kd2';
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><title>Herald</title><script type="module" src="/assets/app.js"></script><!-- ${marker} -->`,
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), `console.log('${marker}');`);
  return { dir, marker };
}

/** Rows written on the server's SQLite connection since it opened (any state change shows). */
export const dbChanges = (t: TestServer) =>
  (t.server.sqlite.prepare('SELECT total_changes() AS n').get() as { n: number }).n;

/**
 * The key's X-RateLimit-Remaining as GET /me reports it. Every request that reaches key
 * authentication counts against the window, so two probes that differ by exactly one prove no
 * request between them got as far as authentication.
 */
export async function remaining(t: TestServer, key: string): Promise<number> {
  const r = await t.call('GET', '/me', { key });
  if (r.status !== 200) throw new Error(`GET /me: ${r.status} ${r.text}`);
  return Number(r.headers.get('x-ratelimit-remaining'));
}

/** Builds a request's bytes: request line, headers in order (duplicates allowed), body. */
export function buildRequest(
  method: string,
  target: string,
  headers: [string, string][],
  body?: string,
  version = 'HTTP/1.1',
): string {
  const lines = [`${method} ${target} ${version}`, ...headers.map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** Shape check for the error envelope of docs/decisions.md §1. */
export function isEnvelope(body: string): boolean {
  try {
    const j = JSON.parse(body);
    return j && j.success === false && typeof j.error === 'string' && typeof j.message === 'string';
  } catch {
    return false;
  }
}
