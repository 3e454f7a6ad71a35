import crypto from 'node:crypto';
import path from 'node:path';
import type { HeraldConfig } from '../core/config.js';
import { HeraldError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { EncryptedFileSecretStore } from './encrypted-file.store.js';
import { FileSecretStore } from './file.store.js';
import { KeychainSecretStore, loadKeytar } from './keychain.store.js';
import type { SecretStore } from './secret-store.js';

export type { SecretStore } from './secret-store.js';
export { EncryptedFileSecretStore } from './encrypted-file.store.js';
export { FileSecretStore } from './file.store.js';

/** Saving fails loudly (a 409 naming the fix); reading finds nothing. Used when no keychain answers and no opt-in. */
export class UnavailableSecretStore implements SecretStore {
  readonly kind = 'unavailable' as const;
  constructor(readonly problem: string) {}
  async get() {
    return null;
  }
  async set(): Promise<void> {
    throw new HeraldError('SECRET_STORE_UNAVAILABLE', this.problem);
  }
  async delete() {
    return false;
  }
  async names() {
    return [];
  }
}

/**
 * The store the services hold: it forwards to the store in force, which the first-run wizard
 * (or Settings) may replace while Herald runs, so choosing where secrets live needs no restart.
 */
export class ManagedSecretStore implements SecretStore {
  constructor(public inner: SecretStore) {}
  get kind() {
    return this.inner.kind;
  }
  get problem() {
    return this.inner.problem;
  }
  get locked() {
    return this.inner.locked ?? false;
  }
  get(name: string) {
    return this.inner.get(name);
  }
  set(name: string, value: string) {
    return this.inner.set(name, value);
  }
  delete(name: string) {
    return this.inner.delete(name);
  }
  names() {
    return this.inner.names();
  }
  replace(store: SecretStore): void {
    this.inner = store;
  }
}

/** Throws the 4xx that names the fix when nothing can be saved now (before a connection starts). */
export function assertWritable(store: SecretStore): void {
  if (store.kind === 'unavailable')
    throw new HeraldError('SECRET_STORE_UNAVAILABLE', store.problem ?? 'No secret store is available');
  if (store.locked)
    throw new HeraldError('SECRET_STORE_LOCKED', store.problem ?? 'The secret store is locked: unlock it first');
}

/** Keychain entries are namespaced per data folder so two Herald profiles never share tokens. */
export function keychainService(dataDir: string): string {
  return `Herald (${crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12)})`;
}

export const secretFiles = (dataDir: string) => ({
  plain: path.join(dataDir, 'secrets.json'),
  encrypted: path.join(dataDir, 'secrets.enc.json'),
});

/** The way forward wherever Herald says it has nowhere to keep secrets: Settings → Data, which is always there. */
export const NO_KEYCHAIN_FIX =
  'Choose where Herald keeps them in Settings → Data: the encrypted file store works without a keychain (or ' +
  'run `herald secrets use encrypted`). Start a keychain (GNOME Keyring or KWallet) to keep them there ' +
  'instead, or set HERALD_SECRET_STORE=file to keep tokens in a 0600 file inside the data folder.';

/**
 * Why the keychain did not answer, in a person's words: the library's own message ("Cannot
 * autolaunch D-Bus without X11 $DISPLAY") names parts of the system a user never chose.
 */
export function plainKeychainReason(raw: string): string {
  if (/keytar/i.test(raw)) return 'the keychain module is not installed with this copy of Herald';
  if (/locked|dismiss|cancel|denied/i.test(raw)) return 'the keyring is locked, or its unlock prompt was dismissed';
  // D-Bus that cannot start without a display, a bus address that leads nowhere, no Secret Service on the bus, ...
  return 'no keyring service (such as GNOME Keyring or KWallet) is running in this session';
}

/**
 * Whether the OS keychain works here, by a real round trip: writes a random value under a
 * throw-away name, reads it back and deletes it. Answers the store when it does.
 */
export async function checkKeychain(
  dataDir: string,
): Promise<{ ok: true; store: KeychainSecretStore } | { ok: false; message: string }> {
  const name = `herald-check-${crypto.randomUUID()}`;
  const value = crypto.randomBytes(16).toString('base64url');
  try {
    const store = new KeychainSecretStore(await loadKeytar(), keychainService(dataDir));
    await store.set(name, value);
    const back = await store.get(name);
    const removed = await store.delete(name);
    if (back !== value)
      return { ok: false, message: 'The OS keychain answered, but gave back another value than it was given' };
    if (!removed) return { ok: false, message: 'The OS keychain kept a value but would not delete it' };
    return { ok: true, store };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `No OS keychain is available: ${plainKeychainReason(reason)}.` };
  }
}

export async function openSecretStore(config: HeraldConfig, log: Logger): Promise<SecretStore> {
  const files = secretFiles(config.dataDir);
  if (config.secretStore === 'file') {
    log.warn(
      `Herald stores account tokens in ${files.plain} (mode 0600), as HERALD_SECRET_STORE=file asks; the OS ` +
        `keychain is safer.`,
    );
    return new FileSecretStore(files.plain);
  }
  if (config.secretStore === 'encrypted') {
    log.info(
      `Herald keeps account tokens in ${files.encrypted}, encrypted with a passphrase; it stays locked until ` +
        `the passphrase is given.`,
    );
    return new EncryptedFileSecretStore(files.encrypted);
  }
  try {
    const keytar = await loadKeytar();
    const store = new KeychainSecretStore(keytar, keychainService(config.dataDir));
    await store.get('probe'); // fails fast when no keychain daemon answers
    return store;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // The log keeps the library's words for whoever looks into it; people read the plain ones.
    log.warn(`Herald: No OS keychain is available (${reason}). Connected accounts cannot be saved. ${NO_KEYCHAIN_FIX}`);
    return new UnavailableSecretStore(
      `No OS keychain is available: ${plainKeychainReason(reason)}. Connected accounts cannot be saved. ` +
        `${NO_KEYCHAIN_FIX}`,
    );
  }
}
