/**
 * createApp(deps) builds the Express app without listening. Order matters: security headers and
 * the Host guard run first for every path, then the cross-origin guard, then per route: key
 * auth and rate limit, content-type check, body parsing, validation, handler. One error mapper.
 */
import express, { type RequestHandler } from 'express';
import type { Services } from '../domain/services.js';
import { HeraldError } from '../core/errors.js';
import { renderDocsPage, DOCS_CSS } from './docs-page.js';
import { createDispatch, sendJson, type DispatchRoute } from './dispatch.js';
import { keyAuth } from './middleware/auth.js';
import { errorMapper, notFoundHandler } from './middleware/errors.js';
import { idempotency } from './middleware/idempotency.js';
import { discardUploaded, uploadDigest } from './middleware/media-upload.js';
import {
  hostGuard,
  originGuard,
  requireJson,
  requireMultipart,
  requireTypes,
  securityHeaders,
} from './middleware/guards.js';
import { buildOpenApi } from './openapi.js';
import { parseOrThrow, type Method, type RouteDef } from './route.js';
import { accountRoutes } from './routes/accounts.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { connectionRoutes } from './routes/connections.routes.js';
import { creditRoutes } from './routes/credits.routes.js';
import { alertRoutes } from './routes/alerts.routes.js';
import { evergreenRoutes } from './routes/evergreen.routes.js';
import { draftFileRoutes } from './routes/draft-files.routes.js';
import { draftRoutes } from './routes/drafts.routes.js';
import { eventRoutes } from './routes/events.routes.js';
import { mediaRoutes } from './routes/media.routes.js';
import { linkCardRoutes } from './routes/link-cards.routes.js';
import { meRoutes } from './routes/me.routes.js';
import { publishingRoutes } from './routes/publishing.routes.js';
import { publicationRoutes } from './routes/publications.routes.js';
import { analyticsRoutes } from './routes/analytics.routes.js';
import { scheduleRoutes } from './routes/schedule.routes.js';
import { queueRoutes } from './routes/queue.routes.js';
import { secretSetupRoutes, setupRoutes } from './routes/setup.routes.js';
import { networkRoutes } from './routes/networks.routes.js';
import { mediaRelayRoutes } from './routes/media-relay.routes.js';
import { settingsRoutes } from './routes/settings.routes.js';
import { signInRoutes } from './routes/signin.routes.js';
import { VERSION } from './version.js';
import { socialSetRoutes } from './routes/social-sets.routes.js';
import { templateRoutes } from './routes/templates.routes.js';

export const API_PREFIX = '/api/v1';
export { VERSION };

export interface AppOptions {
  services: Services;
  /** Host header values accepted (depends on the port, known only after listening). */
  hosts: () => Set<string>;
  origins: () => Set<string>;
  /** Extra route groups (later areas register here). */
  routes?: RouteDef[];
  /** Non-API handlers mounted after the API (e.g. the UI's static files). */
  extra?: RequestHandler[];
}

/** Every route definition of the API, in the order they are documented. */
export function allRoutes(s: Services, extra: RouteDef[] = []): RouteDef[] {
  return [
    ...authRoutes(s),
    ...signInRoutes(s),
    ...setupRoutes(s),
    ...secretSetupRoutes(s),
    ...meRoutes(s),
    ...socialSetRoutes(s),
    ...accountRoutes(s),
    ...connectionRoutes(s),
    ...templateRoutes(s),
    ...draftFileRoutes(s),
    ...draftRoutes(s),
    ...linkCardRoutes(s),
    ...mediaRoutes(s),
    ...creditRoutes(s),
    ...alertRoutes(s),
    ...evergreenRoutes(s),
    ...publishingRoutes(s),
    ...publicationRoutes(s),
    ...analyticsRoutes(s),
    ...scheduleRoutes(s),
    ...queueRoutes(s),
    ...settingsRoutes(s),
    ...networkRoutes(s),
    ...mediaRelayRoutes(s),
    ...eventRoutes(s),
    ...extra,
  ];
}

/** Largest draft file (Markdown, JSON or CSV) an import takes: a 10,000-row CSV is about 1 MB. */
export const FILE_BODY_LIMIT = 16 * 1024 * 1024;

export function createApp(opts: AppOptions) {
  const { services: s } = opts;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  // Security headers first, so the guards' own refusals carry them too.
  const guards = [securityHeaders(), hostGuard(opts.hosts), originGuard(opts.origins)];
  for (const g of guards) app.use(g);

  const routes = allRoutes(s, opts.routes);
  // Express's router for the API is what the dispatcher leaves over (HEAD, uploads, the docs,
  // unknown paths): built on the first request that needs it, not at start-up (compiling ~75
  // path patterns is a few ms of every start).
  const expressRoutes: [Method, string, () => RequestHandler[]][] = [];
  const auth = keyAuth(s.auth);
  const json = express.json({ limit: s.deps.config.jsonBodyLimit, strict: true, type: () => true });

  const dispatchRoutes: DispatchRoute[] = [];
  // Each route's chain is built on its first request: a start-up answers its first request
  // without building the other ~80.
  const buildChain = (r: RouteDef): RequestHandler[] => {
    const chain: RequestHandler[] = [];
    if (r.auth !== false) chain.push(auth);
    const idem = r.idempotent
      ? idempotency(
          s.idempotency,
          s.deps.log,
          r.bodyType === 'multipart' ? { digest: uploadDigest, discard: discardUploaded } : {},
        )
      : undefined;
    if (idem) chain.push(idem.check);
    if (r.bodyType === 'multipart') chain.push(requireMultipart());
    else if (r.bodyType === 'text') {
      chain.push(requireTypes(r.bodyTypes ?? []));
      // A file as it is (UTF-8 text), up to FILE_BODY_LIMIT; parsed by the route's converter.
      const text = express.text({ limit: FILE_BODY_LIMIT, type: () => true, defaultCharset: 'utf-8' });
      chain.push((req, res, next) => {
        if (Number(req.headers['content-length']) > FILE_BODY_LIMIT) {
          res.setHeader('Connection', 'close');
          return next(new HeraldError('INVALID_INPUT', 'The request body is too large', { status: 413 }));
        }
        text(req, res, next);
      });
    } else {
      chain.push(requireJson());
      chain.push((req, res, next) => {
        if (!req.headers['content-length'] && !req.headers['transfer-encoding']) return next();
        // Over the cap by its own Content-Length: answer now and close, without reading the body.
        if (Number(req.headers['content-length']) > s.deps.config.jsonBodyLimit) {
          res.setHeader('Connection', 'close');
          return next(new HeraldError('INVALID_INPUT', 'The request body is too large', { status: 413 }));
        }
        json(req, res, next);
      });
    }
    if (r.before) chain.push(...r.before);
    if (idem) chain.push(idem.claim);
    const status = r.status ?? 200;
    chain.push((req, res) => {
      const body = r.body ? parseOrThrow(r.body, req.body ?? {}, 'body') : undefined;
      const query = r.query ? parseOrThrow(r.query, req.query, 'query') : undefined;
      const params = r.params ? parseOrThrow(r.params, req.params, 'params') : undefined;
      const result = r.handler({ body, query, params, auth: req.auth!, req, res });
      // A synchronous handler's answer goes out without a promise (a thrown error reaches the
      // error mapper either way).
      if (result instanceof Promise)
        return result.then((value) => {
          if (!res.headersSent) sendJson(req, res, status, value);
        });
      if (!res.headersSent) sendJson(req, res, status, result);
    });
    return chain;
  };
  for (const r of routes) {
    if (r.idempotent && r.auth === false)
      throw new Error(`${r.path}: an idempotent route needs a key (Idempotency-Key is per user)`);
    let built: RequestHandler[] | undefined;
    const chain = () => (built ??= buildChain(r));
    expressRoutes.push([r.method, r.path, chain]);
    dispatchRoutes.push({ method: r.method, path: r.path, chain, viaExpress: r.bodyType === 'multipart' });
  }

  let openapi: Record<string, unknown> | undefined;
  const doc = () => (openapi ??= buildOpenApi(routes, { version: VERSION }));
  const buildApi = () => {
    const api = express.Router({ caseSensitive: true, strict: false });
    for (const [method, path, chain] of expressRoutes) api[method](path, ...chain());
    api.get('/openapi.json', (_req, res) => {
      res.json(doc());
    });
    api.get('/docs', (_req, res) => {
      res.setHeader(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      res.type('html').send(renderDocsPage(doc()));
    });
    api.get('/docs.css', (_req, res) => {
      res.type('css').send(DOCS_CSS);
    });
    return api;
  };
  let api: ReturnType<typeof buildApi> | undefined;
  app.use(API_PREFIX, (req, res, next) => (api ??= buildApi())(req, res, next));
  app.use(API_PREFIX, notFoundHandler());
  for (const h of opts.extra ?? []) app.use(h);
  app.use((_req, _res, next) => next(new HeraldError('NOT_FOUND', 'Not found')));
  const errors = errorMapper(s.deps.log);
  app.use(errors);
  const dispatch = createDispatch({ prefix: API_PREFIX, app, guards, routes: dispatchRoutes, errors });
  return Object.assign(app, { dispatch });
}

export type HeraldApp = ReturnType<typeof createApp>;
