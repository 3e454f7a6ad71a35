/**
 * Credits as the owner's own budget (issue #32): POST /credits/adjust adds or removes credits for
 * owner keys only (another user's key is 403 UNAUTHORIZED), a result below zero is 400
 * INVALID_INPUT with nothing written, and the answer is POST /credits'. A lowered monthly grant
 * takes no more than the balance. The CLI's `herald credits adjust` reaches the same endpoint,
 * and `herald schedule create` prints the warning of a schedule the credits will not cover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, insertDraft, ownerId } from '../helpers/fixtures.js';
import { cliEnv, herald, ok } from '../helpers/cli.js';
import { addUser, startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';

const clock = new TestClock(Date.parse('2026-11-15T12:00:00Z'));
let t: TestServer;
let key: string;
let other: string;
let owner: string;
let home: string;

beforeAll(async () => {
  t = await startServer({
    clock,
    scheduler: false,
    settings: { HERALD_MONTHLY_CREDITS: '100', HERALD_TIME_ZONE: 'UTC' },
  });
  key = await t.login();
  // The owner is the first user: the second is made a moment later on the injected clock.
  clock.advance(1_000);
  other = await addUser(t, 'someone@example.test');
  owner = ownerId(t);
  home = tempDir('herald-cli-home-');
});
afterAll(async () => {
  await t?.close();
});

const adjust = (body: unknown, k = key) => t.call('POST', '/credits/adjust', { key: k, body });
const ledger = (userId = owner) =>
  t.server.sqlite
    .prepare(
      'SELECT trans_type AS type, credits, source_type AS source, source_detail AS detail FROM credit_ledger ' +
        'WHERE user_id = ? ORDER BY id',
    )
    .all(userId) as { type: string; credits: number; source: string | null; detail: string }[];
const cli = (args: string[]) => herald(args, { env: cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base }) });

describe('POST /credits/adjust', () => {
  it('adds and removes credits for the owner, answering like POST /credits', async () => {
    const before = await t.call('POST', '/credits', { key });
    expect(before.body.balance).toBe(100);
    const added = await adjust({ amount: 250, note: 'launch week' });
    expect(added.status, added.text).toBe(200);
    expect(Object.keys(added.body).sort()).toEqual(Object.keys(before.body).sort());
    expect(added.body).toMatchObject({
      success: true,
      balance: 350,
      expiresAt: '2026-12-01T00:00:00.000Z',
      monthlyCredits: 100,
      reserved: 0,
    });
    const removed = await adjust({ amount: -50 });
    expect(removed.body.balance).toBe(300);
    expect(ledger().slice(-2)).toEqual([
      { type: 'adjustment', credits: 250, source: 'owner', detail: 'launch week' },
      { type: 'adjustment', credits: -50, source: 'owner', detail: 'Removed by the owner' },
    ]);
  });

  it("refuses another user's key (403) and a result below zero (400), writing nothing", async () => {
    const rows = ledger().length;
    const notOwner = await adjust({ amount: 1000 }, other);
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.error).toBe('UNAUTHORIZED');
    const otherId = t.server.services.users.byEmail('someone@example.test')!.id;
    expect(ledger(otherId).map((r) => r.type)).not.toContain('adjustment');

    const negative = await adjust({ amount: -301, note: 'too much' });
    expect(negative.status).toBe(400);
    expect(negative.body.error).toBe('INVALID_INPUT');
    expect(negative.body.message).toMatch(/below 0/);
    expect(negative.body.details).toEqual([{ path: 'body.amount', message: 'at least -300' }]);
    for (const bad of [{ amount: 0 }, { amount: 1.5 }, { amount: '5' }, {}])
      expect((await adjust(bad)).status).toBe(400);
    expect(ledger().length).toBe(rows);
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(300);
    // Down to exactly zero is allowed.
    expect((await adjust({ amount: -300 })).body.balance).toBe(0);
    expect((await adjust({ amount: 300 })).body.balance).toBe(300);
  });

  it('a lowered monthly grant applies at once but takes no more than the balance', async () => {
    expect((await t.call('PUT', '/settings', { key, body: { monthlyCredits: 40 } })).status).toBe(200);
    // The 100 granted became 40: 60 less, at once.
    expect((await t.call('POST', '/credits', { key })).body).toMatchObject({ balance: 240, monthlyCredits: 40 });
    expect((await adjust({ amount: -240 })).body.balance).toBe(0);
    const r = await t.call('PUT', '/settings', { key, body: { monthlyCredits: 0 } });
    expect(r.body.restartRequired).toBe(false);
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(0);
    expect(
      ledger()
        .filter((x) => x.source === 'grant_change')
        .map((x) => x.credits),
    ).toEqual([-60]);
    // Back up: the grant's change is counted from what the month was really granted (100 - 60).
    const up = await t.call('PUT', '/settings', { key, body: { monthlyCredits: 100 } });
    expect(up.status, up.text).toBe(200);
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(60);
  });

  it("the month's end expires what is left of the grant as changed; credits above it carry over", async () => {
    await adjust({ amount: 125, note: 'kept' });
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(185);
    clock.set('2026-12-01T00:00:01Z');
    // November's grant as changed (100 - 60 + 60) expires; the 85 above it stay, and December's 100 arrive.
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(85 + 100);
    expect(
      ledger()
        .slice(-2)
        .map((r) => [r.type, r.credits]),
    ).toEqual([
      ['adjustment', -100],
      ['grant', 100],
    ]);
  });
});

describe('the CLI', () => {
  it('herald credits adjust adds, removes with a negative amount, and says why it refuses', async () => {
    const before = (await t.call('POST', '/credits', { key })).body.balance as number;
    const added = JSON.parse(ok(await cli(['credits', 'adjust', '75', '--note', 'from the shell', '-o', 'json'])));
    expect(added).toMatchObject({ success: true, balance: before + 75 });
    expect(ledger().at(-1)).toEqual({ type: 'adjustment', credits: 75, source: 'owner', detail: 'from the shell' });
    const removed = await cli(['credits', 'adjust', '-25']);
    expect(ok(removed)).toMatch(new RegExp(`^balance\\s+${before + 50}$`, 'm'));
    const tooMuch = await cli(['credits', 'adjust', String(-(before + 51))]);
    expect(tooMuch.code).not.toBe(0);
    expect(tooMuch.err).toMatch(/below 0/);
    expect((await t.call('POST', '/credits', { key })).body.balance).toBe(before + 50);
    const notOwner = await herald(['credits', 'adjust', '10'], {
      env: cliEnv(home, { HERALD_API_KEY: other, HERALD_BASE_URL: t.base }),
    });
    expect(notOwner.code).not.toBe(0);
    expect(notOwner.err).toMatch(/owner/);
  });

  it("herald schedule create prints the warning of a schedule the month's credits will not cover", async () => {
    const accounts = ['fedblog', 'skyblog'].map((p) => insertAccount(t, owner, p));
    const balance = (await t.call('POST', '/credits', { key })).body.balance as number;
    // Leaves credits for one post: this schedule asks for two.
    await adjust({ amount: 10 - balance });
    const draftId = insertDraft(t, owner, ['Two networks, credits for one']);
    const at = new Date(clock.now() + 86_400_000).toISOString();
    const r = await cli(['schedule', 'create', draftId, '--at', at, '--accounts', accounts.join(','), '--no-jitter']);
    expect(ok(r)).toMatch(/Scheduled/);
    expect(r.err).toMatch(
      /^Warning: Credits fall short: 2 posts scheduled for this month need 20 credits and 10 are free\./m,
    );
    expect((await t.call('POST', '/credits', { key })).body).toMatchObject({ balance: 10, reserved: 20 });
  });
});
