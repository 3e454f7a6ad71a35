/** Where secrets live: the first-run wizard's secret-store step (GET/POST /setup/secrets). */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue } from './common.js';

export const secretStoreKind = lazySchema(() => z.enum(['keychain', 'file', 'encrypted', 'unavailable']));

export const secretSetupResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    current: z.object({
      kind: secretStoreKind,
      locked: z.boolean().describe('The encrypted file store waiting for its passphrase (POST /setup/secrets/unlock)'),
      problem: z.string().nullable().describe('Why nothing can be saved now, naming the fix'),
    }),
    keychain: z.object({
      available: z.boolean(),
      checked: z.boolean().describe('Answered by a real write/read/delete round trip, just now'),
      message: z.string(),
    }),
    file: z.object({ available: z.boolean(), encryptedExists: z.boolean(), message: z.string() }),
  }),
);

export const chooseSecretStoreBody = lazySchema(() =>
  z.object({
    store: z
      .enum(['keychain', 'encrypted', 'file', 'none'])
      .describe(
        '"encrypted" needs `passphrase`; "file" is plain 0600 JSON; "none" declines (nothing can be ' +
          'connected until a store is chosen)',
      ),
    passphrase: z
      .string()
      .min(8)
      .max(1024)
      .optional()
      .describe('For "encrypted": never stored; asked again at every start'),
  }),
);

export const chooseSecretStoreResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    kind: secretStoreKind,
    message: z.string(),
    moved: z.number().int().describe('Secrets moved over from the store that was in force'),
  }),
);

export const unlockSecretsBody = lazySchema(() => z.object({ passphrase: z.string().min(1).max(1024) }));
export const unlockSecretsResponse = lazySchema(() =>
  z.object({ success: successTrue, kind: secretStoreKind, message: z.string() }),
);
