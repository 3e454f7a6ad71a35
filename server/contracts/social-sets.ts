import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { name, platformSchema, successTrue, timestamp } from './common.js';

export const socialSetSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    isDefault: z.boolean(),
    accounts: z.array(z.object({ accountId: z.string(), platform: platformSchema, username: z.string() })),
    createdAt: timestamp,
    timeZone: z
      .string()
      .describe(
        "IANA time zone the set's times are entered and shown in (a new set starts in the user's zone, the " +
          'setting timeZone)',
      ),
  }),
);
export type SocialSet = z.infer<typeof socialSetSchema>;

const accountIds = lazySchema(() => z.array(z.string().min(1).max(200)).max(100));

const timeZone = lazySchema(() =>
  z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Berlin; an unknown zone is 400 naming timeZone'),
);

export const createSetBody = lazySchema(() =>
  z.object({
    name: name(100),
    accountIds: accountIds.optional(),
    isDefault: z.boolean().optional(),
    timeZone: timeZone.optional(),
  }),
);
export const updateSetBody = lazySchema(() =>
  z.object({
    id: z.string().min(1),
    name: name(100).optional(),
    accountIds: accountIds.optional(),
    isDefault: z.boolean().optional(),
    timeZone: timeZone.optional(),
  }),
);

/** A weekly queue slot in the set's zone. */
export const slotSchema = lazySchema(() =>
  z.object({
    day: z.number().int().min(1).max(7).describe('ISO weekday: Monday = 1 ... Sunday = 7'),
    time: z
      .string()
      .max(5)
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM, 00:00 to 23:59')
      .describe("HH:MM in the set's zone"),
  }),
);
export type SlotDto = z.infer<typeof slotSchema>;
export const slotsParams = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));
export const putSlotsBody = lazySchema(() =>
  z.object({
    slots: z
      .array(slotSchema)
      .max(200)
      .describe('replaces every slot; slots less than 6 minutes apart overlap (400 naming the slot)'),
  }),
);
export const slotsResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    socialSetId: z.string(),
    timeZone: z.string(),
    slots: z.array(slotSchema).describe('sorted by day, then time'),
  }),
);
export const deleteSetBody = lazySchema(() => z.object({ id: z.string().min(1) }));

export const setListResponse = lazySchema(() =>
  z.object({ success: successTrue, socialSets: z.array(socialSetSchema) }),
);
export const setResponse = lazySchema(() => z.object({ success: successTrue, socialSet: socialSetSchema }));
