import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { dateTimeInput, platformSchema, successTrue, timestamp } from './common.js';

const id = lazySchema(() => z.string().min(1).max(200));

export const scheduleBody = lazySchema(() =>
  z.object({
    draftId: id,
    scheduledFor: dateTimeInput
      .optional()
      .describe(
        'ISO 8601 date-time with Z or an offset, in the future and at most two years ahead; required unless ' +
          'every targetAccounts item has its own',
      ),
    targetAccounts: z
      .array(
        z.object({
          accountId: id,
          platform: platformSchema.optional(),
          scheduledFor: dateTimeInput
            .optional()
            .describe("this account's own time (per-network times); else the request's scheduledFor"),
        }),
      )
      .min(1)
      .max(100)
      .optional(),
    accountUuid: id.optional(),
    platform: platformSchema.optional(),
    priority: z.number().int().min(-1000).max(1000).optional(),
    applyJitter: z.boolean().optional(),
    dryRun: z.boolean().optional().describe('validate and answer the plan; nothing is scheduled'),
    force: z
      .boolean()
      .optional()
      .describe(
        'post again to accounts the draft was already published to (a new publication each, charged when it ' +
          'fires); without it such accounts are 409 ALREADY_PUBLISHED',
      ),
  }),
);

export const scheduleResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    message: z.string(),
    queueIds: z.array(z.string()),
    scheduledFor: z
      .string()
      .describe(
        "echoes the request (the earliest target's time when only targets carry times); each entry's real " +
          'fire time (jitter applied) is in GET /microblog/schedule',
      ),
    accountCount: z.number().int(),
    warnings: z
      .array(z.string())
      .optional()
      .describe(
        'scheduled all the same, but: over the X monthly spend cap ' +
          '(month spent + scheduled + this), which is set to warn; or "Credits fall short: …" when the month ' +
          'a post fires in will not have its credits (its balance or grant, less what the posts already ' +
          'scheduled there reserve): ' +
          'such a post fails when it fires unless credits are added',
      ),
  }),
);

export const scheduleEntry = lazySchema(() =>
  z.object({
    id: z.string(),
    draftId: z.string(),
    draftTitle: z.string(),
    scheduledFor: timestamp.describe('real fire time, jitter applied'),
    priority: z.number(),
    attempts: z.number().int(),
    createdAt: timestamp,
    platform: platformSchema,
    accountUuid: z.string(),
    networkScheduledId: z
      .string()
      .nullable()
      .optional()
      .describe("handed off: the network's id of the post it publishes itself at scheduledFor"),
    handedOffTo: z.string().nullable().optional().describe('handed off: the instance (host) that publishes it'),
    handOffNote: z
      .string()
      .nullable()
      .optional()
      .describe('why Herald sends it itself although it could have been handed off'),
    timeZone: z
      .string()
      .nullable()
      .optional()
      .describe(
        "its social set's IANA zone, the one it is shown in; null when the draft has no set (the user's zone then)",
      ),
  }),
);
export const scheduleListResponse = lazySchema(() =>
  z.object({ success: successTrue, schedules: z.array(scheduleEntry) }),
);
export const cancelQuery = lazySchema(() =>
  z.object({
    draftId: id,
    accountId: id
      .optional()
      .describe("cancel only this account's entry (one network); without it every pending entry of the draft"),
  }),
);
export const cancelResponse = lazySchema(() =>
  z.object({ success: successTrue, message: z.string(), cancelled: z.number().int() }),
);
