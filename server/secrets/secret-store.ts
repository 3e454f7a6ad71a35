/**
 * Where OAuth tokens and app passwords live. Never in SQLite, logs or the data folder's other
 * files. The OS keychain (keytar) comes first; where no keychain answers, nothing is saved in
 * plain form unless the user opted in to the 0600 file store with HERALD_SECRET_STORE=file.
 */
export interface SecretStore {
  readonly kind: 'keychain' | 'file' | 'unavailable';
  /** Why the store cannot save, for the unavailable store; shown to the user. */
  readonly problem?: string;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  /** True when something was removed. */
  delete(name: string): Promise<boolean>;
  /** Names currently stored (used by tests and by account clean-up). */
  names(): Promise<string[]>;
}

/** The secret name under which an account's credentials are kept. */
export const accountSecretName = (accountId: string) => `account:${accountId}`;
