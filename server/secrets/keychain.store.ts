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

/** The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Vault on Windows). */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  constructor(private readonly keytar: Keytar, private readonly service: string) {}

  get(name: string) { return this.keytar.getPassword(this.service, name); }
  set(name: string, value: string) { return this.keytar.setPassword(this.service, name, value); }
  delete(name: string) { return this.keytar.deletePassword(this.service, name); }
  async names() { return (await this.keytar.findCredentials(this.service)).map((c) => c.account); }
}
