import type { SecretStore } from './secret-store.js';

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

/** Loads keytar, an optional dependency: absent where libsecret was missing at install time. */
export async function loadKeytar(): Promise<Keytar> {
  const mod = (await import('keytar')) as unknown as Keytar & { default?: Keytar };
  return mod.default ?? mod;
}

/**
 * Every keychain call of the process, one at a time. keytar runs each call on a thread of its own:
 * a listing (findCredentials reads every item's value) that meets a delete of one of its items
 * reads a secret that is gone, and libsecret then hands keytar a NULL value that takes the whole
 * process down (seen with a keychain check beside a store switch). Keychain calls are rare
 * (sign-in, token refresh, setup), so queueing them costs nothing a person notices.
 */
let queue: Promise<unknown> = Promise.resolve();
function serial<T>(call: () => Promise<T>): Promise<T> {
  const run = queue.then(call, call);
  queue = run.catch(() => undefined);
  return run;
}

/** The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Vault on Windows). */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  constructor(
    private readonly keytar: Keytar,
    private readonly service: string,
  ) {}

  get(name: string) {
    return serial(() => this.keytar.getPassword(this.service, name));
  }
  set(name: string, value: string) {
    return serial(() => this.keytar.setPassword(this.service, name, value));
  }
  delete(name: string) {
    return serial(() => this.keytar.deletePassword(this.service, name));
  }
  async names() {
    return (await serial(() => this.keytar.findCredentials(this.service))).map((c) => c.account);
  }
}
