/** Foundation (issue 2): sign-in, keys, /me, guards and errors over real HTTP + real SQLite. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, rawRequest, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startServer();
  key = await t.login();
});
afterAll(async () => {
  await t.close();
});

describe('foundation core', () => {
  it('login issues a working key; /me answers', async () => {
    const r = await t.call('GET', '/me', { key });
    expect(r.status).toBe(200);
  });
  it('unknown key → 401 INVALID_API_KEY; missing key → 401', async () => {
    const a = await t.call('GET', '/me', { key: 'hk_nope' });
    const b = await t.call('GET', '/me');
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.text).toContain('INVALID_API_KEY');
  });
  it('wrong password → 401 INVALID_CREDENTIALS', async () => {
    const r = await t.call('POST', '/auth/login', { body: { email: 'owner@example.test', password: 'wrong wrong' } });
    expect(r.status).toBe(401);
    expect(r.text).toContain('INVALID_CREDENTIALS');
  });
  it('unknown route → 404 envelope; malformed JSON → 400', async () => {
    const a = await t.call('GET', '/no-such-route', { key });
    expect(a.status).toBe(404);
    expect(a.body).toBeTypeOf('object');
    const b = await t.call('POST', '/auth/login', { raw: '{bad', headers: { 'content-type': 'application/json' } });
    expect(b.status).toBe(400);
  });
  it('foreign Host → 403 before authentication', async () => {
    const port = new URL(t.base).port;
    for (const host of ['evil.example', '127.0.0.1.nip.io', '', `127.0.0.2:${port}`]) {
      const r = await rawRequest(Number(port), { target: '/api/v1/me', headers: { host, 'svc-key': key } });
      expect(r.status, host).toBe(403);
    }
  });
  it("second user cannot see the first user's keys", async () => {
    const other = await addUser(t, 'second@example.test');
    const mine = await t.call('GET', '/auth/api-keys', { key });
    expect(mine.status).toBe(200);
    const list = JSON.stringify(mine.body);
    const theirs = await t.call('GET', '/auth/api-keys', { key: other });
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toBe(list);
  });
});
