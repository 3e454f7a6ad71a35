/** Foundation (issue 2): a free key's 101st request in one hour gets 429 with Retry-After; the window resets an hour later. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

const clock = new TestClock();
let t: TestServer;
beforeAll(async () => { t = await startServer({ clock }); });
afterAll(async () => { await t.close(); });

it('free tier: 100 allowed, 101st → 429, reset after an hour', async () => {
  const login = await t.login();
  const made = await t.call('POST', '/auth/api-keys', { key: login, body: { name: 'free one', tier: 'free' } });
  expect(made.status).toBe(200);
  const free: string = made.body.apiKey?.key ?? made.body.key;
  for (let i = 0; i < 100; i++) {
    const r = await t.call('GET', '/me', { key: free });
    expect(r.status, `request ${i + 1}`).toBe(200);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(99 - i);
  }
  const over = await t.call('GET', '/me', { key: free });
  expect(over.status).toBe(429);
  expect(over.text).toContain('RATE_LIMITED');
  expect(over.headers.get('retry-after')).toBeTruthy();
  clock.advance(3_600_000);
  expect((await t.call('GET', '/me', { key: free })).status).toBe(200);
});
