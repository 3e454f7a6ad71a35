import { z } from 'zod';
import { lazySchema } from './lazy.js';

/** GET /events takes its resume point in the Last-Event-ID header (the SSE standard), nothing else. */
export const lastEventId = lazySchema(() => z.string().regex(/^\d{1,15}$/, 'a non-negative integer event id'));

/** The `data` of every event (the answer is text/event-stream; this documents its JSON). */
export const eventData = lazySchema(() =>
  z.object({
    at: z.string().describe('ISO 8601 instant of the change'),
    draftId: z.string().nullable().optional(),
    accountId: z.string().optional(),
    platform: z.string().optional(),
    url: z.string().optional().describe('post.published'),
    error: z.string().optional().describe('post.failed, post.missed'),
    nextAttemptAt: z.string().nullable().optional().describe('post.failed: when it is tried again, null when not'),
    scheduledFor: z.string().optional().describe("post.scheduled: the entry's fire time, jitter applied"),
    waitingFor: z
      .literal('quota')
      .optional()
      .describe(
        "post.scheduled: held back by a network's posting cap; scheduledFor and nextAttemptAt say when it goes",
      ),
    reason: z.string().optional().describe('post.scheduled with waitingFor: the cap, in words'),
    balance: z.number().optional().describe('credits.changed, credits.low'),
    expiresAt: z.string().nullable().optional().describe('account.expiring: when the sign-in ends'),
    monthUsd: z.number().optional().describe("xspend.near_cap: this month's X spend"),
    capUsd: z.number().optional().describe('xspend.near_cap: the cap'),
    version: z.string().optional().describe('network.version_expiring: the LinkedIn API version (YYYYMM)'),
    endsAt: z.string().optional().describe('network.version_expiring: when that version ends'),
  }),
);
