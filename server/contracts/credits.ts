import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { isoDateInput, successTrue, timestamp } from './common.js';

export const TRANS_TYPES = ['grant', 'publish', 'refund', 'adjustment'] as const;

export const creditsResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    balance: z.number(),
    expiresAt: timestamp.describe("when this month's grant expires: the month's end in the user's zone"),
    timeZone: z.string().describe("the user's zone (the setting timeZone), which the credit month follows"),
    monthlyCredits: z.number().int().describe('the monthly grant (the setting monthlyCredits)'),
    reserved: z
      .number()
      .int()
      .describe('credits the posts scheduled to fire before this month ends will take when they fire'),
    /** Pending scheduled posts and what they will cost when they fire (added for issue #19). */
    scheduled: z.object({ posts: z.number().int(), credits: z.number().int() }),
    /** How many more posts the balance pays for. */
    covers: z.number().int(),
    /** "Credits for N more posts; M scheduled. …" when the balance will not cover the schedule, else null. */
    warning: z.string().nullable(),
    /** X's pay-per-use spend this month in the user's zone (docs/decisions.md §15). */
    xSpend: z.object({
      monthUsd: z.number().describe('what X posts sent this month cost, each at the price in force when sent'),
      scheduledUsd: z
        .number()
        .describe("what the X posts scheduled for the rest of this month will cost at today's prices"),
      capUsd: z.number().nullable().describe('the monthly cap (setting xMonthlyCapUsd); null: none'),
    }),
  }),
);

export const usageQuery = lazySchema(() =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    start_date: isoDateInput.optional(),
    end_date: isoDateInput.optional(),
    trans_type: z.enum(TRANS_TYPES).optional(),
  }),
);

export const usageRecord = lazySchema(() =>
  z.object({
    id: z.number().int(),
    trans_no: z.string(),
    trans_type: z.enum(TRANS_TYPES),
    credits: z.number().int(),
    order_no: z.string().nullable(),
    source_type: z.string().nullable(),
    source_detail: z.string(),
    expired_at: timestamp.nullable(),
    created_at: timestamp,
  }),
);

export const usageResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    records: z.array(usageRecord),
    pagination: z.object({
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
);

export const adjustBody = lazySchema(() =>
  z.object({
    amount: z
      .number()
      .int()
      .min(-1_000_000)
      .max(1_000_000)
      .refine((n) => n !== 0, 'not zero')
      .describe('credits to add (below zero: to remove); the balance may not go below 0'),
    note: z.string().trim().max(300).optional().describe('why, shown in the ledger'),
  }),
);
