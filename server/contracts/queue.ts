import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { dateTimeInput, successTrue, timestamp } from './common.js';
import { scheduleResponse } from './schedule.js';

const id = lazySchema(() => z.string().min(1).max(200));

export const queueAddBody = lazySchema(() =>
  z.object({
    draftId: id,
    socialSetId: id.optional().describe("default: the draft's social set, else the default set"),
    applyJitter: z
      .boolean()
      .optional()
      .describe(
        'default false: the post goes out at the slot; true gives each entry its own offset in [-180 s, +180 ' +
          's] around it',
      ),
    dryRun: z.boolean().optional().describe('answer the plan and the slot the draft would take; nothing is scheduled'),
    force: z
      .boolean()
      .optional()
      .describe(
        'post again to accounts the draft was already published to; without it such accounts are 409 ALREADY_PUBLISHED',
      ),
  }),
);

/** A slot instant as the set's zone shows it. */
export const slotTime = lazySchema(() =>
  z.object({
    at: timestamp.describe("the slot's instant (jitter not applied)"),
    local: z.string().describe("wall time in the set's zone, YYYY-MM-DDTHH:MM"),
    offset: z.string().describe("the zone's UTC offset then, e.g. -04:00"),
    timeZone: z.string(),
  }),
);

export const queueAddResponse = lazySchema(() =>
  built(scheduleResponse).extend({ slot: slotTime.describe('the slot the draft now holds') }),
);

export const queueListQuery = lazySchema(() =>
  z.object({
    socialSetId: id.optional().describe('default: the default set'),
    count: z.coerce
      .number()
      .int()
      .min(1)
      .max(200)
      .optional()
      .describe('how many coming slots (default 14); every later slot holding a draft is listed too'),
  }),
);

export const queueItem = lazySchema(() =>
  built(slotTime).extend({
    draft: z
      .object({ id: z.string(), title: z.string() })
      .nullable()
      .describe('the draft in the slot, or null when free'),
    inSlots: z.boolean().describe("false for a draft queued at a time that is no longer one of the set's slots"),
    evergreen: z
      .boolean()
      .describe('an evergreen repeat filled this slot (DELETE /microblog/queue/evergreen empties it)'),
  }),
);

export const queueListResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    socialSetId: z.string(),
    timeZone: z.string(),
    items: z.array(queueItem).describe('soonest first'),
  }),
);

export const queueMoveBody = lazySchema(() =>
  z.object({
    draftId: id,
    toSlot: dateTimeInput.describe("the instant of a coming slot of the set (an item's `at` in GET /microblog/queue)"),
    socialSetId: id.optional(),
  }),
);

export const queueMoveResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    message: z.string(),
    moved: z
      .array(z.object({ draftId: z.string(), slot: slotTime }))
      .describe('the draft, and the draft it swapped places with, if any'),
  }),
);
