/**
 * The first-run wizard's (and Settings') choice of where secrets live: the OS keychain, checked
 * with a real write/read/delete round trip; the file store encrypted with a passphrase; or the
 * plain 0600 file. The choice takes effect at once (the services' ManagedSecretStore forwards to
 * the new store; secrets already saved move across) and is written to config.json for the next
 * start. Declining every store is allowed and answered plainly: nothing can be connected until a
 * store is chosen, and connecting says so with a 409, never a 500.
 */
import path from 'node:path';
import type { Deps } from '../deps.js';
import { HeraldError } from '../../core/errors.js';
import type { SettingsRepo } from '../../db/repos/settings.repo.js';
import {
  checkKeychain,
  EncryptedFileSecretStore,
  FileSecretStore,
  NO_KEYCHAIN_FIX,
  secretFiles,
  UnavailableSecretStore,
  type SecretStore,
} from '../../secrets/index.js';
import type { UsersService } from '../users/users.service.js';

export type SecretChoice = 'keychain' | 'encrypted' | 'file' | 'none';

export const DECLINED_MESSAGE =
  `Herald will not keep any network account until it has ` + `somewhere safe for its tokens. ${NO_KEYCHAIN_FIX}`;

export class SecretSetupService {
  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
    private readonly settings: SettingsRepo,
    /** Re-reads what lives in the store (the saved network apps) once another store is in force. */
    private readonly reload: () => Promise<void>,
  ) {}

  private requireOwner(userId: string): void {
    if (!this.users.isOwner(userId))
      throw new HeraldError('UNAUTHORIZED', 'Only the owner of this install chooses where secrets live');
  }

  /** The store in force and what this machine offers, the keychain checked by a round trip. */
  async status(userId: string) {
    this.requireOwner(userId);
    const s = this.deps.secrets;
    const check = await checkKeychain(this.deps.config.dataDir);
    const files = secretFiles(this.deps.config.dataDir);
    const encrypted = new EncryptedFileSecretStore(files.encrypted);
    return {
      current: { kind: s.kind, locked: s.locked ?? false, problem: s.problem ?? null },
      keychain: {
        available: check.ok,
        checked: true,
        message: check.ok
          ? 'The OS keychain works here: a test value was written, read back and deleted.'
          : `${check.message} Herald can keep tokens in a file encrypted with a passphrase instead.`,
      },
      file: {
        available: true,
        encryptedExists: encrypted.exists(),
        message:
          `An encrypted file in the data folder (${path.basename(files.encrypted)}, mode 0600), opened with a ` +
          `passphrase you give each time Herald starts. The passphrase is never stored: if you lose it, ` +
          `connect the accounts again.`,
      },
    };
  }

  /** Makes `choice` the store in force. */
  async choose(
    userId: string,
    choice: SecretChoice,
    passphrase?: string,
  ): Promise<{ kind: SecretStore['kind']; message: string; moved: number }> {
    this.requireOwner(userId);
    const files = secretFiles(this.deps.config.dataDir);
    let next: SecretStore;
    let message: string;
    // Its secrets could not move across: the accounts would look connected and find no tokens.
    const inForce = this.deps.secrets.inner;
    if (choice !== 'none' && inForce instanceof EncryptedFileSecretStore && inForce.locked && inForce.exists()) {
      throw new HeraldError(
        'SECRET_STORE_LOCKED',
        'Unlock the encrypted secret store first (the banner at the top of the app, or `herald secrets ' +
          'unlock`): its tokens move to the store you choose, and while it is locked they cannot.',
      );
    }
    if (choice === 'none') {
      if (this.deps.secrets.kind === 'unavailable') return { kind: 'unavailable', message: DECLINED_MESSAGE, moved: 0 };
      return { kind: this.deps.secrets.kind, message: 'Secrets stay where they are.', moved: 0 };
    } else if (choice === 'keychain') {
      const check = await checkKeychain(this.deps.config.dataDir);
      if (!check.ok) throw new HeraldError('SECRET_STORE_UNAVAILABLE', `${check.message} ${NO_KEYCHAIN_FIX}`);
      next = check.store;
      message = 'Tokens are kept in the OS keychain.';
    } else if (choice === 'encrypted') {
      if (!passphrase)
        throw new HeraldError('INVALID_INPUT', 'The encrypted file store needs a passphrase', {
          details: [{ path: 'body.passphrase', message: 'required' }],
        });
      const store = new EncryptedFileSecretStore(files.encrypted);
      await store.unlock(passphrase);
      next = store;
      message = 'Tokens are kept in an encrypted file. Herald asks for the passphrase each time it starts.';
    } else {
      next = new FileSecretStore(files.plain);
      message = `Tokens are kept in ${files.plain} (mode 0600, not encrypted).`;
    }
    const moved = await this.moveSecrets(this.deps.secrets.inner, next);
    this.deps.secrets.replace(next);
    this.settings.saveFile(path.join(this.deps.config.dataDir, 'config.json'), {
      HERALD_SECRET_STORE: next.kind === 'keychain' ? 'keychain' : next.kind,
    });
    await this.reload();
    this.deps.log.info(`Herald: ${message}`);
    return { kind: next.kind, message, moved };
  }

  /** Gives the encrypted store its passphrase (after each start). */
  async unlock(userId: string, passphrase: string) {
    this.requireOwner(userId);
    const store = this.deps.secrets.inner;
    if (!(store instanceof EncryptedFileSecretStore))
      throw new HeraldError(
        'INVALID_INPUT',
        'The secret store in force has no passphrase (Settings → Data shows where tokens are kept)',
      );
    if (!store.exists())
      throw new HeraldError(
        'INVALID_INPUT',
        'The encrypted secret store has not been created yet: choose it first in Settings → Data (or `herald ' +
          'secrets use encrypted`, POST /setup/secrets)',
      );
    await store.unlock(passphrase);
    await this.reload();
    return { kind: store.kind, message: 'The secret store is unlocked.' };
  }

  /** Copies every secret from the store in force to the new one, then deletes it from the old. */
  private async moveSecrets(from: SecretStore, to: SecretStore): Promise<number> {
    if (from === to || from instanceof UnavailableSecretStore || from.locked || from.kind === to.kind) return 0;
    const names = await from.names();
    const values: Record<string, string> = {};
    for (const name of names) {
      const value = await from.get(name);
      if (value !== null) values[name] = value;
    }
    // One write each way: the encrypted file draws a new salt and derives a key on every write,
    // which takes seconds per secret on a loaded machine.
    if (to.setMany) await to.setMany(values);
    else for (const [name, value] of Object.entries(values)) await to.set(name, value);
    if (from.deleteMany) await from.deleteMany(names).catch(() => undefined);
    else for (const name of names) await from.delete(name).catch(() => false);
    return names.length;
  }
}
