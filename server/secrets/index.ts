import crypto from 'node:crypto';
import path from 'node:path';
import type { HeraldConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { FileSecretStore } from './file.store.js';
import { KeychainSecretStore, loadKeytar } from './keychain.store.js';
import type { SecretStore } from './secret-store.js';

export type { SecretStore } from './secret-store.js';

/** Saving fails loudly; reading finds nothing. Used when no keychain answers and no opt-in. */
export class UnavailableSecretStore implements SecretStore {
  readonly kind = 'unavailable' as const;
  constructor(readonly problem: string) {}
  async get() { return null; }
  async set(): Promise<void> { throw new Error(this.problem); }
  async delete() { return false; }
  async names() { return []; }
}

/** Keychain entries are namespaced per data folder so two Herald profiles never share tokens. */
export function keychainService(dataDir: string): string {
  return `Herald (${crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12)})`;
}

export async function openSecretStore(config: HeraldConfig, log: Logger): Promise<SecretStore> {
  if (config.secretStore === 'file') {
    const file = path.join(config.dataDir, 'secrets.json');
    log.warn(`Herald stores account tokens in ${file} (mode 0600), as HERALD_SECRET_STORE=file asks; the OS keychain is safer.`);
    return new FileSecretStore(file);
  }
  try {
    const keytar = await loadKeytar();
    const store = new KeychainSecretStore(keytar, keychainService(config.dataDir));
    await store.get('probe'); // fails fast when no keychain daemon answers
    return store;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const problem = `No OS keychain is available (${reason}). Connected accounts cannot be saved. Start a keychain (Secret Service) or set HERALD_SECRET_STORE=file to keep tokens in a 0600 file inside the data folder.`;
    log.warn(`Herald: ${problem}`);
    return new UnavailableSecretStore(problem);
  }
}
