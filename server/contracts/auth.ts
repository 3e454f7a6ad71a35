import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue, timestamp } from './common.js';

export const tierSchema = lazySchema(() => z.enum(['free', 'pro', 'enterprise']));

/** Shared by every sign-in (password, setup, OAuth callbacks). */
export const sessionFlag = lazySchema(() =>
  z
    .boolean()
    .optional()
    .describe(
      "Optional: true for a sign-in session (the app's own use): the key expires 30 days after its last use " +
        'and sign-out revokes it. Without it the key never expires.',
    ),
);

/** A strict instant: date-time with Z or an offset, a real calendar date. */
export const instantInput = lazySchema(() =>
  z
    .string()
    .max(40)
    .refine((s) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.exec(s);
      if (!m || Number.isNaN(Date.parse(s))) return false;
      const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return day.getUTCMonth() === Number(m[2]) - 1 && day.getUTCDate() === Number(m[3]);
    }, 'must be an ISO 8601 date-time with Z or an offset'),
);

export const loginBody = lazySchema(() =>
  z.object({
    email: z.string().trim().min(1).max(320),
    password: z.string().min(1).max(1024),
    session: sessionFlag,
  }),
);

const issuedKey = lazySchema(() =>
  z.object({
    key: z.string(),
    name: z.string(),
    createdAt: timestamp,
    lastUsed: timestamp.nullable(),
    expiresAt: timestamp
      .nullable()
      .optional()
      .describe("null: never expires; a session key's expiry moves forward as it is used"),
  }),
);

export const loginResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    user: z.object({ uuid: z.string(), email: z.string() }),
    apiKey: issuedKey,
    warning: z.string(),
  }),
);

export const apiKeyListItem = lazySchema(() =>
  z.object({
    id: z.string(),
    key: z.string().describe('masked: first 7 and last 4 characters'),
    name: z.string(),
    status: z.enum(['created', 'active']),
    tier: tierSchema,
    lastUsed: timestamp.nullable(),
    createdAt: timestamp,
    expiresAt: timestamp.nullable().describe('null: never expires'),
    session: z
      .boolean()
      .describe('A sign-in session (a browser or the app signed in with the password), not a key made for scripts'),
    current: z.boolean().describe('The key this request was made with: deleting it signs this caller out'),
  }),
);
export const apiKeyListResponse = lazySchema(() =>
  z.object({ success: successTrue, apiKeys: z.array(apiKeyListItem) }),
);

export const createKeyBody = lazySchema(() =>
  z.object({
    name: z.string().trim().min(1).max(100),
    tier: tierSchema.optional().describe("at most the calling key's own tier"),
    expiresAt: instantInput
      .optional()
      .describe('Optional expiry, in the future; a key with a fixed expiry cannot create one that outlives it'),
  }),
);
export const createKeyResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    apiKey: z.object({
      id: z.string(),
      key: z.string(),
      keyPreview: z.string(),
      name: z.string(),
      tier: tierSchema,
      status: z.literal('created'),
      createdAt: timestamp,
      expiresAt: timestamp.nullable(),
    }),
    warning: z.string(),
  }),
);
export const keyIdParam = lazySchema(() => z.object({ keyId: z.string().min(1).max(200) }));
