import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { successTrue } from './common.js';

export const evergreenBody = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    minDaysBetween: z.number().int().min(1).max(3650).optional().describe('default 30'),
    maxRepeats: z.number().int().min(1).max(1000).nullable().optional().describe('null: no end'),
    variants: z
      .array(z.string().trim().min(1).max(25_000))
      .max(50)
      .optional()
      .describe('texts X gets in turn, since it refuses a text it was sent before'),
  }),
);

/** The settings alone, as a draft carries them (`evergreen` of GET /microblog/drafts/:id). */
export const evergreenSettings = lazySchema(() =>
  z
    .object({
      enabled: z.boolean(),
      minDaysBetween: z.number().int(),
      maxRepeats: z.number().int().nullable().describe('null: no end'),
      variants: z.array(z.string()).describe('texts X gets in turn, since it refuses a text it was sent before'),
    })
    .describe('evergreen settings (docs/decisions.md §11); a draft never marked evergreen has enabled false'),
);

export const evergreenSchema = lazySchema(() =>
  built(evergreenSettings).extend({
    repeats: z.number().int().describe('slots it filled so far'),
    lastPublishedAt: z.string().nullable().describe('"due" counts from here'),
    stalled: z.string().nullable().describe('why no network is left that takes it (shown, not filled), else null'),
  }),
);

export const evergreenResponse = lazySchema(() => z.object({ success: successTrue, evergreen: evergreenSchema }));

const skipped = lazySchema(() =>
  z.array(z.object({ accountId: z.string(), platform: z.string(), reason: z.string() })),
);

export const fillResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    filled: z.array(z.object({ draftId: z.string(), setId: z.string(), at: z.string(), skipped })),
  }),
);

export const clearQuery = lazySchema(() =>
  z.object({
    socialSetId: z.string().min(1).max(200),
    slot: z.string().min(1).max(40).describe("the slot's `at` from GET /microblog/queue"),
  }),
);

export const clearResponse = lazySchema(() => z.object({ success: successTrue, draftId: z.string() }));
