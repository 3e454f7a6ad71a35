// Shared machinery for the network simulators: a loopback HTTP server with a tiny router,
// body parsing (JSON, form, multipart), per-request latency and a fault queue.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sleep } from './util.js';

export interface UploadedPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export interface SimRequest {
  method: string;
  path: string;
  url: URL;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** 'json' | 'form' | 'multipart' | 'none' | 'other' */
  bodyKind: 'json' | 'form' | 'multipart' | 'none' | 'other';
  /** Parsed JSON value, or the form/multipart fields (repeated keys become arrays). */
  body: any;
  files: UploadedPart[];
  params: Record<string, string>;
  bearer?: string;
}

export interface SimReply {
  status: number;
  body?: unknown;
  /** Raw body; wins over `body`. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export type Handler = (req: SimRequest) => SimReply | Promise<SimReply>;

export type Fault =
  | { kind: '429'; resetInSeconds?: number }
  | { kind: '500' | '502' | '503' }
  | { kind: 'timeout'; ms?: number }
  | { kind: 'expired-token' }
  | { kind: 'commit-then-drop' }
  /** The handler runs (and commits), then a gateway answers with a server error instead. */
  | { kind: 'commit-then-error'; status?: 502 | 503 | 504 };

export interface FaultFilter {
  /** Matches `${METHOD} ${path}`: a substring or a RegExp. */
  route?: string | RegExp;
  /** How many matching requests this fault applies to (default 1). */
  times?: number;
  /** Matching requests let through untouched first (e.g. 1: the fault hits the second post of a thread). */
  skip?: number;
}

interface QueuedFault {
  fault: Fault;
  route?: string | RegExp;
  left: number;
  skip: number;
}

export interface FaultLogEntry {
  kind: Fault['kind'];
  method: string;
  path: string;
}

/** Programmatic fault injection shared by every simulator. */
export class Faults {
  private queue: QueuedFault[] = [];
  /** Latency added to every request (ms). */
  latencyMs = 0;
  /** Faults that fired, in order. */
  readonly fired: FaultLogEntry[] = [];

  /** Apply `fault` to the next matching request(s). */
  next(fault: Fault, filter: FaultFilter = {}): void {
    this.queue.push({ fault, route: filter.route, left: filter.times ?? 1, skip: filter.skip ?? 0 });
  }

  clear(): void {
    this.queue = [];
  }

  pending(): number {
    return this.queue.reduce((n, q) => n + q.left, 0);
  }

  /** Internal: consume the first fault matching this request. */
  take(method: string, path: string): Fault | undefined {
    const key = `${method} ${path}`;
    for (const q of this.queue) {
      const match = !q.route || (typeof q.route === 'string' ? key.includes(q.route) : q.route.test(key));
      if (!match) continue;
      if (q.skip > 0) {
        q.skip -= 1;
        continue;
      }
      q.left -= 1;
      if (q.left <= 0) this.queue.splice(this.queue.indexOf(q), 1);
      this.fired.push({ kind: q.fault.kind, method, path });
      return q.fault;
    }
    return undefined;
  }
}

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export class Router {
  private routes: Route[] = [];

  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const src = path.replace(/[.]/g, '\\.').replace(/:([A-Za-z_]+)/g, (_m, k: string) => {
      keys.push(k);
      return '([^/]+)';
    });
    this.routes.push({ method, pattern: new RegExp(`^${src}$`), keys, handler });
    return this;
  }

  find(method: string, path: string): { handler: Handler; params: Record<string, string> } | 'method' | undefined {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== method) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1]!)));
      return { handler: r.handler, params };
    }
    return pathMatched ? 'method' : undefined;
  }
}

/** How each network phrases the generic failures the fault queue produces. */
export interface FaultRenderer {
  rateLimited(resetEpochSeconds: number, req: SimRequest): SimReply;
  serverError(status: number, req: SimRequest): SimReply;
  expiredToken(req: SimRequest): SimReply;
  notFound(req: SimRequest): SimReply;
}

export interface SimServer {
  url: string;
  port: number;
  faults: Faults;
  /** Requests seen, as `${METHOD} ${path}`. */
  requests: string[];
  close(): Promise<void>;
}

export async function startSimServer(router: Router, render: FaultRenderer): Promise<SimServer> {
  const faults = new Faults();
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    requests.push(`${method} ${url.pathname}`);
    let sreq: SimRequest;
    try {
      sreq = parseRequest(req, url, method, raw);
    } catch {
      send(res, { status: 400, body: { error: 'malformed body' } });
      return;
    }
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const fault = faults.take(method, url.pathname);
    if (fault?.kind === 'timeout') {
      await sleep(fault.ms ?? 30_000);
      req.socket.destroy();
      return;
    }
    if (fault?.kind === '429') {
      const reset = Math.floor(Date.now() / 1000) + (fault.resetInSeconds ?? 60);
      send(res, render.rateLimited(reset, sreq));
      return;
    }
    if (fault && (fault.kind === '500' || fault.kind === '502' || fault.kind === '503')) {
      send(res, render.serverError(Number(fault.kind), sreq));
      return;
    }
    if (fault?.kind === 'expired-token') {
      send(res, render.expiredToken(sreq));
      return;
    }
    const found = router.find(method, url.pathname);
    let reply: SimReply;
    if (!found || found === 'method') {
      reply = render.notFound(sreq);
    } else {
      sreq.params = found.params;
      try {
        reply = await found.handler(sreq);
      } catch (err) {
        reply = render.serverError(500, sreq);
        console.error('simulator handler failed', err);
      }
    }
    if (fault?.kind === 'commit-then-error') {
      send(res, render.serverError(fault.status ?? 502, sreq));
      return;
    }
    if (fault?.kind === 'commit-then-drop') {
      // The handler ran (and committed); the client never hears back.
      req.socket.destroy();
      return;
    }
    send(res, reply);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    faults,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, reply: SimReply): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let payload: string | Buffer | undefined;
  if (reply.raw !== undefined) payload = reply.raw;
  else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json; charset=utf-8';
    }
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** A request's whole body. */
export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseRequest(req: http.IncomingMessage, url: URL, method: string, raw: Buffer): SimRequest {
  const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
  let bodyKind: SimRequest['bodyKind'] = raw.length === 0 ? 'none' : 'other';
  let body: any = {};
  let files: UploadedPart[] = [];
  if (raw.length > 0 && ctype.includes('json')) {
    bodyKind = 'json';
    body = JSON.parse(raw.toString('utf8'));
  } else if (raw.length > 0 && ctype.includes('application/x-www-form-urlencoded')) {
    bodyKind = 'form';
    body = formToObject(new URLSearchParams(raw.toString('utf8')));
  } else if (ctype.includes('multipart/form-data')) {
    bodyKind = 'multipart';
    const boundary = /boundary="?([^";]+)"?/i.exec(String(req.headers['content-type']))?.[1];
    if (!boundary) throw new Error('multipart without boundary');
    const parts = parseMultipart(raw, boundary);
    files = parts.filter((p) => p.filename !== undefined || p.contentType !== undefined);
    const fields = new URLSearchParams();
    for (const p of parts) if (!files.includes(p)) fields.append(p.name, p.data.toString('utf8'));
    body = formToObject(fields);
    // Parts sent without filename/content type but named like file fields still count as data.
    for (const p of parts) if (!files.includes(p)) files.push(p);
  }
  const auth = String(req.headers.authorization ?? '');
  const bearer = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
  return {
    method,
    path: url.pathname,
    url,
    query: url.searchParams,
    headers: req.headers,
    raw,
    bodyKind,
    body,
    files,
    params: {},
    bearer,
  };
}

/** Repeated keys (and `key[]`) become arrays; others stay strings. */
export function formToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    if (k.endsWith('[]')) {
      const key = k.slice(0, -2);
      const cur = out[key];
      out[key] = Array.isArray(cur) ? [...cur, v] : cur === undefined ? [v] : [cur, v];
    } else if (k in out) {
      const cur = out[k]!;
      out[k] = Array.isArray(cur) ? [...cur, v] : [cur, v];
    } else out[k] = v;
  }
  return out;
}

export function parseMultipart(raw: Buffer, boundary: string): UploadedPart[] {
  const delim = Buffer.from(`--${boundary}`);
  const parts: UploadedPart[] = [];
  let pos = raw.indexOf(delim);
  while (pos !== -1) {
    const start = pos + delim.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(delim, start);
    if (next === -1) break;
    // Skip the CRLF after the delimiter; drop the CRLF before the next one.
    const section = raw.subarray(start + 2, next - 2);
    const headerEnd = section.indexOf('\r\n\r\n');
    const head = section.subarray(0, headerEnd).toString('utf8');
    const data = section.subarray(headerEnd + 4);
    const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
    parts.push({ name, filename, contentType, data: Buffer.from(data) });
    pos = next;
  }
  return parts;
}

export * from './util.js';
