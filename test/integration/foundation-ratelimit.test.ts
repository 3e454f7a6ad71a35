/**
 * Foundation (issue 2), per-key rate limits with an injected clock over real HTTP:
 * - a free key's 101st request in one hour gets 429 RATE_LIMITED in the envelope, with
 *   Retry-After (seconds to the end of the fixed window) and X-RateLimit-* headers that agree;
 *   the window ends on the hour, not an hour after the first request;
 * - a burst of 1,000 concurrent requests against a free key: exactly 100 succeed, each with a
 *   distinct Remaining; the other 900 are 429 with Retry-After;
 * - limits are per key: another key of the same user is untouched by the first one's window;
 * - HERALD_ENTERPRISE_LIMIT sets the enterprise tier's limit, HERALD_DEFAULT_TIER the tier of sign-in keys.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, TestClock, type Reply, type TestServer } from '../helpers/server.js';

// Mid-window on purpose: 12:17:30.400, so the window ends 42 min 29.6 s later (Retry-After 2550).
const clock = new TestClock(Date.parse('2026-11-15T12:17:30.400Z'));
const WINDOW_END = Date.parse('2026-11-15T13:00:00Z');
let t: TestServer;
let login: string;
beforeAll(async () => {
  t = await startServer({ clock, scheduler: false });
  login = await t.login();
});
afterAll(async () => {
  await t.close();
});

async function freeKey(name: string): Promise<string> {
  const made = await t.call('POST', '/auth/api-keys', { key: login, body: { name, tier: 'free' } });
  expect(made.status).toBe(200);
  expect(made.body.apiKey.tier).toBe('free');
  return made.body.apiKey.key;
}

function expectLimited(r: Reply, retryAfter: number) {
  expect(r.status).toBe(429);
  expect(r.body).toEqual({ success: false, error: 'RATE_LIMITED', message: expect.any(String) });
  expect(r.headers.get('retry-after')).toBe(String(retryAfter));
  expect(r.headers.get('x-ratelimit-limit')).toBe('100');
  expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(r.headers.get('x-ratelimit-reset')).toBe(String(WINDOW_END / 1000));
}

it(
  'free tier: 100 allowed, 101st → 429 with Retry-After to ' + 'the end of the hour; a new window on the hour',
  async () => {
    const free = await freeKey('free one');
    for (let i = 0; i < 100; i++) {
      const r = await t.call('GET', '/me', { key: free });
      expect(r.status, `request ${i + 1}`).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('100');
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(99 - i);
      expect(r.headers.get('x-ratelimit-reset')).toBe(String(WINDOW_END / 1000));
    }
    expectLimited(await t.call('GET', '/me', { key: free }), Math.ceil((WINDOW_END - clock.now()) / 1000));
    // Any route, a write included, is refused the same way and does nothing.
    const write = await t.call('POST', '/templates', { key: free, body: { name: 'over the limit' } });
    expectLimited(write, 2550);
    expect((await t.call('GET', '/templates', { key: login })).body.templates).toEqual([]);

    // Another key of the same user has its own window.
    const other = await t.call('GET', '/me', { key: await freeKey('free two') });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('99');

    // One millisecond before the hour: still limited, Retry-After never below 1.
    clock.set(new Date(WINDOW_END - 1).toISOString());
    expectLimited(await t.call('GET', '/me', { key: free }), 1);
    // On the hour (not an hour after the first request) the next window opens.
    clock.set(new Date(WINDOW_END).toISOString());
    const next = await t.call('GET', '/me', { key: free });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(next.headers.get('x-ratelimit-reset')).toBe(String(WINDOW_END / 1000 + 3600));
  },
);

it('a burst of 1,000 concurrent requests against a free key: exactly 100 succeed, 900 get 429', async () => {
  clock.set('2026-11-15T15:30:00Z');
  const key = await freeKey('burst');
  const replies: Reply[] = [];
  let next = 0;
  // 50 connections' worth of requests in flight at once, 1,000 in all.
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < 1000) {
        next += 1;
        replies.push(await t.call('GET', '/me', { key }));
      }
    }),
  );
  expect(replies).toHaveLength(1000);
  const ok = replies.filter((r) => r.status === 200);
  const limited = replies.filter((r) => r.status === 429);
  console.log(
    `rate-limit burst: 1000 requests against limit 100: ${ok.length} succeeded, ${limited.length} got 429, ` +
      `others ${1000 - ok.length - limited.length}`,
  );
  expect(ok).toHaveLength(100);
  expect(limited).toHaveLength(900);
  // Each success used one slot: Remaining 99…0, each value once.
  expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 100 }, (_, i) => i),
  );
  for (const r of limited) {
    expect(r.headers.get('retry-after')).toBe('1800');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(r.body.error).toBe('RATE_LIMITED');
  }
  for (const r of replies)
    expect(r.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-15T16:00:00Z') / 1000));
});

it('the enterprise limit is a setting; sign-in keys get the default tier, which is a setting too', async () => {
  const s = await startServer({
    clock,
    scheduler: false,
    settings: { HERALD_DEFAULT_TIER: 'enterprise', HERALD_ENTERPRISE_LIMIT: '5' },
  });
  try {
    clock.set('2026-11-15T18:10:00Z');
    const k = await s.login();
    const listed = (await s.call('GET', '/auth/api-keys', { key: k })).body.apiKeys;
    expect(listed.map((x: { tier: string }) => x.tier)).toEqual(['enterprise']);
    // The listing above was the first of five.
    for (let i = 2; i <= 5; i++)
      expect((await s.call('GET', '/me', { key: k })).headers.get('x-ratelimit-remaining')).toBe(String(5 - i));
    const over = await s.call('GET', '/me', { key: k });
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-limit')).toBe('5');
    expect(over.headers.get('retry-after')).toBe('3000');
  } finally {
    await s.close();
  }
});
