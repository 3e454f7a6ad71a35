/**
 * Foundation (issue 2): GET /api/v1/openapi.json is an OpenAPI 3.1 document listing exactly the
 * routes the app registers (allRoutes), each with its request, response and error schemas, and
 * every listed operation is really routed; GET /api/v1/docs is a readable reference served by
 * the app itself: loaded in real Chromium it requests nothing from any other origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../server/core/errors.js';
import { allRoutes } from '../../server/http/app.js';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;
let t: TestServer;
let key: string;
let doc: Json;
beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  const r = await t.call('GET', '/openapi.json');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  doc = r.body;
});
afterAll(async () => {
  await t.close();
});

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const routes = () => allRoutes(t.server.services);
/** The properties of an operation's JSON request body in the document. */
const toJsonBody = (d: Json, r: { path: string; method: string }): Json | undefined =>
  d.paths[toOpenApiPath(r.path)][r.method].requestBody?.content?.['application/json']?.schema?.properties;

describe('/openapi.json', () => {
  it('is OpenAPI 3.1 and lists exactly the routes of allRoutes, no more, no fewer', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const listed = Object.entries(doc.paths as Json)
      .flatMap(([p, ops]) => Object.keys(ops as Json).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    const registered = routes()
      .map((r) => `${r.method.toUpperCase()} ${toOpenApiPath(r.path)}`)
      .sort();
    expect(new Set(registered).size).toBe(registered.length);
    expect(listed).toEqual(registered);
    // The foundation's own endpoints are among them.
    for (const op of [
      'POST /auth/login',
      'GET /auth/api-keys',
      'POST /auth/api-keys',
      'DELETE /auth/api-keys/{keyId}',
      'GET /me',
      'GET /social-sets',
      'POST /social-sets',
      'PUT /social-sets',
      'DELETE /social-sets',
      'GET /accounts',
      'GET /accounts/{id}',
      'DELETE /accounts/{id}',
      'GET /templates',
      'GET /templates/{id}',
      'POST /templates',
      'PUT /templates/{id}',
      'DELETE /templates/{id}',
      'POST /credits',
      'GET /credits/usage',
    ]) {
      expect(listed).toContain(op);
    }
  });

  it('gives every operation its parameters, request body, success schema, error responses and security', () => {
    const ids = new Set<string>();
    for (const r of routes()) {
      const where = `${r.method.toUpperCase()} ${r.path}`;
      const op = doc.paths[toOpenApiPath(r.path)][r.method];
      expect(op.summary, where).toBeTruthy();
      expect(op.tags, where).toEqual([r.tag]);
      expect(ids.has(op.operationId), `${where} operationId`).toBe(false);
      ids.add(op.operationId);
      // Path parameters, each required.
      const pathParams = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
      expect(
        op.parameters
          .filter((p: Json) => p.in === 'path')
          .map((p: Json) => p.name)
          .sort(),
        where,
      ).toEqual(pathParams);
      for (const p of op.parameters) {
        expect(p.schema, `${where} ${p.name}`).toBeTypeOf('object');
        if (p.in === 'path') expect(p.required).toBe(true);
      }
      // Request body when the route takes one.
      if (r.body) {
        const types =
          r.bodyType === 'text'
            ? (r.bodyTypes ?? [])
            : [r.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json'];
        expect(types.length, where).toBeGreaterThan(0);
        for (const type of types)
          expect(op.requestBody?.content?.[type]?.schema, `${where} ${type}`).toBeTypeOf('object');
      } else {
        expect(op.requestBody, where).toBeUndefined();
      }
      // The success answer with its schema.
      const ok = op.responses[String(r.status ?? 200)];
      expect(ok, where).toBeTruthy();
      const content = ok.content[[r.responseType ?? 'application/json'].flat()[0]];
      expect(content?.schema, where).toBeTypeOf('object');
      if (r.response) expect(content.schema.type, where).toBe('object');
      // Every declared error code appears under its decided status, with the error envelope.
      const codes = [
        ...(r.errors ?? []),
        'INTERNAL_ERROR',
        ...(r.auth === false ? [] : ['INVALID_API_KEY']),
      ] as (keyof typeof ERROR_STATUS)[];
      for (const code of codes) {
        const res = op.responses[String(ERROR_STATUS[code])];
        expect(res, `${where} ${code}`).toBeTruthy();
        expect(res.description, `${where} ${code}`).toContain(code);
        expect(res.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (r.body && r.bodyType !== 'multipart') expect(op.responses['415'], `${where} 415`).toBeTruthy();
      expect(op.responses['403'].description, where).toMatch(/Host/);
      // Keyed routes say so.
      expect(op.security, where).toEqual(r.auth === false ? [] : [{ svcKey: [] }]);
    }
    expect(doc.components.securitySchemes.svcKey).toEqual({ type: 'apiKey', in: 'header', name: 'svc-key' });
  });

  it('documents the 202 answer of every operation that takes `async`', () => {
    const asyncOps = routes().filter((r) => r.body && 'async' in (toJsonBody(doc, r) ?? {}));
    expect(asyncOps.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort()).toEqual([
      'POST /microblog/publish',
      'POST /publish/multi-platform',
    ]);
    for (const r of asyncOps) {
      const accepted = doc.paths[toOpenApiPath(r.path)][r.method].responses['202'];
      expect(accepted?.content?.['application/json']?.schema?.required, r.path).toEqual(
        expect.arrayContaining(['success', 'jobId', 'draftId']),
      );
    }
    // Real 202 answers are checked against the same contract (acceptedResponse) in
    // client-library-coverage.test.ts, so document and answer cannot drift apart.
  });

  it('describes the error envelope, and every $ref in the document resolves', () => {
    const err = doc.components.schemas.Error;
    expect(Object.keys(err.properties).sort()).toEqual(['details', 'error', 'message', 'success']);
    expect(err.required.sort()).toEqual(['error', 'message', 'success']);
    expect(err.properties.error.enum.sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    const refs: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref') refs.push(x as string);
          else walk(x);
        }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\//);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      expect(target, ref).toBeTruthy();
    }
  });

  it('every listed operation is routed by the app (none answers the unknown-route 404)', async () => {
    const unknown = await t.call('GET', '/surely-not-a-route', { key });
    expect(unknown.status).toBe(404);
    for (const [p, ops] of Object.entries(doc.paths as Json)) {
      for (const method of Object.keys(ops as Json)) {
        const url = p.replace(/\{[^}]+\}/g, 'no-such-id');
        // POST /auth/logout revokes the key that calls it: it gets a key of its own.
        const own = url === '/auth/logout' ? await t.login() : key;
        // The event stream never ends: a resume point that is no id has it answer (400) at once.
        const headers = url === '/events' ? { 'last-event-id': 'not-an-id' } : undefined;
        const r = await t.call(method.toUpperCase(), url, {
          key: own,
          body: method === 'get' ? undefined : {},
          headers,
        });
        expect(
          r.body?.message === unknown.body.message && r.status === 404,
          `${method.toUpperCase()} ${p} is not routed: ${r.text}`,
        ).toBe(false);
      }
    }
  });
});

describe('/docs', () => {
  it(
    'is served by the app with a strict CSP, names every ' + 'endpoint, and loads nothing from elsewhere in Chromium',
    async () => {
      const r = await t.call('GET', '/docs');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      const html = r.text;
      for (const route of routes())
        expect(html, route.path).toContain(`/api/v1${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      expect(html).not.toMatch(/<script/i);
      // Every reference a browser would follow stays on this server.
      const refs = [...html.matchAll(/\b(?:href|src|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map(
        (m) => m[1],
      );
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) expect(ref, ref).toMatch(/^(#|\/(?!\/))/);
      const css = await t.call('GET', '/docs.css');
      expect(css.status).toBe(200);
      expect(css.text).not.toMatch(/url\(|@import|\/\//);

      const origin = new URL(t.base).origin;
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const requested: string[] = [];
        const violations: string[] = [];
        page.on('request', (req) => {
          requested.push(req.url());
        });
        page.on('console', (m) => {
          if (/Content Security Policy|Refused/i.test(m.text())) violations.push(m.text());
        });
        const res = await page.goto(`${t.base}/docs`, { waitUntil: 'load' });
        expect(res?.status()).toBe(200);
        await page.locator('h1').waitFor();
        expect(await page.locator('h1').innerText()).toMatch(/Herald API reference/);
        expect(await page.locator('section').count()).toBe(routes().length);
        // The stylesheet (same origin) applied: the page is styled without any outside resource.
        expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).toBe('960px');
        expect(requested.length).toBeGreaterThanOrEqual(2);
        for (const u of requested) expect(new URL(u).origin, u).toBe(origin);
        expect(violations).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
