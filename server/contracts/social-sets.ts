import { z } from 'zod';
import { name, platformSchema, successTrue, timestamp } from './common.js';

export const socialSetSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  accounts: z.array(z.object({ accountId: z.string(), platform: platformSchema, username: z.string() })),
  createdAt: timestamp,
});
export type SocialSet = z.infer<typeof socialSetSchema>;

const accountIds = z.array(z.string().min(1).max(200)).max(100);

export const createSetBody = z.object({ name: name(100), accountIds: accountIds.optional(), isDefault: z.boolean().optional() });
export const updateSetBody = z.object({ id: z.string().min(1), name: name(100).optional(), accountIds: accountIds.optional(), isDefault: z.boolean().optional() });
export const deleteSetBody = z.object({ id: z.string().min(1) });

export const setListResponse = z.object({ success: successTrue, socialSets: z.array(socialSetSchema) });
export const setResponse = z.object({ success: successTrue, socialSet: socialSetSchema });
