/**
 * Herald's secret stores for real: the OS keychain through keytar against the gnome-keyring that
 * `npm test` starts under dbus-run-session (no keychain answering is a failure here, not a skip),
 * the opt-in 0600 file store, and the unavailable store a machine without a keychain gets, seen
 * from a child process whose D-Bus address points nowhere.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/core/config.js';
import { FileSecretStore } from '../../server/secrets/file.store.js';
import { keychainService, openSecretStore } from '../../server/secrets/index.js';
import { KeychainSecretStore, loadKeytar } from '../../server/secrets/keychain.store.js';
import { tempDir } from '../helpers/server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dirs: string[] = [];
const newDir = () => {
  const d = tempDir('herald-secrets-');
  dirs.push(d);
  return d;
};
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('OS keychain (gnome-keyring through keytar)', () => {
  it('openSecretStore picks the keychain when one answers', async () => {
    const store = await openSecretStore(loadConfig({}, { HERALD_DATA_DIR: newDir() }), silent);
    // Under `npm test` a keychain always answers; anything else is a broken test machine.
    expect(store.kind, store.problem).toBe('keychain');
  });

  it('sets, gets, lists and deletes secrets in the real keychain', async () => {
    const service = `Herald test ${crypto.randomUUID()}`;
    const store = new KeychainSecretStore(await loadKeytar(), service);
    const token = `eyJ.${crypto.randomBytes(600).toString('base64url')}.sig ünïcødé 🔑`;
    await store.set('account:one', token);
    await store.set('account:two', 'second');
    expect(await store.get('account:one')).toBe(token);
    expect((await store.names()).sort()).toEqual(['account:one', 'account:two']);
    await store.set('account:one', 'replaced');
    expect(await store.get('account:one')).toBe('replaced');
    expect(await store.delete('account:one')).toBe(true);
    expect(await store.delete('account:one')).toBe(false);
    expect(await store.get('account:one')).toBeNull();
    expect(await store.names()).toEqual(['account:two']);
    // A second service (another data folder) does not see these entries.
    const other = new KeychainSecretStore(await loadKeytar(), `${service} other`);
    expect(await other.get('account:two')).toBeNull();
    expect(await other.names()).toEqual([]);
    await store.delete('account:two');
    expect(await store.names()).toEqual([]);
  });

  it(
    'survives listings racing writes and deletes (libsecret hands ' + 'a NULL value for an item deleted mid-listing)',
    async () => {
      const service = `Herald test ${crypto.randomUUID()}`;
      const store = new KeychainSecretStore(await loadKeytar(), service);
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.set(`kept:${i}`, `value ${i}`)));
      // Before the keychain calls were queued, this killed the process about once a run.
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          ...Array.from({ length: 10 }, (_, i) =>
            store.set(`brief:${round}:${i}`, 'x').then(() => store.delete(`brief:${round}:${i}`)),
          ),
          ...Array.from({ length: 10 }, () => store.names()),
        ]);
      }
      expect((await store.names()).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `kept:${i}`).sort());
      for (let i = 0; i < 10; i++) expect(await store.get(`kept:${i}`)).toBe(`value ${i}`);
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.delete(`kept:${i}`)));
    },
  );

  it('names the keychain entries after the data folder, so two profiles never share tokens', () => {
    expect(keychainService('/a/b')).not.toBe(keychainService('/a/c'));
    expect(keychainService('/a/b')).toBe(keychainService('/a/b/'));
  });
});

describe('file store (HERALD_SECRET_STORE=file)', () => {
  it('is chosen only on request, writes mode 0600 and survives concurrent sets', async () => {
    const dir = newDir();
    const store = await openSecretStore(loadConfig({}, { HERALD_DATA_DIR: dir, HERALD_SECRET_STORE: 'file' }), silent);
    expect(store.kind).toBe('file');
    const twin = new FileSecretStore(path.join(dir, 'secrets.json'));
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? store : twin).set(`account:${i}`, `token-${i}`)));
    const file = path.join(dir, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(saved)).toHaveLength(100);
    for (let i = 0; i < 100; i++) expect(await store.get(`account:${i}`)).toBe(`token-${i}`);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.delete(`account:${i * 2}`)));
    expect((await store.names()).length).toBe(50);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // No temporary files left next to it.
    expect(fs.readdirSync(dir)).toEqual(['secrets.json']);
  });
});

describe('no keychain and no opt-in', () => {
  const runChild = (dataDir: string, setting?: string) => {
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'secrets-child.ts'), dataDir, ...(setting ? [setting] : [])],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
        // A session bus address that points at nothing: what a machine without a keychain has.
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/herald-test-bus', DISPLAY: '' },
      },
    );
    expect(res.status, res.stderr).toBe(0);
    return JSON.parse(res.stdout.trim().split('\n').pop()!);
  };

  it('gets the unavailable store: saving fails with what to do, and nothing is written in plain form', () => {
    const dir = newDir();
    const out = runChild(dir);
    expect(out.kind).toBe('unavailable');
    expect(out.setError).toMatch(/No OS keychain is available/);
    expect(out.setError).toMatch(/HERALD_SECRET_STORE=file/);
    expect(out.setError).toMatch(/Start a keychain/);
    expect(out.read).toBeNull();
    expect(out.warnings.join('\n')).toMatch(/HERALD_SECRET_STORE=file/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('with HERALD_SECRET_STORE=file the same machine keeps tokens in a 0600 file, with a warning', () => {
    const dir = newDir();
    const out = runChild(dir, 'file');
    expect(out.kind).toBe('file');
    expect(out.setError).toBeNull();
    expect(out.read).toBe('canary-secret-value');
    expect(out.warnings.join('\n')).toMatch(/0600/);
    expect(fs.statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });
});
