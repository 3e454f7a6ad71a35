/**
 * The API's front door. Express's router walks its layers for every request, matching each
 * against a regular expression and re-entering itself through the mounted /api/v1 router; on the
 * keyed routes that walk cost more than all of Herald's own work. This dispatcher finds the route
 * in a table built once from the same route definitions and runs the same handler chain (guards,
 * key auth, rate limit, body parsing, validation, handler, error mapper) without the walk.
 *
 * It takes only what it can match exactly as Express would: a plain path (letters, digits and
 * `-._~/`, no `//`, at most one trailing slash) under /api/v1 with GET, POST, PUT, PATCH or DELETE
 * and a JSON route. Everything else (HEAD, OPTIONS, uploads, percent-encoded paths, unknown
 * paths, the docs, the UI's files) goes to the Express app, which behaves as before. The request
 * and response already carry Express's prototypes (see server.ts), so the handlers see the same
 * objects either way.
 */
import type http from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { HeraldError } from '../core/errors.js';

export interface DispatchRoute {
  method: string;
  /** Express path under the prefix, e.g. `/templates/:id`. */
  path: string;
  /**
   * Everything Express would run for the route after the app-level guards (or a function that builds it on the route's
   * first request).
   */
  chain: RequestHandler[] | (() => RequestHandler[]);
  /** Routes the dispatcher leaves to Express (uploads). */
  viaExpress?: boolean;
}

interface Compiled {
  segments: string[];
  /** Index of each `:param` segment and its name. */
  params: [number, string][];
  handlers: () => RequestHandler[];
  viaExpress: boolean;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/;

export interface DispatchOptions {
  prefix: string;
  app: Express;
  /** App-level middleware that runs before every route (Host guard, headers, origin guard). */
  guards: RequestHandler[];
  routes: DispatchRoute[];
  errors: ErrorRequestHandler;
}

export type Dispatch = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

export function createDispatch(opts: DispatchOptions): Dispatch {
  // method → segment count → routes in registration order (Express's first match wins).
  const table = new Map<string, Map<number, Compiled[]>>();
  for (const r of opts.routes) {
    const segments = r.path.split('/').slice(1);
    if (
      segments.some(
        (s) =>
          s.includes('*') ||
          s.includes('?') ||
          s.includes('{') ||
          (s.startsWith(':') ? !/^:[A-Za-z_$][\w$]*$/.test(s) : !PLAIN_PATH.test(s)),
      )
    ) {
      throw new Error(`The dispatcher cannot match ${r.path}`);
    }
    const byLength = table.get(r.method.toUpperCase()) ?? new Map<number, Compiled[]>();
    table.set(r.method.toUpperCase(), byLength);
    const list = byLength.get(segments.length) ?? [];
    byLength.set(segments.length, list);
    list.push({
      segments,
      params: segments.flatMap((s, i): [number, string][] => (s.startsWith(':') ? [[i, s.slice(1)]] : [])),
      handlers: once(() => [...opts.guards, ...(typeof r.chain === 'function' ? r.chain() : r.chain)]),
      viaExpress: r.viaExpress ?? false,
    });
  }
  const prefix = `${opts.prefix}/`;

  const match = (method: string, path: string): { route: Compiled; params: Record<string, string> } | undefined => {
    const byLength = table.get(method);
    if (!byLength) return undefined;
    const parts = path.split('/');
    const candidates = byLength.get(parts.length);
    if (!candidates) return undefined;
    outer: for (const route of candidates) {
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i];
        if (seg.charCodeAt(0) === 58 /* : */) {
          if (parts[i] === '') continue outer;
        } else if (seg !== parts[i]) continue outer;
      }
      const params: Record<string, string> = {};
      for (const [i, name] of route.params) params[name] = parts[i];
      return { route, params };
    }
    return undefined;
  };

  return (rawReq, rawRes) => {
    const url = rawReq.url ?? '';
    const method = rawReq.method ?? '';
    if (!url.startsWith(prefix) || !METHODS.has(method)) return opts.app(rawReq, rawRes);
    const q = url.indexOf('?');
    let path = q === -1 ? url.slice(prefix.length) : url.slice(prefix.length, q);
    if (path.endsWith('/')) path = path.slice(0, -1);
    if (path === '' || path.includes('//') || !PLAIN_PATH.test(path)) return opts.app(rawReq, rawRes);
    const found = match(method, path);
    if (!found || found.route.viaExpress) return opts.app(rawReq, rawRes);

    // What Express's app.handle and router set up for a handler.
    const req = rawReq as Request;
    const res = rawRes as Response;
    (req as { res?: Response }).res = res;
    (res as { req?: Request }).req = req;
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = url;
    req.baseUrl = opts.prefix;
    req.params = found.params;
    run(found.route.handlers(), req, res, opts.errors);
  };
}

/** Runs handlers as Express does: `next(err)` and a rejected promise go to the error handler. */
function run(handlers: RequestHandler[], req: Request, res: Response, errors: ErrorRequestHandler): void {
  let i = 0;
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    try {
      errors(err, req, res, () => {});
    } catch {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  };
  const next = (err?: unknown): void => {
    if (err !== undefined && err !== null && err !== 'route' && err !== 'router') return fail(err);
    const h = handlers[i++];
    // Past the route's last handler Express would find no other route: the API's 404.
    if (!h) return fail(new HeraldError('NOT_FOUND', 'No such endpoint'));
    try {
      const ret = h(req, res, next) as unknown;
      if (ret instanceof Promise) ret.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
    } catch (e) {
      next(e);
    }
  };
  next();
}

/**
 * What Express's `res.status(status).json(value)` sends with Herald's settings (no ETag, no JSON
 * replacer or spaces), without its content negotiation and freshness checks: the same status,
 * headers and bytes.
 */
export function sendJson(req: Request, res: Response, status: number, value: unknown): void {
  res.statusCode = status;
  if (status === 204 || status === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Transfer-Encoding');
    res.end();
    return;
  }
  sendJsonText(req, res, JSON.stringify(value) ?? '');
}

/**
 * An answer serialised as JSON just now. Sent as a string, so Node writes the head and the body
 * in one piece, with no copy into a Buffer first.
 */
export function sendJsonText(req: Request, res: Response, body: string): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/**
 * An answer kept encoded (a cached list): Node writes the head and these bytes together, without
 * encoding or copying the body again, which a string answer pays per request (figures: README, Performance).
 */
export function sendJsonBytes(req: Request, res: Response, body: Buffer): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
