/**
 * Foundation (issue 2), keys and sign-in over real HTTP against a real SQLite file:
 * - keys are stored only as their SHA-256: no file in the data folder (database, WAL, shared
 *   memory) holds a full key in any common encoding, and the stored hash is the key's SHA-256;
 *   the password only as a salted scrypt hash;
 * - `lastUsed` is written at most once a minute per key (injected clock; the database connection
 *   records no change for requests inside the minute), across a restart too;
 * - failed sign-ins are throttled per e-mail: over the limit refused (429, Retry-After), the
 *   correct password included, and forgotten after a success;
 * - a flood of bad keys (more than 20 a minute) is answered ever more slowly, good keys never.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OWNER, startServer, TestClock, type TestServer } from '../helpers/server.js';
import { ownerId } from '../helpers/fixtures.js';

const clock = new TestClock();
let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startServer({ clock, scheduler: false });
  key = await t.login();
});
afterAll(async () => {
  await t.close();
});

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

describe('keys are stored only as SHA-256', () => {
  it('no file of the data folder holds a full key; the row holds its SHA-256 and a 7+4 preview', async () => {
    const made = await t.call('POST', '/auth/api-keys', { key, body: { name: 'second' } });
    const second: string = made.body.apiKey.key;
    // Use both so every write that could carry them (lastUsed, status) has happened.
    expect((await t.call('GET', '/me', { key })).status).toBe(200);
    expect((await t.call('GET', '/me', { key: second })).status).toBe(200);

    const files = filesUnder(t.dataDir);
    expect(files.some((f) => f.endsWith('herald.db'))).toBe(true);
    expect(files.some((f) => f.endsWith('herald.db-wal'))).toBe(true);
    for (const k of [key, second]) {
      const secret = k.slice(3);
      const needles = [k, secret, Buffer.from(k).toString('base64'), Buffer.from(k).toString('hex')]
        .map((n) => Buffer.from(n))
        .concat(Buffer.from(k, 'utf16le'));
      for (const f of files) {
        const bytes = fs.readFileSync(f);
        for (const n of needles) expect(bytes.includes(n), `${path.basename(f)} holds the key`).toBe(false);
        // The middle of the key (what a preview never shows) is nowhere either.
        expect(bytes.includes(Buffer.from(secret.slice(4, 36)))).toBe(false);
      }
      const row = t.server.sqlite.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(sha256(k)) as Record<
        string,
        unknown
      >;
      expect(row, 'row found by the SHA-256 of the key').toBeTruthy();
      expect(row.preview).toBe(`${k.slice(0, 7)}…${k.slice(-4)}`);
      expect(Object.values(row).filter((v) => typeof v === 'string' && v.includes(secret.slice(4, 36)))).toEqual([]);
    }
    // The same checks would catch a key that was stored: its hash is in the file, as hex text.
    const db = fs.readFileSync(path.join(t.dataDir, 'herald.db'));
    const wal = fs.readFileSync(path.join(t.dataDir, 'herald.db-wal'));
    expect(db.includes(Buffer.from(sha256(second))) || wal.includes(Buffer.from(sha256(second)))).toBe(true);
  });
});

describe('passwords are stored only as scrypt hashes', () => {
  it("the owner's row holds a salted scrypt hash that node:crypto reproduces; the password is in no file", () => {
    const { hash } = t.server.sqlite
      .prepare('SELECT password_hash AS hash FROM users WHERE id = ?')
      .get(ownerId(t)) as { hash: string };
    const [kind, n, r, p, salt, digest] = hash.split('$');
    expect(kind).toBe('scrypt');
    expect(Number(n)).toBeGreaterThanOrEqual(16384);
    expect(Buffer.from(salt, 'base64').length).toBeGreaterThanOrEqual(16);
    const again = crypto.scryptSync(OWNER.password, Buffer.from(salt, 'base64'), Buffer.from(digest, 'base64').length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    expect(again.toString('base64')).toBe(digest);
    for (const f of filesUnder(t.dataDir))
      expect(fs.readFileSync(f).includes(Buffer.from(OWNER.password)), path.basename(f)).toBe(false);
  });
});

describe('lastUsed is written at most once a minute', () => {
  const changes = () => (t.server.sqlite.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  const lastUsedInDb = (id: string) =>
    t.server.sqlite.prepare('SELECT last_used AS l, status AS s FROM api_keys WHERE id = ?').get(id) as {
      l: string | null;
      s: string;
    };
  const listed = async (id: string) =>
    (await t.call('GET', '/auth/api-keys', { key })).body.apiKeys.find((k: any) => k.id === id);

  it('first use: created → active with lastUsed; then no write until a minute has passed', async () => {
    const made = (await t.call('POST', '/auth/api-keys', { key, body: { name: 'clocked' } })).body.apiKey;
    expect(lastUsedInDb(made.id)).toEqual({ l: null, s: 'created' });
    expect(await listed(made.id)).toMatchObject({ status: 'created', lastUsed: null });

    clock.advance(5_000);
    const first = clock.now();
    expect((await t.call('GET', '/me', { key: made.key })).status).toBe(200);
    expect(lastUsedInDb(made.id)).toEqual({ l: new Date(first).toISOString(), s: 'active' });

    // 40 requests spread over 59.9 s: not one write to the database.
    const before = changes();
    for (let i = 0; i < 40; i++) {
      clock.advance(i === 39 ? 59_900 - 39 * 1_000 : 1_000);
      expect((await t.call('GET', '/me', { key: made.key })).status).toBe(200);
    }
    expect(clock.now() - first).toBe(59_900);
    expect(changes()).toBe(before);
    expect(lastUsedInDb(made.id).l).toBe(new Date(first).toISOString());
    expect((await listed(made.id)).lastUsed).toBe(new Date(first).toISOString());

    // A minute after the last write: one write, with the time of that request.
    clock.advance(100);
    const beforeWrite = changes();
    expect((await t.call('GET', '/templates', { key: made.key })).status).toBe(200);
    expect(changes()).toBe(beforeWrite + 1);
    expect(lastUsedInDb(made.id).l).toBe(new Date(first + 60_000).toISOString());
    // The other key's requests (the listings above) did not touch this one's lastUsed.
    expect((await listed(made.id)).lastUsed).toBe(new Date(first + 60_000).toISOString());
  });

  it('after a restart on the same data folder the minute is judged from the stored lastUsed', async () => {
    const made = (await t.call('POST', '/auth/api-keys', { key, body: { name: 'restart' } })).body.apiKey;
    expect((await t.call('GET', '/me', { key: made.key })).status).toBe(200);
    const stored = lastUsedInDb(made.id).l;
    const dataDir = t.dataDir;
    await t.server.close();
    t = await startServer({ clock, scheduler: false, dataDir });
    clock.advance(30_000);
    const before = changes();
    expect((await t.call('GET', '/me', { key: made.key })).status).toBe(200);
    expect(changes()).toBe(before);
    expect(lastUsedInDb(made.id).l).toBe(stored);
    clock.advance(30_000);
    expect((await t.call('GET', '/me', { key: made.key })).status).toBe(200);
    expect(lastUsedInDb(made.id).l).toBe(new Date(clock.now()).toISOString());
  });
});

// docs/decisions.md §2 replaced the growing wait with a refusal: over the limit, 429 RATE_LIMITED with
// Retry-After (the attempt is counted before the hash, so parallel guesses meet the same count;
// test/security/sessions-keys.exploit.test.ts sends them in parallel).
describe('failed sign-ins are throttled per e-mail', () => {
  const attempt = async (email: string, password: string) => {
    const r = await t.call('POST', '/auth/login', { body: { email, password } });
    return {
      status: r.status,
      error: r.body?.error as string | undefined,
      retryAfter: Number(r.headers.get('retry-after') ?? 0),
    };
  };
  // Every record is forgotten after an hour quiet: each test starts with none.
  beforeEach(() => clock.advance(2 * 60 * 60_000));

  it(
    'after 5 failures the next attempt is refused with Retry-After, the right password too, until the wait is ' +
      'over',
    async () => {
      for (let i = 0; i < 5; i++)
        expect((await attempt(OWNER.email, 'wrong password')).error).toBe('INVALID_CREDENTIALS');
      const sixth = await attempt(OWNER.email, 'wrong password');
      expect([sixth.status, sixth.error]).toEqual([429, 'RATE_LIMITED']);
      expect(sixth.retryAfter).toBe(1);
      // The right password is not let in during the wait either.
      expect((await attempt(OWNER.email, OWNER.password)).error).toBe('RATE_LIMITED');
      clock.advance(1000);
      expect((await attempt(OWNER.email, OWNER.password)).status).toBe(200);
      // A success forgets the failures: the next five are checked again.
      for (let i = 0; i < 5; i++)
        expect((await attempt(OWNER.email, 'wrong password')).error).toBe('INVALID_CREDENTIALS');
      // Each further failure doubles the wait.
      expect((await attempt(OWNER.email, 'wrong password')).retryAfter).toBe(1);
      clock.advance(1000);
      expect((await attempt(OWNER.email, 'wrong password')).error).toBe('INVALID_CREDENTIALS');
      expect((await attempt(OWNER.email, 'wrong password')).retryAfter).toBe(2);
    },
  );

  it('unknown e-mails are throttled the same way (no other answer tells them apart)', async () => {
    const ghost = 'ghost@example.test';
    for (let i = 0; i < 5; i++) expect((await attempt(ghost, 'whatever pass')).error).toBe('USER_NOT_FOUND');
    const sixth = await attempt(` ${ghost.toUpperCase()}`, 'whatever pass');
    expect([sixth.status, sixth.error, sixth.retryAfter]).toEqual([429, 'RATE_LIMITED', 1]);
  });

  it('the throttle is per e-mail and forgets failures after an hour quiet', async () => {
    const user = 'throttled@example.test';
    await t.server.services.users.create({ email: user, password: 'their password' });
    for (let i = 0; i < 6; i++) await attempt(user, 'wrong password');
    expect((await attempt(user, 'their password')).error).toBe('RATE_LIMITED');
    // Meanwhile the owner, another e-mail, signs in without inheriting the wait.
    expect((await attempt(OWNER.email, OWNER.password)).status).toBe(200);
    clock.advance(61 * 60_000);
    expect((await attempt(user, 'their password')).status).toBe(200);
  });
});

describe('a flood of bad keys is slowed down', () => {
  const timed = async (k: string) => {
    const started = performance.now();
    const r = await t.call('GET', '/me', { key: k });
    return { status: r.status, error: r.body?.error as string | undefined, ms: performance.now() - started };
  };

  it(
    'after 20 bad keys in a minute each answer waits longer; ' + 'good keys are not slowed; a quiet minute forgets',
    async () => {
      clock.advance(5 * 60_000);
      const bad = (i: number) => `hk_${String(i).padStart(40, 'Z')}`;
      let first20 = 0;
      for (let i = 0; i < 20; i++) {
        const a = await timed(bad(i));
        expect(a).toMatchObject({ status: 401, error: 'INVALID_API_KEY' });
        first20 += a.ms;
      }
      // Unthrottled, twenty answers take a few ms each.
      expect(first20).toBeLessThan(1000);
      const waits: number[] = [];
      for (let i = 20; i < 24; i++) {
        const a = await timed(bad(i));
        expect(a).toMatchObject({ status: 401, error: 'INVALID_API_KEY' });
        waits.push(a.ms);
      }
      // 50, 100, 200, 400 ms: each at least its delay.
      for (const [i, min] of [50, 100, 200, 400].entries())
        expect(waits[i], `bad key ${21 + i}`).toBeGreaterThanOrEqual(min);
      // A good key in the middle of the flood is answered at once (the next bad one would wait 800 ms).
      const good = await timed(key);
      expect(good.status).toBe(200);
      expect(good.ms).toBeLessThan(400);
      // A minute without bad keys: the next one is fast again.
      clock.advance(61_000);
      const later = await timed(bad(99));
      expect(later.status).toBe(401);
      expect(later.ms).toBeLessThan(400);
    },
  );
});
