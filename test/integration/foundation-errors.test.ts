/**
 * Foundation (issue 2): every error path of the foundation endpoints answers with the decided code
 * and status (docs/decisions.md §1) in the one envelope `{success: false, error, message, details?}`:
 * validation (400 with details), missing and bad keys (401), unknown e-mail (404
 * USER_NOT_FOUND), wrong password (401), unknown resources (404 per resource), unknown routes,
 * malformed JSON, a body over the cap (413), a body that is not JSON (415, and nothing written),
 * and the security headers on every kind of answer. Real HTTP, real SQLite, real migrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, ownerId } from '../helpers/fixtures.js';
import { OWNER, rawRequest, startServer, TestClock, type Reply, type TestServer } from '../helpers/server.js';

const BODY_LIMIT = 4096;
const clock = new TestClock();
let t: TestServer;
let key: string;
let port: number;
beforeAll(async () => {
  t = await startServer({ clock, scheduler: false, settings: { HERALD_JSON_BODY_LIMIT: String(BODY_LIMIT) } });
  key = await t.login();
  port = Number(new URL(t.base).port);
});
afterAll(async () => {
  await t.close();
});

/** The envelope, exactly: no extra fields, details only for INVALID_INPUT. */
function expectError(r: Reply, status: number, code: string, detailPaths?: string[]) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  const { body } = r;
  expect(body.success).toBe(false);
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(Object.keys(body).sort()).toEqual(
    body.details ? ['details', 'error', 'message', 'success'] : ['error', 'message', 'success'],
  );
  if (detailPaths) {
    expect(body.details.map((d: any) => d.path)).toEqual(expect.arrayContaining(detailPaths));
    for (const d of body.details) {
      expect(Object.keys(d).sort()).toEqual(['message', 'path']);
      expect(typeof d.message).toBe('string');
    }
  }
}

describe('sign-in', () => {
  it('400 INVALID_INPUT with details for a missing or mistyped e-mail and password', async () => {
    expectError(await t.call('POST', '/auth/login', { body: {} }), 400, 'INVALID_INPUT', [
      'body.email',
      'body.password',
    ]);
    expectError(
      await t.call('POST', '/auth/login', { body: { email: 5, password: OWNER.password } }),
      400,
      'INVALID_INPUT',
      ['body.email'],
    );
    expectError(
      await t.call('POST', '/auth/login', { body: { email: OWNER.email, password: '' } }),
      400,
      'INVALID_INPUT',
      ['body.password'],
    );
    // No body at all is the same as an empty object.
    expectError(await t.call('POST', '/auth/login'), 400, 'INVALID_INPUT', ['body.email']);
  });

  it('unknown e-mail: 404 USER_NOT_FOUND; wrong password: 401 INVALID_CREDENTIALS; no key issued', async () => {
    expectError(
      await t.call('POST', '/auth/login', { body: { email: 'nobody@example.test', password: 'whatever pass' } }),
      404,
      'USER_NOT_FOUND',
    );
    expectError(
      await t.call('POST', '/auth/login', { body: { email: OWNER.email, password: 'not the password' } }),
      401,
      'INVALID_CREDENTIALS',
    );
    const keys = (await t.call('GET', '/auth/api-keys', { key })).body.apiKeys;
    expect(keys).toHaveLength(1);
  });

  it('malformed JSON and a JSON body that is not an object: 400 INVALID_INPUT', async () => {
    const json = { 'content-type': 'application/json' };
    expectError(await t.call('POST', '/auth/login', { raw: '{"email": "a@b"', headers: json }), 400, 'INVALID_INPUT');
    expectError(await t.call('POST', '/auth/login', { raw: '"just a string"', headers: json }), 400, 'INVALID_INPUT');
    expectError(await t.call('POST', '/auth/login', { raw: '[1,2]', headers: json }), 400, 'INVALID_INPUT');
    // With a charset parameter JSON is still JSON.
    const ok = await t.call('POST', '/auth/login', {
      raw: JSON.stringify(OWNER),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('keys', () => {
  it('401 INVALID_API_KEY for a missing, malformed, unknown or empty key on every keyed route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/me'],
      ['GET', '/auth/api-keys'],
      ['POST', '/auth/api-keys', { name: 'x' }],
      ['DELETE', '/auth/api-keys/x'],
      ['GET', '/social-sets'],
      ['POST', '/social-sets', { name: 'x' }],
      ['PUT', '/social-sets', { id: 'x' }],
      ['DELETE', '/social-sets', { id: 'x' }],
      ['GET', '/accounts'],
      ['GET', '/accounts/x'],
      ['DELETE', '/accounts/x'],
      ['GET', '/templates'],
      ['GET', '/templates/x'],
      ['POST', '/templates', { name: 'x' }],
      ['PUT', '/templates/x', {}],
      ['DELETE', '/templates/x'],
      ['POST', '/credits'],
      ['GET', '/credits/usage'],
    ];
    const unknown = `hk_${'A'.repeat(40)}`;
    for (const [method, p, body] of routes) {
      for (const k of [undefined, '', 'not-a-key', unknown, `${key}x`]) {
        // A flood of bad keys is slowed down on purpose (after 20 a minute); that is not under test here.
        clock.advance(61_000);
        const r = await t.call(method, p, { body, headers: k === undefined ? {} : { 'svc-key': k } });
        expectError(r, 401, 'INVALID_API_KEY');
        // Refused before any rate-limit bookkeeping: no key, no limit headers.
        expect(r.headers.get('x-ratelimit-limit')).toBeNull();
      }
    }
  });

  it('POST /auth/api-keys validates name and tier; DELETE of an unknown key is 404', async () => {
    expectError(await t.call('POST', '/auth/api-keys', { key, body: {} }), 400, 'INVALID_INPUT', ['body.name']);
    expectError(await t.call('POST', '/auth/api-keys', { key, body: { name: '   ' } }), 400, 'INVALID_INPUT', [
      'body.name',
    ]);
    expectError(
      await t.call('POST', '/auth/api-keys', { key, body: { name: 'x'.repeat(101) } }),
      400,
      'INVALID_INPUT',
      ['body.name'],
    );
    expectError(
      await t.call('POST', '/auth/api-keys', { key, body: { name: 'x', tier: 'gold' } }),
      400,
      'INVALID_INPUT',
      ['body.tier'],
    );
    expectError(
      await t.call('DELETE', '/auth/api-keys/00000000-0000-4000-8000-000000000000', { key }),
      404,
      'NOT_FOUND',
    );
    expect((await t.call('GET', '/auth/api-keys', { key })).body.apiKeys.map((k: any) => k.name)).not.toContain('x');
  });
});

describe('resources', () => {
  it('social sets: 400 with details for bad bodies and foreign account ids, 404 for unknown ids', async () => {
    expectError(await t.call('POST', '/social-sets', { key, body: {} }), 400, 'INVALID_INPUT', ['body.name']);
    expectError(
      await t.call('POST', '/social-sets', { key, body: { name: 'x', accountIds: 'a' } }),
      400,
      'INVALID_INPUT',
      ['body.accountIds'],
    );
    expectError(
      await t.call('POST', '/social-sets', { key, body: { name: 'x', accountIds: ['no-such-account'] } }),
      400,
      'INVALID_INPUT',
      ['accountIds'],
    );
    expectError(
      await t.call('POST', '/social-sets', { key, body: { name: 'x', isDefault: 'yes' } }),
      400,
      'INVALID_INPUT',
      ['body.isDefault'],
    );
    expect((await t.call('GET', '/social-sets', { key })).body.socialSets).toEqual([]);
    expectError(await t.call('PUT', '/social-sets', { key, body: { name: 'x' } }), 400, 'INVALID_INPUT', ['body.id']);
    expectError(await t.call('PUT', '/social-sets', { key, body: { id: 'no-such-set', name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', '/social-sets', { key }), 400, 'INVALID_INPUT', ['body.id']);
    expectError(await t.call('DELETE', '/social-sets', { key, body: { id: 'no-such-set' } }), 404, 'NOT_FOUND');
    // An unknown account in PUT changes nothing.
    const acc = insertAccount(t, ownerId(t), 'problog');
    const set = (await t.call('GET', '/social-sets', { key })).body.socialSets[0];
    expectError(
      await t.call('PUT', '/social-sets', { key, body: { id: set.id, name: 'Renamed', accountIds: [acc, 'ghost'] } }),
      400,
      'INVALID_INPUT',
      ['accountIds'],
    );
    expect((await t.call('GET', '/social-sets', { key })).body.socialSets).toEqual([set]);
  });

  it('accounts and templates: 404 NOT_FOUND for unknown ids; templates validate their fields', async () => {
    expectError(await t.call('GET', '/accounts/no-such-account', { key }), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', '/accounts/no-such-account', { key }), 404, 'NOT_FOUND');
    expectError(await t.call('GET', '/templates/no-such-template', { key }), 404, 'NOT_FOUND');
    expectError(await t.call('PUT', '/templates/no-such-template', { key, body: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', '/templates/no-such-template', { key }), 404, 'NOT_FOUND');
    expectError(await t.call('POST', '/templates', { key, body: { description: 'no name' } }), 400, 'INVALID_INPUT', [
      'body.name',
    ]);
    expectError(
      await t.call('POST', '/templates', { key, body: { name: 'x', headContentPlain: 7 } }),
      400,
      'INVALID_INPUT',
      ['body.headContentPlain'],
    );
    expectError(
      await t.call('POST', '/templates', { key, body: { name: 'x', description: 'y'.repeat(2001) } }),
      400,
      'INVALID_INPUT',
      ['body.description'],
    );
    const made = await t.call('POST', '/templates', { key, body: { name: 'ok' } });
    expectError(
      await t.call('PUT', `/templates/${made.body.template.uuid}`, { key, body: { name: '' } }),
      400,
      'INVALID_INPUT',
      ['body.name'],
    );
    expect((await t.call('GET', '/templates', { key })).body.templates.map((x: any) => x.name)).toEqual(['ok']);
  });

  it('credit usage: limit outside 1..100, page below 1, an unknown trans_type or a bad date is 400', async () => {
    for (const [q, field] of [
      ['limit=101', 'query.limit'],
      ['limit=0', 'query.limit'],
      ['limit=ten', 'query.limit'],
      ['limit=2.5', 'query.limit'],
      ['page=0', 'query.page'],
      ['trans_type=gift', 'query.trans_type'],
      ['start_date=yesterday', 'query.start_date'],
      ['end_date=2026-13-45', 'query.end_date'],
    ]) {
      expectError(await t.call('GET', `/credits/usage?${q}`, { key }), 400, 'INVALID_INPUT', [field]);
    }
    expect((await t.call('GET', '/credits/usage?limit=100&page=3', { key })).status).toBe(200);
  });
});

describe('routing and bodies', () => {
  it('unknown paths and methods under /api/v1: 404 NOT_FOUND envelope, with or without a key', async () => {
    expectError(await t.call('GET', '/no-such-route'), 404, 'NOT_FOUND');
    expectError(await t.call('GET', '/no-such-route', { key }), 404, 'NOT_FOUND');
    expectError(await t.call('PATCH', '/me', { key, body: {} }), 404, 'NOT_FOUND');
    expectError(await t.call('GET', '/ME', { key }), 404, 'NOT_FOUND');
    const outside = await fetch(`http://127.0.0.1:${port}/api/v2/me`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });

  it('a body over the cap is 413 INVALID_INPUT, with a length or chunked, before or after auth', async () => {
    const big = JSON.stringify({ email: OWNER.email, password: 'p'.repeat(BODY_LIMIT) });
    expectError(await t.call('POST', '/auth/login', { body: JSON.parse(big) }), 413, 'INVALID_INPUT');
    expectError(
      await t.call('POST', '/templates', { key, body: { name: 'big', headContentPlain: 'x'.repeat(BODY_LIMIT) } }),
      413,
      'INVALID_INPUT',
    );
    const chunked = await rawRequest(port, {
      method: 'POST',
      target: '/api/v1/templates',
      body: JSON.stringify({ name: 'chunked', headContentPlain: 'x'.repeat(BODY_LIMIT) }),
      headers: {
        host: `127.0.0.1:${port}`,
        'svc-key': key,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      },
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.text)).toMatchObject({ success: false, error: 'INVALID_INPUT' });
    // Just under the cap is fine.
    const fits = await t.call('POST', '/templates', {
      key,
      body: { name: 'fits', headContentPlain: 'x'.repeat(BODY_LIMIT - 200) },
    });
    expect(fits.status).toBe(200);
    expect((await t.call('GET', '/templates', { key })).body.templates.map((x: any) => x.name)).not.toContain('big');
  });

  it('a body that is not JSON on a JSON route is 415 INVALID_INPUT and changes nothing', async () => {
    const before = (await t.call('GET', '/templates', { key })).body.templates.length;
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      '',
    ]) {
      const r = await t.call('POST', '/templates', {
        key,
        raw: JSON.stringify({ name: `via ${type}` }),
        headers: type ? { 'content-type': type } : {},
      });
      expectError(r, 415, 'INVALID_INPUT');
    }
    expectError(
      await t.call('POST', '/auth/login', {
        raw: `email=${OWNER.email}&password=x`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'INVALID_INPUT',
    );
    expectError(
      await t.call('DELETE', '/social-sets', { key, raw: '{"id":"x"}', headers: { 'content-type': 'text/plain' } }),
      415,
      'INVALID_INPUT',
    );
    expect((await t.call('GET', '/templates', { key })).body.templates.length).toBe(before);
  });

  it('every kind of answer carries nosniff and no-store, and none names Express', async () => {
    const answers = [
      await t.call('GET', '/me', { key }),
      await t.call('GET', '/me'),
      await t.call('GET', '/no-such-route'),
      await t.call('POST', '/auth/login', { raw: '{', headers: { 'content-type': 'application/json' } }),
      await t.call('POST', '/templates', { key, raw: 'name=x', headers: { 'content-type': 'text/plain' } }),
      await t.call('GET', '/openapi.json'),
      await t.call('GET', '/docs'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 400, 415, 200, 200]);
    // The guards' own refusals too: a foreign Host, a cross-origin write.
    const host = await rawRequest(port, { target: '/api/v1/me', headers: { host: 'evil.example', 'svc-key': key } });
    const origin = await rawRequest(port, {
      method: 'POST',
      target: '/api/v1/templates',
      body: '{"name":"x"}',
      headers: {
        host: `127.0.0.1:${port}`,
        origin: 'http://evil.example',
        'content-type': 'application/json',
        'svc-key': key,
      },
    });
    expect([host.status, origin.status]).toEqual([403, 403]);
    const headers = [
      ...answers.map((r) => ({
        nosniff: r.headers.get('x-content-type-options'),
        cache: r.headers.get('cache-control'),
        powered: r.headers.get('x-powered-by'),
      })),
      ...[host, origin].map((r) => ({
        nosniff: r.headers['x-content-type-options'] ?? null,
        cache: r.headers['cache-control'] ?? null,
        powered: r.headers['x-powered-by'] ?? null,
      })),
    ];
    for (const h of headers) expect(h).toEqual({ nosniff: 'nosniff', cache: 'no-store', powered: null });
  });
});
