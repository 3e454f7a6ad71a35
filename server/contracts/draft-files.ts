/**
 * Drafts as files (issue #24 item 5, docs/decisions.md §17): the one model that Markdown, JSON and CSV
 * are read into and written from. JSON is this model as it is; Markdown puts every field but the
 * posts in YAML front matter and the posts after it; CSV fills it from one row.
 */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { platformSchema, successTrue } from './common.js';
import { draftSchema, linkCardChoice } from './drafts.js';
import { postOptionsSchema } from './post-options.js';
import { evergreenBody } from './evergreen.js';
import { ALT_TEXT_MAX } from '../../text/draft-limits.js';

export const FILE_FORMAT = 'herald-draft/1';

/** A media item of one post: `id` of an item already in Herald, or `path` of a file the CLI uploads first. */
export const fileMedia = lazySchema(() =>
  z
    .object({
      post: z.number().int().min(1).max(100).describe('the post it belongs to, first is 1'),
      id: z.string().min(1).max(200).optional().describe('a media id (from POST /microblog/media/upload)'),
      path: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe(
          'a file path; only `herald draft import` reads it (it uploads the file and puts its id here); the ' +
            'server refuses a path',
        ),
      alt: z.string().max(ALT_TEXT_MAX).optional(),
    })
    .refine((m) => m.id !== undefined || m.path !== undefined, 'give id or path'),
);
export type FileMedia = z.infer<typeof fileMedia>;

export const filePost = lazySchema(() =>
  z.object({
    text: z.string().max(100_000).describe('plain text, as every network receives it'),
    html: z
      .string()
      .max(200_000)
      .optional()
      .describe('JSON only: the exact HTML content (bold, links); wins over text on import'),
  }),
);

const count = () => z.number().int().nullable();
/** A published copy of the draft and its latest counts: written by an export, ignored by an import. */
export const fileMetrics = lazySchema(() =>
  z.object({
    platform: platformSchema,
    account: z.string().describe("the account's @username, or its id"),
    url: z.string().nullable(),
    publishedAt: z.string(),
    deletedAt: z.string().nullable().optional(),
    fetchedAt: z.string().nullable().describe('when the counts were read; null: not read yet'),
    likes: count(),
    reposts: count(),
    replies: count(),
    quotes: count(),
    impressions: count(),
  }),
);

export const draftFile = lazySchema(() =>
  z.object({
    format: z.literal(FILE_FORMAT).optional(),
    title: z.string().max(500).optional(),
    networks: z
      .array(z.string().min(1).max(200))
      .max(100)
      .optional()
      .describe(
        'target accounts: a network (X, Bluesky, Mastodon, Threads, LinkedIn in any case, or the API words ' +
          "microblog, skyblog...) for every account of that network, an account's @username or its id; none: " +
          "the social set's accounts",
      ),
    platforms: z
      .partialRecord(platformSchema, z.string().max(100_000))
      .optional()
      .describe('per-network text; a line holding only --- separates thread posts'),
    scheduledFor: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .describe(
        'ISO 8601 with Z or an offset; or a local time (2026-12-01T09:30) read in timeZone. Kept on the ' +
          'draft: POST /microblog/schedule (or `herald draft import --schedule`) schedules it',
      ),
    timeZone: z
      .string()
      .max(100)
      .nullable()
      .optional()
      .describe('IANA zone: a label for scheduledFor, and the zone of a local time'),
    language: z
      .string()
      .max(35)
      .nullable()
      .optional()
      .describe("BCP 47 language of the posts (the draft's language); none: the setting defaultLanguage"),
    linkCard: linkCardChoice
      .optional()
      .describe('false: no link card; {url}: a card for that page; none: the first link of the first post'),
    options: postOptionsSchema
      .nullable()
      .optional()
      .describe('post options (poll, replyControl, contentWarning, ...), as on the draft'),
    socialSetId: z.string().max(200).nullable().optional(),
    evergreen: evergreenBody.optional().describe("the draft's evergreen settings, as PUT .../evergreen takes them"),
    media: z.array(fileMedia).max(400).optional(),
    posts: z.array(filePost).min(1).max(100),
    metrics: z
      .array(fileMetrics)
      .max(1000)
      .optional()
      .describe('export only: where the draft was published and its latest counts (null: not said); ignored on import'),
  }),
);
export type DraftFile = z.infer<typeof draftFile>;

/** The two file formats of a draft: Markdown with YAML front matter, and JSON. */
export const fileFormat = lazySchema(() => z.enum(['md', 'json']));

export const exportQuery = lazySchema(() =>
  z.object({
    format: fileFormat.default('md'),
    timeZone: z
      .string()
      .max(100)
      .optional()
      .describe('write scheduledFor in this IANA zone (with its offset) and name it; default UTC'),
  }),
);

const flag = (fallback: boolean, what: string) =>
  z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true'))
    .describe(what);

export const importQuery = lazySchema(() =>
  z.object({
    dryRun: flag(false, 'read and check only: nothing is created; `parsed` shows what would be'),
    schedule: flag(
      false,
      'true: schedule each draft that has scheduledFor (one entry per target account, as POST ' +
        '/microblog/schedule); default: the time stays on the draft',
    ),
    applyJitter: flag(
      false,
      'with schedule: give each entry its own offset in [-180 s, +180 s] (default: at the time given)',
    ),
  }),
);

export const importResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    drafts: z.array(draftSchema).describe('the drafts created, in file order (none with dryRun)'),
    parsed: z.array(draftFile).describe('the files as read'),
    scheduled: z
      .array(z.object({ draftId: z.string(), queueIds: z.array(z.string()) }))
      .describe('with schedule=true: the drafts scheduled and their entries (GET /microblog/schedule)'),
  }),
);

export const csvQuery = lazySchema(() =>
  z.object({
    dryRun: flag(false, 'preview: nothing is created (rows that could not be scheduled are still named)'),
    partial: flag(false, 'import the good rows even when some are wrong (default: nothing when any row is wrong)'),
    schedule: flag(
      true,
      'default true: each row with a scheduledFor is scheduled (one entry per target account); false: drafts only',
    ),
    applyJitter: flag(
      false,
      "give each scheduled entry its own offset in [-180 s, +180 s] (default: at the row's time)",
    ),
  }),
);

export const rowError = lazySchema(() =>
  z.object({
    row: z.number().int().describe('as a spreadsheet numbers it: the header is row 1'),
    column: z
      .string()
      .describe('text, networks, scheduledFor, timeZone, media or language (or "row" for the whole row)'),
    message: z.string(),
  }),
);
export type RowError = z.infer<typeof rowError>;

export const csvResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    dryRun: z.boolean(),
    imported: z.number().int().describe('drafts created (with dryRun: that would be created)'),
    drafts: z.array(
      z.object({
        row: z.number().int(),
        id: z.string().nullable().describe('null with dryRun'),
        scheduledFor: z.string().nullable(),
        queueIds: z
          .array(z.string())
          .describe(
            'the schedule entries made for this row, one per target account (empty when not scheduled, and ' +
              'with dryRun)',
          ),
      }),
    ),
    errors: z.array(rowError),
  }),
);
