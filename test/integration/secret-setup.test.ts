/**
 * The first-run wizard's secret-store step against the real headless Herald in a child process
 * whose D-Bus address points nowhere (a machine with no secret service): the keychain check says
 * so plainly; choosing the keychain anyway, or declining every store, answers a 4xx that names
 * the fix (never a 500) and connecting an account then says the same; the encrypted file store
 * takes a passphrase, keeps secrets sealed (no plaintext on disk), starts locked after a restart
 * (423 until unlocked; a wrong passphrase is refused) and opens with the right one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { tempDir } from '../helpers/server.js';
import { EncryptedFileSecretStore } from '../../server/secrets/encrypted-file.store.js';

const dir = tempDir('herald-secret-setup-');
const NO_DBUS = {
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/herald-test-bus',
  DISPLAY: '',
  HERALD_SECRET_STORE: undefined,
  HERALD_OWNER_EMAIL: undefined,
  HERALD_OWNER_PASSWORD: undefined,
};
const PASSPHRASE = 'correct horse battery staple';
const CANARY = 'canary-client-secret-4f1d9a';
let child: ChildServer | undefined;

afterAll(async () => {
  await child?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('choosing where secrets live with no secret service running', () => {
  let key = '';

  it('creates the owner, then the keychain check reports no keychain in plain words', async () => {
    child = await startChild({ dataDir: dir, env: NO_DBUS });
    const setup = await child.call('POST', '/auth/setup', {
      body: { email: 'owner@example.com', password: 'owner password 1' },
    });
    expect(setup.status, setup.text).toBe(200);
    key = setup.body.apiKey.key;
    const r = await child.call('GET', '/setup/secrets', { key });
    expect(r.status, r.text).toBe(200);
    expect(r.body.current.kind).toBe('unavailable');
    expect(r.body.keychain).toMatchObject({ available: false, checked: true });
    expect(r.body.keychain.message).toMatch(/No OS keychain is available/);
    expect(r.body.keychain.message).toMatch(/encrypted with a passphrase/);
    // In a person's words: no library jargon, and a way forward that exists after the wizard.
    expect(r.body.keychain.message).toMatch(/no keyring service \(such as GNOME Keyring or KWallet\) is running/);
    expect(r.body.keychain.message).not.toMatch(/D-Bus|DISPLAY|autolaunch/i);
    expect(r.body.current.problem).toMatch(/Settings → Data/);
    expect(r.body.current.problem).not.toMatch(/wizard|D-Bus|DISPLAY/i);
  });

  it('choosing the keychain anyway is a 409 naming the alternatives, not a 500', async () => {
    const r = await child!.call('POST', '/setup/secrets', { key, body: { store: 'keychain' } });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toBe('SECRET_STORE_UNAVAILABLE');
    expect(r.body.message).toMatch(/encrypted file store/);
    expect(r.body.message).toMatch(/HERALD_SECRET_STORE=file/);
  });

  it('declining gets the clear message; connecting then answers 409 with the fix, not a 500', async () => {
    const r = await child!.call('POST', '/setup/secrets', { key, body: { store: 'none' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.kind).toBe('unavailable');
    expect(r.body.message).toMatch(/will not keep any network account/);
    const sky = await child!.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: 'someone.example', appPassword: 'abcd-efgh-ijkl-mnop', service: 'http://127.0.0.1:9' },
    });
    expect(sky.status, sky.text).toBe(409);
    expect(sky.body.error).toBe('SECRET_STORE_UNAVAILABLE');
    expect(sky.body.message).toMatch(/Start a keychain|encrypted file store/);
    const masto = await child!.call('POST', '/fedblog/auth', { key, body: { instanceUrl: 'http://127.0.0.1:9' } });
    expect(masto.status, masto.text).toBe(409);
    const app = await child!.call('PUT', '/networks/problog', {
      key,
      body: { clientId: 'id', clientSecret: 'secret' },
    });
    expect(app.status).toBeLessThan(500);
  });

  it('the encrypted file store takes a passphrase and keeps secrets sealed in a 0600 file', async () => {
    const short = await child!.call('POST', '/setup/secrets', { key, body: { store: 'encrypted' } });
    expect(short.status).toBe(400);
    const r = await child!.call('POST', '/setup/secrets', {
      key,
      body: { store: 'encrypted', passphrase: PASSPHRASE },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.kind).toBe('encrypted');
    const app = await child!.call('PUT', '/networks/problog', {
      key,
      body: { clientId: 'li-client', clientSecret: CANARY },
    });
    expect(app.status, app.text).toBe(200);
    const file = path.join(dir, 'secrets.enc.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(CANARY);
    expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).HERALD_SECRET_STORE).toBe('encrypted');
    // The passphrase is nowhere in the data folder.
    for (const f of fs.readdirSync(dir))
      if (fs.statSync(path.join(dir, f)).isFile())
        expect(fs.readFileSync(path.join(dir, f)).includes(Buffer.from(PASSPHRASE))).toBe(false);
  });

  it('after a restart the store is locked (423 naming the fix) until the right passphrase opens it', async () => {
    await child!.kill('SIGTERM');
    child = await startChild({ dataDir: dir, env: NO_DBUS });
    key = await child.login('owner@example.com', 'owner password 1');
    const status = await child.call('GET', '/setup/secrets', { key });
    expect(status.body.current).toMatchObject({ kind: 'encrypted', locked: true });
    const sky = await child.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: 'someone.example', appPassword: 'abcd-efgh-ijkl-mnop', service: 'http://127.0.0.1:9' },
    });
    expect(sky.status, sky.text).toBe(423);
    expect(sky.body.error).toBe('SECRET_STORE_LOCKED');
    expect(sky.body.message).toMatch(/unlock/i);
    // Switching stores while locked would strand the tokens in the locked file: refused, naming the fix.
    const switchLocked = await child.call('POST', '/setup/secrets', { key, body: { store: 'file' } });
    expect(switchLocked.status, switchLocked.text).toBe(423);
    expect(switchLocked.body.message).toMatch(/Unlock the encrypted secret store first/);
    expect((await child.call('GET', '/setup/secrets', { key })).body.current).toMatchObject({
      kind: 'encrypted',
      locked: true,
    });
    const wrong = await child.call('POST', '/setup/secrets/unlock', {
      key,
      body: { passphrase: 'not the passphrase' },
    });
    expect(wrong.status).toBe(401);
    expect(
      (await child.call('GET', '/networks', { key })).body.networks.find((n: any) => n.platform === 'problog')
        .configured,
    ).toBe(false);
    const right = await child.call('POST', '/setup/secrets/unlock', { key, body: { passphrase: PASSPHRASE } });
    expect(right.status, right.text).toBe(200);
    const nets = await child.call('GET', '/networks', { key });
    expect(nets.body.networks.find((n: any) => n.platform === 'problog')).toMatchObject({
      configured: true,
      clientId: 'li-client',
    });
  });
});

describe('EncryptedFileSecretStore', () => {
  it('refuses a changed byte (authenticated) and draws a new salt on every write', async () => {
    const d = tempDir('herald-enc-');
    const file = path.join(d, 'secrets.enc.json');
    const store = new EncryptedFileSecretStore(file);
    await expect(store.get('x')).rejects.toMatchObject({ code: 'SECRET_STORE_LOCKED' });
    await store.unlock(PASSPHRASE);
    await store.set('a', 'one');
    const salt1 = JSON.parse(fs.readFileSync(file, 'utf8')).kdf.salt;
    await store.set('b', 'two');
    const env = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(env.kdf.salt).not.toBe(salt1);
    const again = new EncryptedFileSecretStore(file);
    await again.unlock(PASSPHRASE);
    expect(await again.get('b')).toBe('two');
    const data = Buffer.from(env.data, 'base64');
    data[0] ^= 1;
    fs.writeFileSync(file, JSON.stringify({ ...env, data: data.toString('base64') }));
    await expect(new EncryptedFileSecretStore(file).unlock(PASSPHRASE)).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    fs.rmSync(d, { recursive: true, force: true });
  });
});
