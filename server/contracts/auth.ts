import { z } from 'zod';
import { successTrue, timestamp } from './common.js';

export const tierSchema = z.enum(['free', 'pro', 'enterprise']);

export const loginBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});

const issuedKey = z.object({ key: z.string(), name: z.string(), createdAt: timestamp, lastUsed: timestamp.nullable() });

export const loginResponse = z.object({
  success: successTrue,
  user: z.object({ uuid: z.string(), email: z.string() }),
  apiKey: issuedKey,
  warning: z.string(),
});

export const apiKeyListItem = z.object({
  id: z.string(),
  key: z.string().describe('masked: first 7 and last 4 characters'),
  name: z.string(),
  status: z.enum(['created', 'active']),
  tier: tierSchema,
  lastUsed: timestamp.nullable(),
  createdAt: timestamp,
});
export const apiKeyListResponse = z.object({ success: successTrue, apiKeys: z.array(apiKeyListItem) });

export const createKeyBody = z.object({ name: z.string().trim().min(1).max(100), tier: tierSchema.optional() });
export const createKeyResponse = z.object({
  success: successTrue,
  apiKey: z.object({ id: z.string(), key: z.string(), keyPreview: z.string(), name: z.string(), tier: tierSchema, status: z.literal('created'), createdAt: timestamp }),
  warning: z.string(),
});
export const keyIdParam = z.object({ keyId: z.string().min(1).max(200) });
