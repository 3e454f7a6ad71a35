import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue, timestamp } from './common.js';

export const meResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    uuid: z.string(),
    email: z.string(),
    nickname: z.string(),
    avatar_url: z.string(),
    timezone: z.string().describe('IANA time-zone name'),
    credits_balance: z.number(),
    locale: z.string(),
    created_at: timestamp,
  }),
);
