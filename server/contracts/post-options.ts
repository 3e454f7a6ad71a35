/**
 * A draft's post options (docs/decisions.md §11 "Post options, written once"). The bounds here
 * are the widest any network takes; what one network cannot take is listed per network as
 * `dropped` (text/post-options.ts), never refused here.
 */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import {
  CONTENT_WARNING_MAX,
  POLL_LIMITS,
  QUOTE_CONTROLS,
  REPLY_CONTROLS,
  SELF_LABELS,
  TOPIC_TAG_MAX,
  VISIBILITIES,
} from '../../text/post-options.js';
import { parseQuoteUrl } from '../../text/quote-url.js';

const pollSchema = () =>
  z.object({
    choices: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'a choice cannot be empty')
          .max(POLL_LIMITS.choiceMax, `at most ${POLL_LIMITS.choiceMax} characters per choice`),
      )
      .min(POLL_LIMITS.minChoices, `at least ${POLL_LIMITS.minChoices} choices`)
      .max(POLL_LIMITS.maxChoices, `at most ${POLL_LIMITS.maxChoices} choices`)
      .refine((c) => new Set(c.map((s) => s.toLowerCase())).size === c.length, 'each choice once')
      .describe('2 to 4 choices; X and Threads take 25 characters each, LinkedIn 30, Mastodon its instance limit'),
    durationMinutes: z
      .number()
      .int()
      .min(POLL_LIMITS.minMinutes)
      .max(POLL_LIMITS.maxMinutes)
      .describe(
        "5 minutes to 30 days; over a network's maximum the post is invalid there (X 7 days, Threads 24 hours, " +
          'LinkedIn 14 days, rounded up to 1, 3, 7 or 14 days)',
      ),
    multiple: z.boolean().optional().describe('several choices per person (X: no; Mastodon: yes)'),
    question: z
      .string()
      .trim()
      .min(1)
      .max(POLL_LIMITS.questionMax)
      .optional()
      .describe("LinkedIn's poll question; default: the post's text when it is at most 140 characters"),
  });

export const postOptionsSchema = lazySchema(() =>
  z
    .object({
      poll: pollSchema().nullable().optional(),
      pollFallback: z
        .literal('text')
        .nullable()
        .optional()
        .describe('Bluesky has no polls: "text" appends the choices as numbered lines there'),
      replyControl: z
        .enum(REPLY_CONTROLS)
        .nullable()
        .optional()
        .describe('who may reply (X, Threads, Bluesky threadgate)'),
      quoteControl: z
        .enum(QUOTE_CONTROLS)
        .nullable()
        .optional()
        .describe('who may quote (Bluesky postgate, Mastodon quote policy, LinkedIn reshares)'),
      contentWarning: z
        .string()
        .trim()
        .max(CONTENT_WARNING_MAX)
        .nullable()
        .optional()
        .describe('Mastodon spoiler_text; on Threads the whole text becomes a spoiler'),
      sensitiveMedia: z.boolean().nullable().optional().describe('Mastodon sensitive, Threads is_spoiler_media'),
      selfLabels: z
        .array(z.enum(SELF_LABELS))
        .max(SELF_LABELS.length)
        .refine((a) => new Set(a).size === a.length, 'each label once')
        .nullable()
        .optional()
        .describe('Bluesky self labels'),
      visibility: z
        .enum(VISIBILITIES)
        .nullable()
        .optional()
        .describe('Mastodon (followers = private) and LinkedIn (followers = CONNECTIONS)'),
      topicTag: z
        .string()
        .trim()
        .min(1)
        .max(TOPIC_TAG_MAX)
        .regex(/^[^.&]+$/, 'a topic tag cannot hold "." or "&"')
        .nullable()
        .optional()
        .describe('Threads topic tag: 1 to 50 characters, no "." or "&"'),
      quoteUrl: z
        .string()
        .max(2000)
        .refine((u) => parseQuoteUrl(u) !== null, 'not a post on X, Bluesky, Mastodon, Threads or LinkedIn')
        .nullable()
        .optional()
        .describe('a post to quote; the network it is on quotes it, the others list it as dropped'),
      aiGenerated: z.boolean().nullable().optional().describe('X disclosure: made with AI'),
      paidPartnership: z.boolean().nullable().optional().describe('X disclosure: paid partnership'),
    })
    .describe('post options, each optional (null or absent: the network default); docs/decisions.md §11'),
);
export type PostOptionsInput = z.infer<typeof postOptionsSchema>;

export const droppedSchema = lazySchema(() =>
  z
    .array(z.object({ option: z.string(), reason: z.string() }))
    .describe('options this network does not take, each with the reason'),
);

/** How a part goes out, made where it is used (contracts are built lazily). */
export const sentAsSchema = () =>
  z
    .literal('comment')
    .optional()
    .describe("'comment': LinkedIn publishes this part as a comment on the thread's first post; absent: a post");
