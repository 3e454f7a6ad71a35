import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { sentAsSchema } from './post-options.js';
import { dateTimeInput, platformSchema, successTrue, timestamp } from './common.js';

const id = lazySchema(() => z.string().min(1).max(200));
const community = lazySchema(() =>
  z.object({
    id: z.string().regex(/^[0-9]{1,19}$/, 'a numeric X community id'),
    name: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
  }),
);

export const publishBody = lazySchema(() =>
  z.object({
    draftId: id,
    accountIds: z.array(id).max(100).optional(),
    jobId: z.string().min(1).max(100).optional(),
    community: community.optional(),
    force: z.boolean().optional().describe('publish again to targets already published'),
    async: z.boolean().optional().describe('answer 202 {jobId} at once; follow progress'),
    dryRun: z.boolean().optional().describe('validate and answer the plan; nothing is sent, charged or stored'),
  }),
);

export const multiPublishBody = lazySchema(() =>
  z.object({
    draftId: id,
    targetAccounts: z
      .array(
        z.object({
          accountId: id,
          platform: platformSchema,
          communityId: z
            .string()
            .regex(/^[0-9]{1,19}$/)
            .optional(),
        }),
      )
      .min(1)
      .max(100),
    jobId: z.string().min(1).max(100).optional(),
    force: z.boolean().optional(),
    async: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  }),
);

export const targetResult = lazySchema(() =>
  z.object({
    accountId: z.string(),
    platform: platformSchema,
    success: z.boolean(),
    skipped: z.boolean().optional().describe('already published: not sent again, not charged'),
    status: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('microblog {tweetId, url, tweetIds}; skyblog {uri, cid, url}; others {id, url}'),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
);

export const summary = lazySchema(() =>
  z.object({ total: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }),
);

export const publishResponse = lazySchema(() =>
  z.object({
    success: z.boolean(),
    jobId: z.string(),
    draftId: z.string(),
    results: z.array(targetResult),
    summary,
    warnings: z.array(z.string()).optional().describe('went ahead over the X monthly spend cap, which is set to warn'),
  }),
);
export const multiPublishResponse = publishResponse;
export const acceptedResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    jobId: z.string(),
    draftId: z.string(),
    warnings: z.array(z.string()).optional().describe('went ahead over the X monthly spend cap, which is set to warn'),
  }),
);

export const progressQuery = lazySchema(() =>
  z
    .object({ draftId: id.optional(), jobId: z.string().min(1).max(100).optional() })
    .refine((q) => q.draftId || q.jobId, 'draftId or jobId is required'),
);
const threadPart = lazySchema(() =>
  z.object({
    position: z.number().int().describe('0 is the first part'),
    status: z
      .enum(['pending', 'sending', 'sent', 'unconfirmed', 'failed'])
      .describe(
        'sending: handed to the network, its answer not back yet; unconfirmed: an attempt ended without knowing ' +
          'whether the network took it, so the next attempt looks for it before sending it again',
      ),
    url: z.string().nullable().describe('the sent part on the network'),
    sentAs: z
      .enum(['post', 'reply', 'comment'])
      .describe(
        'post: the first part; reply: a reply to the part before it; comment: a comment on the post (LinkedIn)',
      ),
  }),
);
export const progressEntry = lazySchema(() =>
  z.object({
    id: z.string(),
    draftId: z.string().nullable(),
    status: z
      .enum([
        'pending',
        'handed_off',
        'publishing',
        'published',
        'failed',
        'needs_review',
        'missed',
        'cancelled',
        'skipped',
      ])
      .describe(
        'handed_off: the network holds the post and publishes it itself at scheduledFor (Mastodon hand-off); ' +
          'skipped: an evergreen repeat left this network out, `error` says why',
      ),
    platform: platformSchema,
    accountUuid: z.string(),
    networkScheduledId: z
      .string()
      .nullable()
      .optional()
      .describe("handed_off: the network's id of the scheduled post (Mastodon ScheduledStatus id)"),
    handedOffTo: z.string().nullable().optional().describe('handed_off: the instance (host) that publishes it'),
    handOffNote: z
      .string()
      .nullable()
      .optional()
      .describe(
        'why a post that could have been handed off is sent by Herald itself (the instance refused it, a thread)',
      ),
    scheduledFor: timestamp.nullable(),
    publishedAt: timestamp.nullable(),
    url: z.string().nullable(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    waitingFor: z
      .enum(['storage', 'quota', 'network', 'reconnect', 'processing'])
      .nullable()
      .describe(
        'what a pending entry waits for before its next attempt: storage (the disk is full), quota, network, ' +
          'reconnect (the person must give Herald its access to the account back: reconnect it, or unlock the ' +
          'encrypted secret store after a restart, when `error` says "secret store locked: unlock Herald to ' +
          'send"; it is then sent at once, uncharged until then); processing (being sent: the network is still ' +
          'processing its video); null when nothing',
      ),
    nextAttemptAt: timestamp.nullable().describe('when a waiting entry is tried again'),
    /** The spec's code when the failure has one (INSUFFICIENT_CREDITS, TOKEN_EXPIRED, ...). */
    errorCode: z.string().nullable().optional(),
    /** What happened and what happens next, in one sentence (text/status-text.ts). */
    statusText: z.string().optional(),
    parts: z
      .array(threadPart)
      .optional()
      .describe('a thread (more than one part): each part as it stands, in order; absent for a single post'),
  }),
);
export const progressResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    entries: z.array(progressEntry),
    summary: z.object({
      total: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
    }),
  }),
);

const langs = lazySchema(() =>
  z
    .array(z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'a BCP-47 language tag'))
    .min(1)
    .max(3),
);
const mediaUrls = lazySchema(() => z.array(z.string().url()).max(4));

/** dryRun on the single-network endpoints and quotes (text given directly). */
const directDryRun = lazySchema(() =>
  z
    .boolean()
    .optional()
    .describe(
      'answer the plan (what the network would receive, credits, X cost; media URLs are checked, not ' +
        'fetched); nothing is sent, charged or stored',
    ),
);

/** skyblog and fedblog: type single needs text; type thread needs texts. */
export const textPublishBody = lazySchema(() =>
  z
    .object({
      accountUuid: id,
      type: z.enum(['single', 'thread']),
      text: z.string().min(1).max(10_000).optional(),
      texts: z.array(z.string().min(1).max(10_000)).min(1).max(50).optional(),
      imageUrls: mediaUrls.optional(),
      langs: langs.optional(),
      dryRun: directDryRun,
    })
    .superRefine((b, ctx) => {
      if (b.type === 'single' && !b.text)
        ctx.addIssue({ code: 'custom', path: ['text'], message: 'text is required when type is single' });
      if (b.type === 'thread' && !b.texts)
        ctx.addIssue({ code: 'custom', path: ['texts'], message: 'texts is required when type is thread' });
    }),
);

/** The fields a single-network body shares on the networks that take media by URL (Threads, LinkedIn). */
const byUrlFields = (textMax: number, mediaMax: number) => ({
  accountId: id,
  draftId: id.optional(),
  text: z.string().min(1).max(textMax).optional(),
  mediaUrls: z.array(z.string().url()).max(mediaMax).optional(),
});
const byUrlDryRun = () =>
  z
    .boolean()
    .optional()
    .describe(
      'answer the plan (of the draft, or of text and mediaUrls; media URLs are checked, not fetched); ' +
        'nothing is sent, charged or stored',
    );
const hasByUrlContent = (b: { draftId?: string; text?: string; mediaUrls?: string[] }) =>
  Boolean(b.draftId || b.text || b.mediaUrls?.length);
const BY_URL_CONTENT = { message: 'draftId, text or mediaUrls is required', path: ['text'] };

export const threadblogPublishBody = lazySchema(() =>
  z
    .object({
      ...byUrlFields(500, 10),
      replyControl: z.enum(['everyone', 'accounts_you_follow', 'mentioned_only']).optional(),
      dryRun: byUrlDryRun(),
    })
    .refine(hasByUrlContent, BY_URL_CONTENT),
);

export const problogPublishBody = lazySchema(() =>
  z
    .object({
      ...byUrlFields(3000, 20),
      visibility: z.enum(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN']).optional(),
      dryRun: byUrlDryRun(),
    })
    .refine(hasByUrlContent, BY_URL_CONTENT),
);

export const singlePublishResponse = lazySchema(() =>
  z.object({
    success: z.boolean(),
    platform: platformSchema,
    accountId: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
);

export const quoteBody = lazySchema(() =>
  z.object({
    content: z.string().min(1).max(10_000),
    quoteTweetId: z.string().regex(/^[0-9]{1,19}$/, 'a numeric X post id'),
    accountId: id,
    dryRun: z
      .boolean()
      .optional()
      .describe('answer the plan (what X would receive, credits, X cost); nothing is sent, charged or stored'),
  }),
);
export const quoteResponse = lazySchema(() =>
  z.object({ success: successTrue, message: z.string(), tweetId: z.string(), url: z.string() }),
);

export const historyQuery = lazySchema(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    status: z
      .enum(['pending', 'publishing', 'published', 'failed', 'needs_review', 'missed', 'cancelled', 'skipped'])
      .optional(),
    platform: platformSchema.optional().describe('only this network'),
    from: dateTimeInput
      .optional()
      .describe('published (or last changed) at or after this instant, ISO 8601 with Z or an offset'),
    to: dateTimeInput.optional().describe('published (or last changed) before this instant'),
    q: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('text in the draft title, account, link or error, case-insensitive'),
  }),
);
export const historyResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    publications: z.array(
      z.object({
        id: z.string(),
        draftId: z.string().nullable(),
        draftTitle: z.string().nullable(),
        accountId: z.string(),
        username: z.string().nullable(),
        platform: platformSchema,
        status: z.string(),
        error: z.string().nullable(),
        url: z.string().nullable(),
        attempts: z.number().int(),
        publishedAt: timestamp.nullable(),
        updatedAt: timestamp,
        errorCode: z.string().nullable(),
        /** An automatic retry is queued for this instant: the post offers no Retry meanwhile. */
        nextAttemptAt: timestamp.nullable(),
        statusText: z.string(),
        /** Whether a person's Retry makes sense: failed or missed, no automatic retry queued. */
        canRetry: z.boolean(),
        /** Taken down on its network through Herald. */
        deletedAt: timestamp.nullable(),
        /** Last edited on its network through Herald. */
        editedAt: timestamp.nullable(),
        parts: z
          .object({ sent: z.number().int(), total: z.number().int() })
          .nullable()
          .optional()
          .describe('a thread: how many of its parts the network holds, of how many; null for a single post'),
        sentText: z.string().nullable().describe("the first post's text as sent (140 characters at most)"),
        draftDeleted: z.boolean().describe('its draft was deleted since (draftId and draftTitle are null)'),
      }),
    ),
  }),
);
export const reviewBody = lazySchema(() =>
  z.object({ publicationId: id, outcome: z.enum(['published', 'not_published']) }),
);

/**
 * The answer of `dryRun: true` (docs/decisions.md §11): what each account would receive and cost.
 * linkCard is the card a post would carry, language the tag sent with it; xCostUsd uses X's
 * 2026 pay-per-use prices ($0.015 a post, $0.200 with a URL) until they are settings.
 */
export const dryRunResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    dryRun: z.literal(true),
    plan: z.array(
      z.object({
        accountId: z.string(),
        platform: platformSchema,
        posts: z.array(
          z.object({
            text: z.string(),
            media: z.array(z.record(z.string(), z.unknown())),
            linkCard: z
              .object({
                url: z.string(),
                title: z.string().optional(),
                description: z.string().optional(),
                imageUrl: z.string().nullable().optional(),
                siteName: z.string().nullable().optional(),
              })
              .nullable()
              .describe(
                "the card this post would carry (Bluesky, LinkedIn; the page's facts when Herald has read it " +
                  'already); null when none is sent (X, Mastodon and Threads build their own)',
              ),
            language: z.string().nullable().describe('the BCP 47 tag sent (Bluesky langs, Mastodon language)'),
            sentAs: sentAsSchema(),
          }),
        ),
        dropped: z
          .array(z.object({ option: z.string(), reason: z.string() }))
          .optional()
          .describe("the draft's post options this network does not take, each with the reason; absent: none"),
        credits: z.number().int(),
        skipped: z.boolean().optional().describe('already published: not sent again unless force'),
      }),
    ),
    credits: z.object({ needed: z.number().int(), balance: z.number().int() }),
    xCostUsd: z.number(),
    warnings: z
      .array(z.string())
      .optional()
      .describe(
        "a scheduling dry run's warnings, as the schedule would answer them (X spend cap, credits falling short)",
      ),
  }),
);
