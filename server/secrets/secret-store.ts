/**
 * Where OAuth tokens and app passwords live. Never in SQLite, logs or the data folder's other
 * files. The OS keychain (keytar) comes first; where no keychain answers, nothing is saved
 * unless the user chose a file store: encrypted with a passphrase (the first-run wizard's
 * offer), or plain 0600 JSON (HERALD_SECRET_STORE=file).
 */
export interface SecretStore {
  readonly kind: 'keychain' | 'file' | 'encrypted' | 'unavailable';
  /** Why the store cannot save (unavailable, or encrypted and locked); shown to the user. */
  readonly problem?: string;
  /** The encrypted store before its passphrase is given. */
  readonly locked?: boolean;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  /** True when something was removed. */
  delete(name: string): Promise<boolean>;
  /** Names currently stored (used by tests and by account clean-up). */
  names(): Promise<string[]>;
  /** Many at once, where one write is much cheaper than one each (the encrypted file derives a key per write). */
  setMany?(entries: Record<string, string>): Promise<void>;
  deleteMany?(names: readonly string[]): Promise<void>;
}

/** The secret name under which an account's credentials are kept. */
export const accountSecretName = (accountId: string) => `account:${accountId}`;
