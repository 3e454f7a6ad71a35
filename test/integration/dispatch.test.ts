/**
 * The API's dispatcher (server/http/dispatch.ts) runs each route's handler chain without
 * Express's router. Every answer must be the one Express's router gives: the same requests go to
 * Herald's listener and to a second listener that serves the same app through Express alone, on
 * the same database, and their status, headers and bodies are compared (ids and times masked).
 * A second part checks the route table itself: which requests it takes, which it leaves to
 * Express, and that the first matching route wins as in Express.
 */
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatch } from '../../server/http/dispatch.js';
import { rawRequest, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let ref: http.Server;
let refPort: number;
let key: string;

beforeAll(async () => {
  t = await startServer({ scheduler: false });
  key = await t.login();
  ref = http.createServer(t.server.app);
  await new Promise<void>((r) => ref.listen(0, '127.0.0.1', r));
  refPort = (ref.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => ref.close(() => r()));
  await t.close();
});

interface Spec {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
const mask = (text: string) => text.replace(UUID, '<id>').replace(ISO, '<time>');

async function both(spec: Spec) {
  const send = (port: number) =>
    rawRequest(port, {
      method: spec.method,
      target: spec.target,
      body: spec.body,
      headers: {
        host: `127.0.0.1:${t.server.port}`,
        ...(spec.body !== undefined ? { 'content-length': String(Buffer.byteLength(spec.body)) } : {}),
        ...spec.headers,
      },
    });
  const viaDispatch = await send(t.server.port);
  const viaExpress = await send(refPort);
  const shape = (r: Awaited<ReturnType<typeof send>>) => {
    const { date: _d, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': _r, ...headers } = r.headers;
    return {
      status: r.status,
      headers: {
        ...headers,
        'content-length': undefined,
        'x-ratelimit-remaining': remaining === undefined ? undefined : 'n',
      },
      body: mask(r.text),
    };
  };
  return { dispatch: shape(viaDispatch), express: shape(viaExpress), raw: viaDispatch };
}

describe('answers through the dispatcher equal answers through Express', () => {
  it('for reads, writes and every kind of refusal', async () => {
    const k = () => ({ 'svc-key': key });
    const json = () => ({ ...k(), 'content-type': 'application/json' });
    expect((await t.call('POST', '/social-sets', { key, body: { name: 'Default' } })).status).toBe(200);
    const created = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'Seen by both', tweets: [{ content: 'one' }, { content: 'two' }] },
    });
    expect(created.status).toBe(200);
    const id = created.body.draft.id as string;
    const specs: Spec[] = [
      { method: 'GET', target: '/api/v1/me', headers: k() },
      { method: 'GET', target: '/api/v1/me/', headers: k() },
      { method: 'GET', target: '/api/v1/microblog/drafts', headers: k() },
      { method: 'GET', target: '/api/v1/microblog/drafts?limit=1', headers: k() },
      { method: 'GET', target: '/api/v1/microblog/drafts?limit=nope', headers: k() },
      { method: 'GET', target: `/api/v1/microblog/drafts/${id}`, headers: k() },
      { method: 'GET', target: `/api/v1/microblog/drafts/${id}/`, headers: k() },
      { method: 'GET', target: '/api/v1/microblog/drafts/not-a-draft', headers: k() },
      { method: 'GET', target: '/api/v1/templates', headers: k() },
      { method: 'GET', target: '/api/v1/me' },
      { method: 'GET', target: '/api/v1/me', headers: { 'svc-key': 'sk_live_not_a_real_key_at_all_000000000000' } },
      { method: 'GET', target: '/api/v1/me?svc-key=x', headers: k() },
      { method: 'GET', target: '/api/v1/ME', headers: k() },
      { method: 'GET', target: '/api/v1/no/such/route', headers: k() },
      { method: 'PATCH', target: '/api/v1/me', headers: k() },
      { method: 'POST', target: '/api/v1/social-sets', headers: json(), body: JSON.stringify({ name: 'Both' }) },
      { method: 'POST', target: '/api/v1/social-sets', headers: json(), body: '{"name":' },
      { method: 'POST', target: '/api/v1/social-sets', headers: json(), body: JSON.stringify({ name: 7 }) },
      {
        method: 'POST',
        target: '/api/v1/social-sets',
        headers: { ...k(), 'content-type': 'text/plain' },
        body: 'name=x',
      },
      {
        method: 'POST',
        target: '/api/v1/social-sets',
        headers: { ...json(), origin: 'http://evil.example' },
        body: JSON.stringify({ name: 'x' }),
      },
      {
        method: 'POST',
        target: '/api/v1/microblog/drafts',
        headers: json(),
        body: JSON.stringify({ title: 'x', tweets: [{ content: 'y'.repeat(t.server.config.jsonBodyLimit) }] }),
      },
      {
        method: 'PUT',
        target: `/api/v1/microblog/drafts/${id}`,
        headers: json(),
        body: JSON.stringify({ title: 'Renamed by both', tweets: [{ content: 'three' }] }),
      },
      { method: 'DELETE', target: '/api/v1/templates/not-a-template', headers: k() },
      { method: 'GET', target: '/api/v1/%6De', headers: k() },
      { method: 'HEAD', target: '/api/v1/me', headers: k() },
      { method: 'OPTIONS', target: '/api/v1/me', headers: { ...k(), origin: 'http://evil.example' } },
      { method: 'GET', target: '/api/v1/openapi.json' },
    ];
    const statuses: number[] = [];
    for (const spec of specs) {
      const r = await both(spec);
      expect(r.dispatch, `${spec.method} ${spec.target}`).toEqual(r.express);
      statuses.push(r.dispatch.status);
    }
    // The list covers answers and refusals alike (a broken guard would change these).
    expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 403, 404, 413, 415]));
  });

  it('for idempotent writes: first answer, replay, another body and a bad key (Idempotency-Key)', async () => {
    const json = (idem: string) => ({ 'svc-key': key, 'content-type': 'application/json', 'idempotency-key': idem });
    const send = (port: number, idem: string, body: string) =>
      rawRequest(port, {
        method: 'POST',
        target: '/api/v1/templates',
        body,
        headers: {
          host: `127.0.0.1:${t.server.port}`,
          'content-length': String(Buffer.byteLength(body)),
          ...json(idem),
        },
      });
    const shape = (r: Awaited<ReturnType<typeof send>>) => {
      const { date: _d, 'x-ratelimit-remaining': _n, 'x-ratelimit-reset': _r, ...headers } = r.headers;
      return { status: r.status, headers, body: mask(r.text) };
    };
    const body = JSON.stringify({ name: 'Idempotent both ways' });
    // Each side's first answer under its own key, then each replays the other side's.
    const first = [
      shape(await send(t.server.port, 'dispatch-key', body)),
      shape(await send(refPort, 'express-key', body)),
    ];
    expect(first[0]).toEqual(first[1]);
    expect(first[0].status).toBe(200);
    const replays = [
      shape(await send(t.server.port, 'express-key', body)),
      shape(await send(refPort, 'dispatch-key', body)),
    ];
    expect(replays[0]).toEqual(replays[1]);
    expect(replays[0].headers['idempotent-replayed']).toBe('true');
    const reused = [
      shape(await send(t.server.port, 'express-key', '{"name":"other"}')),
      shape(await send(refPort, 'dispatch-key', '{"name":"other"}')),
    ];
    expect(reused[0]).toEqual(reused[1]);
    expect(reused[0].status).toBe(422);
    const bad = [shape(await send(t.server.port, 'a b', body)), shape(await send(refPort, 'a b', body))];
    expect(bad[0]).toEqual(bad[1]);
    expect(bad[0].status).toBe(400);
    expect(
      (await t.call('GET', '/templates', { key })).body.templates.filter(
        (x: { name: string }) => x.name === 'Idempotent both ways',
      ).length,
    ).toBe(2);
  });

  it('sends the security and rate-limit headers and one JSON body', async () => {
    const { raw } = await both({ method: 'GET', target: '/api/v1/me', headers: { 'svc-key': key } });
    expect(raw.status).toBe(200);
    expect(raw.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(Number(raw.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(Number(raw.headers['content-length'])).toBe(Buffer.byteLength(raw.text));
    expect(JSON.parse(raw.text)).toMatchObject({ success: true, email: 'owner@example.test' });
  });

  it('a foreign Host is refused before any route runs', async () => {
    const r = await rawRequest(t.server.port, {
      target: '/api/v1/me',
      headers: { host: 'evil.example', 'svc-key': key },
    });
    expect(r.status).toBe(403);
  });
});

describe('the route table', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  beforeAll(async () => {
    const app = express();
    app.use((req, res) => {
      seen.push(`express ${req.method} ${req.url}`);
      res.status(299).end();
    });
    const answer =
      (name: string): express.RequestHandler =>
      (req, res) => {
        seen.push(`${name} ${JSON.stringify(req.params)}`);
        res.statusCode = 200;
        res.end();
      };
    const dispatch = createDispatch({
      prefix: '/api/v1',
      app,
      guards: [
        (req, _res, next) => {
          seen.push('guard');
          next();
        },
      ],
      errors: (err, _req, res, _next) => {
        seen.push(`error ${(err as Error).message}`);
        res.statusCode = 500;
        res.end();
      },
      routes: [
        { method: 'get', path: '/things/:id', chain: [answer('one')] },
        { method: 'get', path: '/things/special', chain: [answer('special')] },
        { method: 'post', path: '/things/:id/parts/:part', chain: [answer('part')] },
        { method: 'post', path: '/upload', chain: [answer('upload')], viaExpress: true },
        {
          method: 'get',
          path: '/fails',
          chain: [
            () => {
              throw new Error('thrown');
            },
          ],
        },
        {
          method: 'get',
          path: '/rejects',
          chain: [
            async () => {
              throw new Error('rejected');
            },
          ],
        },
        { method: 'get', path: '/falls-through', chain: [(_req, _res, next) => next()] },
      ],
    });
    server = http.createServer(dispatch);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const hit = async (method: string, target: string) => {
    seen.length = 0;
    await rawRequest(port, { method, target, headers: { host: 'x' } });
    return [...seen];
  };

  it('matches in registration order with parameters, one trailing slash allowed', async () => {
    expect(await hit('GET', '/api/v1/things/abc')).toEqual(['guard', 'one {"id":"abc"}']);
    expect(await hit('GET', '/api/v1/things/special')).toEqual(['guard', 'one {"id":"special"}']);
    expect(await hit('GET', '/api/v1/things/abc/')).toEqual(['guard', 'one {"id":"abc"}']);
    expect(await hit('POST', '/api/v1/things/a.b/parts/c-d?x=1')).toEqual(['guard', 'part {"id":"a.b","part":"c-d"}']);
  });

  it('leaves to Express what it cannot match exactly', async () => {
    for (const [method, target] of [
      ['GET', '/api/v1/things/abc//'],
      ['GET', '/api/v1/things/%61bc'],
      ['HEAD', '/api/v1/things/abc'],
      ['OPTIONS', '/api/v1/things/abc'],
      ['POST', '/api/v1/upload'],
      ['GET', '/api/v1/nothing'],
      ['GET', '/elsewhere'],
      ['GET', '/api/v1/'],
      ['GET', '/api/v1/Things/abc'],
      ['GET', '/api/v1//things/abc'],
    ]) {
      expect(await hit(method, target), `${method} ${target}`).toEqual([`express ${method} ${target}`]);
    }
  });

  it('hands thrown and rejected errors, and a chain that runs out, to the error handler', async () => {
    expect(await hit('GET', '/api/v1/fails')).toEqual(['guard', 'error thrown']);
    expect(await hit('GET', '/api/v1/rejects')).toEqual(['guard', 'error rejected']);
    expect(await hit('GET', '/api/v1/falls-through')).toEqual(['guard', 'error No such endpoint']);
  });
});
