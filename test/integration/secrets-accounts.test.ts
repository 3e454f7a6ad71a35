/**
 * Account secrets end to end, with Herald on the real OS keychain (gnome-keyring under `npm test`)
 * and a real Bluesky PDS: the tokens of a connected account live in the keychain and nowhere
 * else (canary sweep of every file in the data folder and of the logs, after connecting,
 * publishing and a token refresh), and DELETE /accounts/:id removes them from the keychain and
 * the account from every social set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accounts } from '../../server/db/schema.js';
import { keychainService } from '../../server/secrets/index.js';
import { loadKeytar } from '../../server/secrets/keychain.store.js';
import { accountSecretName } from '../../server/secrets/secret-store.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startPds, type PdsAccount, type PdsPeer } from '../peers/pds.js';
import { makePng } from '../peers/png.js';

let pds: PdsPeer;
let t: TestServer;
let key: string;
const logs: string[] = [];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

/** Every file in the data folder (db, -wal, -shm, media, config...) that contains `needle`. */
function hits(needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return filesUnder(t.dataDir).filter((f) => fs.readFileSync(f).includes(bytes));
}

async function keychainEntry(accountId: string) {
  const keytar = await loadKeytar();
  return keytar.getPassword(keychainService(t.dataDir), accountSecretName(accountId));
}

async function connect(account: PdsAccount) {
  const r = await t.call('POST', '/skyblog/auth', {
    key,
    body: { identifier: account.handle, appPassword: account.appPassword, service: pds.url },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.account.uuid as string;
}

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
    });
  }
  pds = await startPds();
  // Logging on, so the sweep also covers what Herald writes to its log.
  t = await startServer({ settings: { HERALD_SECRET_STORE: 'keychain', HERALD_LOG_LEVEL: 'info' } });
  key = await t.login();
});

afterAll(async () => {
  await t?.close();
  await pds?.close();
  vi.restoreAllMocks();
});

describe('Herald on the OS keychain', () => {
  it('uses the keychain store', () => {
    expect(t.server.deps.secrets.kind).toBe('keychain');
  });

  it(
    'canary: after connecting, publishing and a refresh, no token or app password is anywhere in the data ' +
      'folder or logs',
    async () => {
      const frank = await pds.createAccount('frank');
      const id = await connect(frank);
      const row = () => t.server.db.select().from(accounts).where(eq(accounts.id, id)).get()!;
      const stored = () => t.server.deps.secrets.get(accountSecretName(id));
      const first = JSON.parse((await stored())!);
      expect(first.extra.appPassword).toBe(frank.appPassword);

      // Publish with an image (media goes through the data folder) and force a token rotation.
      const png = makePng(16, 16);
      const file = path.join(t.dataDir, 'canary.png');
      fs.writeFileSync(file, png);
      await t.server.services.credentials.withCredentials(row(), (ctx) =>
        t.server.deps.platforms.get('skyblog').publishPost(ctx, {
          text: 'Canary post',
          media: [{ path: file, mime: 'image/png', size: png.length, kind: 'image', altText: 'canary' }],
          options: {},
          idempotencyKey: 'c1',
        }),
      );
      await t.server.services.credentials.save(id, { ...first, accessToken: pds.expired(first.accessToken) });
      const before = t.server.services.credentials.refreshCalls;
      await t.server.services.credentials.withCredentials(row(), (ctx) =>
        t.server.deps.platforms
          .get('skyblog')
          .publishPost(ctx, { text: 'Canary after refresh', media: [], options: {}, idempotencyKey: 'c2' }),
      );
      expect(t.server.services.credentials.refreshCalls - before).toBe(1);
      const second = JSON.parse((await stored())!);
      expect(second.refreshToken).not.toBe(first.refreshToken);

      const canaries = {
        appPassword: frank.appPassword,
        accessJwt: first.accessToken,
        refreshJwt: first.refreshToken,
        rotatedAccessJwt: second.accessToken,
        rotatedRefreshJwt: second.refreshToken,
        // The signature alone, in case a token were stored split or re-encoded around it.
        refreshSignature: second.refreshToken.split('.')[2],
      };
      const files = filesUnder(t.dataDir).map((f) => path.basename(f));
      expect(files).toContain('herald.db');
      // Positive control: the sweep does read the database (the account's public DID is in it).
      t.server.sqlite.pragma('wal_checkpoint(PASSIVE)');
      expect(hits(frank.did).length).toBeGreaterThan(0);
      const found = Object.entries(canaries).flatMap(([name, value]) =>
        hits(value).map((f) => `${name} in ${path.relative(t.dataDir, f)}`),
      );
      expect(found).toEqual([]);
      const logged = Object.entries(canaries)
        .filter(([, value]) => logs.some((l) => l.includes(value)))
        .map(([name]) => name);
      expect(logged).toEqual([]);
    },
  );

  it('DELETE /accounts/:id removes the tokens from the keychain and the account from every set', async () => {
    const gina = await pds.createAccount('gina');
    const id = await connect(gina);
    expect(await keychainEntry(id)).toContain(gina.appPassword);
    const second = await t.call('POST', '/social-sets', { key, body: { name: 'Second', accountIds: [id] } });
    expect(second.status, second.text).toBe(200);
    const setsWith = async () =>
      (await t.call('GET', '/social-sets', { key })).body.socialSets
        .filter((s: { accounts: { accountId: string }[] }) => s.accounts.some((a) => a.accountId === id))
        .map((s: { name: string }) => s.name)
        .sort();
    expect(await setsWith()).toEqual(['Default', 'Second']);

    const del = await t.call('DELETE', `/accounts/${id}`, { key });
    expect(del.status, del.text).toBe(200);
    expect(await keychainEntry(id)).toBeNull();
    expect(await t.server.deps.secrets.names()).not.toContain(accountSecretName(id));
    expect(await setsWith()).toEqual([]);
    expect((await t.call('GET', `/accounts/${id}`, { key })).status).toBe(404);
  });
});
