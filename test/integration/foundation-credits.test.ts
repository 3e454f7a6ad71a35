/**
 * Foundation (issue 2), credits over real HTTP and a real SQLite ledger with an injected clock:
 * the monthly grant (setting HERALD_MONTHLY_CREDITS) is written once per month in the user's
 * time zone (the setting timeZone: each user below is looked at with it set to theirs), `expiresAt` is the end of that
 * month there (daylight saving included), what is left of it expires into an `adjustment` when the next month begins,
 * the balance is always the sum of the ledger, and GET /credits/usage pages newest first and filters by type and date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

const GRANT = 500;
const clock = new TestClock(Date.parse('2026-11-15T12:00:00Z'));
let t: TestServer;
const users: Record<string, { id: string; key: string; zone: string }> = {};

async function makeUser(name: string, timezone: string) {
  const email = `${name}@example.test`;
  const row = await t.server.services.users.create({ email, password: `${name} password`, timezone });
  users[name] = { id: row.id, key: await t.login(email, `${name} password`), zone: timezone };
}
/** The user's zone is the install's setting: set it to this user's before looking at their credits. */
const inZoneOf = (name: string) => {
  t.server.deps.config.timeZone = users[name].zone;
};

const credits = async (name: string) => {
  inZoneOf(name);
  const r = await t.call('POST', '/credits', { key: users[name].key });
  expect(r.status).toBe(200);
  // The answer also carries the schedule outlook (scheduled, covers, warning; issue #19): these
  // tests are about the grant, so they compare the spec's fields.
  const { success, balance, expiresAt } = r.body as { success: true; balance: number; expiresAt: string };
  expect(r.body).toMatchObject({
    scheduled: { posts: expect.any(Number), credits: expect.any(Number) },
    covers: expect.any(Number),
  });
  return { success, balance, expiresAt };
};
const usage = async (name: string, query = '') => {
  inZoneOf(name);
  const r = await t.call('GET', `/credits/usage${query ? `?${query}` : ''}`, { key: users[name].key });
  expect(r.status, r.text).toBe(200);
  return r.body as { records: any[]; pagination: { total: number; page: number; limit: number; hasMore: boolean } };
};
/** Every record, by walking the pages. */
async function allRecords(name: string, query = '') {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const u = await usage(name, `limit=100&page=${page}${query ? `&${query}` : ''}`);
    out.push(...u.records);
    if (!u.pagination.hasMore) return out;
  }
}
async function expectBalanceIsLedgerSum(name: string) {
  const sum = (await allRecords(name)).reduce((s, r) => s + r.credits, 0);
  expect((await credits(name)).balance).toBe(sum);
  inZoneOf(name);
  expect((await t.call('GET', '/me', { key: users[name].key })).body.credits_balance).toBe(sum);
}

beforeAll(async () => {
  t = await startServer({ clock, scheduler: false, owner: false, settings: { HERALD_MONTHLY_CREDITS: String(GRANT) } });
  await makeUser('ny', 'America/New_York');
  await makeUser('tokyo', 'Asia/Tokyo');
  await makeUser('utc', 'UTC');
});
afterAll(async () => {
  await t.close();
});

describe('monthly grant', () => {
  it("grants the configured amount, expiring at the end of the month in the user's time zone", async () => {
    expect(await credits('ny')).toEqual({ success: true, balance: GRANT, expiresAt: '2026-12-01T05:00:00.000Z' });
    expect(await credits('tokyo')).toEqual({ success: true, balance: GRANT, expiresAt: '2026-11-30T15:00:00.000Z' });
    expect(await credits('utc')).toEqual({ success: true, balance: GRANT, expiresAt: '2026-12-01T00:00:00.000Z' });
    const [grant] = (await usage('ny')).records;
    expect(grant).toMatchObject({
      trans_type: 'grant',
      credits: GRANT,
      expired_at: '2026-12-01T05:00:00.000Z',
      created_at: new Date(clock.now()).toISOString(),
    });
  });

  it('is written once a month however often credits are looked at', async () => {
    clock.advance(86_400_000);
    for (let i = 0; i < 3; i++) await credits('ny');
    await t.call('GET', '/me', { key: users.ny.key });
    await usage('ny');
    const u = await usage('ny');
    expect(u.pagination.total).toBe(1);
    expect(u.records.map((r) => r.trans_type)).toEqual(['grant']);
  });

  it("when the user's month ends, the unused rest expires as an adjustment and a new grant arrives", async () => {
    // Tokyo spends 30 credits (three publishes) and gets 10 back.
    inZoneOf('tokyo');
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      t.server.services.credits.charge(users.tokyo.id, 10, {
        orderNo: `job-${i}`,
        sourceType: 'skyblog',
        sourceDetail: 'publish',
      });
    }
    clock.advance(1_000);
    t.server.services.credits.refund(users.tokyo.id, 10, {
      orderNo: 'job-2',
      sourceType: 'skyblog',
      sourceDetail: 'failed',
    });
    expect((await credits('tokyo')).balance).toBe(GRANT - 20);
    const novemberRows = await allRecords('tokyo');
    expect(novemberRows.map((r) => r.trans_type)).toEqual(['refund', 'publish', 'publish', 'publish', 'grant']);

    // 16:00 UTC on 30 November is 01:00 on 1 December in Tokyo, still November in New York.
    clock.set('2026-11-30T16:00:00Z');
    expect(await credits('tokyo')).toEqual({ success: true, balance: GRANT, expiresAt: '2026-12-31T15:00:00.000Z' });
    expect(await credits('ny')).toEqual({ success: true, balance: GRANT, expiresAt: '2026-12-01T05:00:00.000Z' });
    const [grant, expiry, refund] = (await usage('tokyo')).records;
    expect(grant).toMatchObject({ trans_type: 'grant', credits: GRANT, expired_at: '2026-12-31T15:00:00.000Z' });
    expect(expiry).toMatchObject({ trans_type: 'adjustment', credits: -(GRANT - 20) });
    expect(expiry.source_detail).toMatch(/expired/i);
    expect(refund).toMatchObject({ trans_type: 'refund', credits: 10, order_no: 'job-2', source_type: 'skyblog' });
    // Append-only: the month's end added rows and changed none of the earlier ones.
    expect((await allRecords('tokyo')).slice(2)).toEqual(novemberRows);
    await expectBalanceIsLedgerSum('tokyo');
    await expectBalanceIsLedgerSum('ny');

    // A month with nothing spent: the whole grant expires, no more.
    clock.set('2026-12-01T05:00:00Z');
    expect(await credits('ny')).toEqual({ success: true, balance: GRANT, expiresAt: '2027-01-01T05:00:00.000Z' });
    expect((await usage('ny', 'trans_type=adjustment')).records.map((r) => r.credits)).toEqual([-GRANT]);
    await expectBalanceIsLedgerSum('ny');
  });

  it('expiresAt follows daylight saving time: the end of March in New York is 04:00 UTC', async () => {
    clock.set('2027-03-05T12:00:00Z');
    expect((await credits('ny')).expiresAt).toBe('2027-04-01T04:00:00.000Z');
    clock.set('2027-11-10T12:00:00Z');
    expect((await credits('ny')).expiresAt).toBe('2027-12-01T05:00:00.000Z');
    // Months skipped while the app was closed grant nothing in between: one grant per month looked at.
    const grants = (await allRecords('ny', 'trans_type=grant')).map((r) => r.expired_at);
    expect(grants).toEqual([
      '2027-12-01T05:00:00.000Z',
      '2027-04-01T04:00:00.000Z',
      '2027-01-01T05:00:00.000Z',
      '2026-12-01T05:00:00.000Z',
    ]);
    await expectBalanceIsLedgerSum('ny');
  });
});

describe('GET /credits/usage', () => {
  const ids: number[] = [];
  beforeAll(async () => {
    clock.set('2027-11-20T00:00:00Z');
    await makeUser('pager', 'UTC');
    await credits('pager');
    // 44 more records, one a minute, of every type: 2027-11-20 00:01 ... 00:44.
    for (let i = 1; i <= 44; i++) {
      clock.set(new Date(Date.parse('2027-11-20T00:00:00Z') + i * 60_000).toISOString());
      if (i % 11 === 0) t.server.services.credits.adjust(users.pager.id, 5, `goodwill ${i}`);
      else if (i % 4 === 0) t.server.services.credits.refund(users.pager.id, 1, { orderNo: `o${i - 1}` });
      else
        t.server.services.credits.charge(users.pager.id, 1, {
          orderNo: `o${i}`,
          sourceType: 'microblog',
          sourceDetail: `post ${i}`,
        });
    }
    // The next day, one more.
    clock.set('2027-11-21T09:00:00Z');
    t.server.services.credits.charge(users.pager.id, 1, { orderNo: 'late', sourceType: 'fedblog' });
  });

  it('pages newest first with page/limit and hasMore; defaults page 1, limit 20', async () => {
    const d = await usage('pager');
    expect(d.pagination).toEqual({ total: 46, page: 1, limit: 20, hasMore: true });
    const pages = [
      await usage('pager', 'limit=20&page=1'),
      await usage('pager', 'limit=20&page=2'),
      await usage('pager', 'limit=20&page=3'),
      await usage('pager', 'limit=20&page=4'),
    ];
    expect(pages.map((p) => p.records.length)).toEqual([20, 20, 6, 0]);
    expect(pages.map((p) => p.pagination.hasMore)).toEqual([true, true, false, false]);
    expect(pages[0].records).toEqual(d.records);
    const all = pages.flatMap((p) => p.records);
    for (const r of all) ids.push(r.id);
    expect(new Set(ids).size).toBe(46);
    const times = all.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all[0]).toMatchObject({ order_no: 'late', source_type: 'fedblog', credits: -1, trans_type: 'publish' });
    expect(all[45]).toMatchObject({ trans_type: 'grant', credits: GRANT });
    const limited = await usage('pager', 'limit=7&page=2');
    expect(limited.records.map((r) => r.id)).toEqual(ids.slice(7, 14));
    expect(limited.pagination).toEqual({ total: 46, page: 2, limit: 7, hasMore: true });
    expect((await usage('pager', 'limit=100')).records.map((r) => r.id)).toEqual(ids);
  });

  it('filters by trans_type and by start_date/end_date (a bare end date includes that whole day)', async () => {
    const byType = async (type: string) => (await allRecords('pager', `trans_type=${type}`)).map((r) => r.trans_type);
    expect(await byType('grant')).toEqual(['grant']);
    expect(await byType('adjustment')).toEqual(['adjustment', 'adjustment', 'adjustment', 'adjustment']);
    expect((await byType('refund')).length).toBe(10);
    expect((await byType('publish')).length).toBe(31);
    expect((await usage('pager', 'trans_type=publish&limit=5')).pagination).toEqual({
      total: 31,
      page: 1,
      limit: 5,
      hasMore: true,
    });

    expect((await allRecords('pager', 'start_date=2027-11-21')).map((r) => r.order_no)).toEqual(['late']);
    expect((await allRecords('pager', 'end_date=2027-11-20')).length).toBe(45);
    const window = await allRecords('pager', 'start_date=2027-11-20T00:10:00Z&end_date=2027-11-20T00:19:00Z');
    expect(window.map((r) => r.created_at)).toEqual(
      Array.from({ length: 10 }, (_, i) => `2027-11-20T00:${String(19 - i).padStart(2, '0')}:00.000Z`),
    );
    const combined = await usage('pager', 'trans_type=adjustment&start_date=2027-11-20T00:20:00Z&end_date=2027-11-20');
    expect(combined.records.map((r) => r.source_detail)).toEqual(['goodwill 44', 'goodwill 33', 'goodwill 22']);
    expect(combined.pagination.total).toBe(3);
    await expectBalanceIsLedgerSum('pager');
  });

  it('shows each user only their own ledger', async () => {
    const tokyo = await allRecords('tokyo');
    expect(tokyo.some((r) => ids.includes(r.id))).toBe(false);
  });
});

describe('the ledger is append-only in the database itself', () => {
  it("refuses to change or delete a row, and keeps the balance; a user's rows go only with the user", async () => {
    await makeUser('gone', 'UTC');
    await credits('gone');
    const db = t.server.sqlite;
    const [row] = db.prepare('SELECT id FROM credit_ledger WHERE user_id = ?').all(users.gone.id) as { id: number }[];
    const before = (await credits('utc')).balance;
    const utcRow = (
      db.prepare('SELECT id FROM credit_ledger WHERE user_id = ? LIMIT 1').get(users.utc.id) as { id: number }
    ).id;
    expect(() => db.prepare('UPDATE credit_ledger SET credits = credits + 1000 WHERE id = ?').run(utcRow)).toThrow(
      /append-only/,
    );
    expect(() => db.prepare('DELETE FROM credit_ledger WHERE id = ?').run(utcRow)).toThrow(/append-only/);
    expect((await credits('utc')).balance).toBe(before);
    await expectBalanceIsLedgerSum('utc');
    // Deleting the user takes its ledger with it (ON DELETE CASCADE).
    db.prepare('DELETE FROM users WHERE id = ?').run(users.gone.id);
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM credit_ledger WHERE id = ? OR user_id = ?').get(row.id, users.gone.id),
    ).toEqual({ n: 0 });
  });
});
