/**
 * The credits service remembers which month's grant each user has, so GET /me reads no more than
 * the balance. A grant written inside a caller's transaction that then rolls back must not be
 * remembered: the next read writes it again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { userIdOf } from '../helpers/drafts.js';
import { OWNER, TestClock, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
let owner: string;
const clock = new TestClock();

beforeAll(async () => {
  clock.set('2026-11-15T12:00:00Z');
  t = await startServer({ scheduler: false, clock, settings: { HERALD_MONTHLY_CREDITS: '500' } });
  key = await t.login();
  owner = userIdOf(t, OWNER.email);
});
afterAll(async () => {
  await t.close();
});

const grants = () =>
  (
    t.server.sqlite
      .prepare("SELECT period FROM credit_ledger WHERE user_id = ? AND trans_type = 'grant' ORDER BY id")
      .all(owner) as { period: string }[]
  ).map((r) => r.period);

it('a grant rolled back with its caller is written again on the next read', async () => {
  expect((await t.call('GET', '/me', { key })).body.credits_balance).toBe(500);
  expect(grants()).toEqual(['2026-11']);

  clock.set('2026-12-02T12:00:00Z');
  const rollback = t.server.sqlite.transaction(() => {
    t.server.services.credits.ensureGrant(owner);
    expect(grants()).toEqual(['2026-11', '2026-12']);
    throw new Error('the caller gives up');
  });
  expect(() => rollback()).toThrow('the caller gives up');
  expect(grants()).toEqual(['2026-11']);

  const me = await t.call('GET', '/me', { key });
  expect(me.status).toBe(200);
  expect(grants()).toEqual(['2026-11', '2026-12']);
  expect(me.body.credits_balance).toBe(500); // November's remainder expired, December's 500 granted
  expect((await t.call('GET', '/me', { key })).body.credits_balance).toBe(500);
  expect(grants()).toEqual(['2026-11', '2026-12']);
});
