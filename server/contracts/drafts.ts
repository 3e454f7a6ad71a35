/**
 * Drafts (docs/decisions.md §4). One base per shape; create,
 * update and batch bodies derive from it.
 */
import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { dateTimeInput, platformSchema, successTrue, timestamp } from './common.js';
import {
  ALT_TEXT_MAX,
  DRAFT_POSTS_MAX,
  DRAFT_TEXT_MAX,
  DRAFT_TITLE_MAX,
  PLATFORM_TEXT_MAX,
  POST_TEXT_MAX,
} from '../../text/draft-limits.js';
import { droppedSchema, postOptionsSchema, sentAsSchema } from './post-options.js';
import { evergreenBody, evergreenSettings } from './evergreen.js';

export const DRAFT_STATUSES = [
  'draft',
  'scheduled',
  'publishing',
  'published',
  'partially_published',
  'failed',
] as const;
export const draftStatus = lazySchema(() =>
  z
    .enum(DRAFT_STATUSES)
    .describe(
      'draft → scheduled (POST /microblog/schedule) → publishing → published | partially_published | failed; ' +
        'cancelling every schedule returns it to draft',
    ),
);

const id = lazySchema(() => z.string().min(1).max(200));

export const verdictSchema = lazySchema(() =>
  z.object({
    count: z
      .number()
      .int()
      .describe(
        'length as the network counts it (X: weighted; Bluesky, Mastodon, LinkedIn: grapheme clusters with ' +
          "Mastodon's URL rule; Threads: emoji by UTF-8 bytes)",
      ),
    limit: z.number().int(),
    valid: z.boolean(),
    reason: z.string().optional().describe('why it is not valid'),
  }),
);

export const mediaRefInput = lazySchema(() =>
  z.object({ mediaId: id, altText: z.string().max(ALT_TEXT_MAX).optional() }),
);
export const mediaRefSchema = lazySchema(() =>
  z.object({
    mediaId: z.string(),
    altText: z.string().optional(),
    type: z
      .enum(['image', 'gif', 'video', 'document'])
      .optional()
      .describe('absent when the media item was deleted since'),
  }),
);

export const tweetSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    content: z.string().describe('sanitised HTML: p, br, a[href http/https], strong/b, em/i, ul/ol/li'),
    plainText: z.string().describe('content without markup: block ends and <br> become newlines, entities decoded'),
    media: z.array(mediaRefSchema),
    characterCount: z.number().int().describe('grapheme clusters of plainText'),
    isValid: z
      .boolean()
      .describe(
        "non-empty and valid for every target network (the draft's selected accounts, else its social set's " +
          'accounts, else microblog)',
      ),
    position: z.number().int().describe('order in the draft, first is 0'),
    validation: z.record(z.string(), verdictSchema).describe('per target network: {count, limit, valid}'),
  }),
);
export type Tweet = z.infer<typeof tweetSchema>;

/** BCP 47, as Bluesky's `langs` and Mastodon's `language` take it (checked again by Intl on write). */
export const languageTag = lazySchema(() =>
  z
    .string()
    .trim()
    .min(2)
    .max(35)
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/, 'a BCP 47 language tag, e.g. en, de, pt-BR'),
);

/**
 * A draft's link card (docs/decisions.md §16): null = the first URL of the first post, false = none,
 * {url} = that page.
 */
export const linkCardChoice = lazySchema(() =>
  z
    .union([
      z.literal(false),
      z.object({
        url: z
          .string()
          .url()
          .max(2000)
          .refine((u) => /^https?:/i.test(u), 'an http(s) URL'),
      }),
    ])
    .nullable(),
);

export const draftSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    status: draftStatus,
    scheduledFor: timestamp.nullable(),
    socialSetId: z.string().nullable().describe('null when its social set was deleted'),
    selectedAccountIds: z.array(z.string()),
    templateId: z.string().nullable(),
    language: z.string().nullable().describe('BCP 47 tag of the posts; null = the setting defaultLanguage'),
    linkCard: linkCardChoice.describe(
      'null: a card for the first URL of the first post; false: no card; {url}: a card for that URL',
    ),
    options: postOptionsSchema.nullable().describe('post options (docs/decisions.md §11); null: none'),
    evergreen: evergreenSettings,
    tweets: z.array(tweetSchema),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type Draft = z.infer<typeof draftSchema>;

/** 1234567 → "1,234,567" without Intl (whose first use loads ICU: ~10 ms of start-up when run at module load). */
const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
// Text limits: one home, shared with the composer.
export { POST_TEXT_MAX, DRAFT_TEXT_MAX };

export const tweetInput = lazySchema(() =>
  z.object({
    content: z
      .string()
      .max(POST_TEXT_MAX, `at most 100,000 characters per post text`)
      .describe('HTML (sanitised) or plain text (newlines kept); at most 100,000 characters'),
    position: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .describe('order; positions are kept in order and renumbered 0..n-1'),
    media: z.array(mediaRefInput).max(20).optional(),
  }),
);

/** Per-network text: each network at most once; empty content removes that network's own text. */
const platformTexts = () =>
  z
    .array(
      z.object({
        platform: platformSchema,
        content: z.string().max(PLATFORM_TEXT_MAX).describe('empty removes the override'),
      }),
    )
    .max(5)
    .refine((a) => new Set(a.map((p) => p.platform)).size === a.length, 'each platform at most once');

const draftFields = () => ({
  title: z.string().trim().max(DRAFT_TITLE_MAX),
  tweets: z
    .array(tweetInput)
    .min(1)
    .max(DRAFT_POSTS_MAX)
    .superRefine((tweets, ctx) => {
      const total = tweets.reduce((n, t) => n + t.content.length, 0);
      if (total > DRAFT_TEXT_MAX)
        ctx.addIssue({
          code: 'custom',
          message: `at most 1,000,000 characters of text per draft (this one has ${groupDigits(total)})`,
        });
    })
    .describe(
      'at most 1,000,000 characters of text in all; a body over HERALD_JSON_BODY_LIMIT (1 MiB by default) is ' +
        'refused first with 413',
    ),
  socialSetId: id.optional().describe("default: the user's default social set; none at all gives 400 NO_SOCIAL_SET"),
  status: z
    .literal('draft')
    .optional()
    .describe('only draft may be set; the other statuses follow scheduling and publishing'),
  scheduledFor: dateTimeInput
    .nullable()
    .optional()
    .describe('intended time, kept on the draft; POST /microblog/schedule schedules it'),
  selectedAccountIds: z.array(id).max(100).optional(),
  templateId: id
    .nullable()
    .optional()
    .describe("the template's head becomes a paragraph before the first post, its tail one after the last"),
  language: languageTag
    .nullable()
    .optional()
    .describe('BCP 47 tag sent as Bluesky langs and Mastodon language; null = the setting defaultLanguage'),
  linkCard: linkCardChoice
    .optional()
    .describe('null (default): a card for the first URL of the first post; false: none; {url}: a card for that URL'),
  platforms: platformTexts()
    .optional()
    .describe(
      'per-network text, written with the rest in one transaction (as PUT .../platforms: networks not named ' +
        'keep theirs)',
    ),
  options: postOptionsSchema
    .nullable()
    .optional()
    .describe('post options; null clears them; on update, given options replace the whole set'),
  evergreen: evergreenBody
    .optional()
    .describe(
      'evergreen settings, written with the rest in one transaction (as PUT .../evergreen: fields left out keep ' +
        'their values)',
    ),
  templateInText: z
    .boolean()
    .optional()
    .describe(
      "true: the tweets already hold the template's head and tail; templateId is recorded, the posts are not " +
        'framed again',
    ),
});

export const createDraftBody = lazySchema(() => z.object(draftFields()));
export type CreateDraftInput = z.infer<typeof createDraftBody>;
export const updateDraftBody = lazySchema(() =>
  z
    .object(draftFields())
    .partial()
    .describe(
      'Any of the create fields; tweets, when given, replaces the whole list. A draft being published cannot ' +
        'be edited.',
    ),
);
export type UpdateDraftInput = z.infer<typeof updateDraftBody>;

export const batchBody = lazySchema(() =>
  z.object({
    drafts: z.array(createDraftBody).min(1).max(100),
    socialSetId: id.optional().describe('for drafts that name none'),
  }),
);

export const listQuery = lazySchema(() =>
  z.object({
    socialSetId: id.optional(),
    status: draftStatus.optional(),
    limit: z.coerce.number().int().min(1).max(500).optional().describe('without it every draft is returned'),
    cursor: z.string().min(1).max(500).optional().describe('nextCursor of the previous page'),
  }),
);

export const draftListItem = lazySchema(() =>
  built(draftSchema)
    .pick({
      id: true,
      title: true,
      status: true,
      tweets: true,
      createdAt: true,
      language: true,
      linkCard: true,
      options: true,
      evergreen: true,
    })
    .extend({ scheduledFor: timestamp.nullable(), socialSetId: z.string().nullable(), updatedAt: timestamp }),
);

export const draftListResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    drafts: z.array(draftListItem).describe('newest first'),
    nextCursor: z.string().nullable().describe('null on the last page (always null without limit)'),
  }),
);
export const draftResponse = lazySchema(() => z.object({ success: successTrue, draft: draftSchema }));
export const batchResponse = lazySchema(() =>
  z.object({ success: successTrue, drafts: z.array(draftSchema).describe('in input order') }),
);

export const platformContentSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    draft_uuid: z.string(),
    platform: platformSchema,
    content: z.string().describe('plain text; a line holding only --- separates thread posts'),
    created_at: timestamp,
    updated_at: timestamp,
    posts: z
      .array(z.object({ text: z.string() }).extend(built(verdictSchema).shape))
      .describe('the posts this content makes on that network, each counted by its rule'),
  }),
);
export const platformsResponse = lazySchema(() =>
  z.object({ success: successTrue, platforms: z.array(platformContentSchema) }),
);
export const putPlatformsBody = lazySchema(() => z.object({ platforms: platformTexts() }));

export const splitBody = lazySchema(() =>
  z.object({
    text: z.string().min(1).max(100_000),
    platform: platformSchema,
    accountId: id.optional().describe("count with this account's rules (a Mastodon instance's limits)"),
  }),
);
export const splitResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    platform: platformSchema,
    posts: z.array(z.object({ text: z.string() }).extend(built(verdictSchema).shape)),
  }),
);

export const networksQuery = lazySchema(() =>
  z.object({
    accountIds: z
      .string()
      .max(5000)
      .optional()
      .describe("comma-separated account ids (default: the draft's selected accounts, else its social set's)")
      .transform((v) =>
        v
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : undefined,
      ),
  }),
);
export const networksResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    networks: z.array(
      z.object({
        accountId: z.string(),
        platform: platformSchema,
        username: z.string(),
        valid: z.boolean().describe('every post fits, the options can be sent, and there is something to send'),
        dropped: droppedSchema,
        problems: droppedSchema.describe('options that make the post invalid for this network, each with the reason'),
        posts: z.array(
          z
            .object({ text: z.string(), media: z.array(mediaRefInput), sentAs: sentAsSchema() })
            .extend(built(verdictSchema).shape),
        ),
      }),
    ),
  }),
);
