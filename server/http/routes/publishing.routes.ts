import type { Platform } from '../../core/config.js';
import * as c from '../../contracts/publishing.js';
import { messageResponse } from '../../contracts/common.js';
import { targetError } from '../../domain/publishing/publish.service.js';
import type { DirectPublish, PublishRequest } from '../../domain/publishing/model.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';

const tag = 'Publishing';
const publishErrors = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'INSUFFICIENT_CREDITS',
  'SPEND_CAP_REACHED',
  'RATE_LIMITED',
  'SECRET_STORE_LOCKED',
] as const;

/** Bluesky's and Mastodon's endpoints name their media imageUrls, the others mediaUrls. */
const urlField = (platform: Platform) => (platform === 'skyblog' || platform === 'fedblog' ? 'imageUrls' : 'mediaUrls');

export const publishingRoutes = (s: Services): RouteDef[] => {
  /**
   * The single-network endpoints and quotes (text given directly). With dryRun: true the same
   * plan answers what would be sent (media URLs are checked, not fetched), and nothing is.
   */
  const single = async (
    platform: Platform,
    accountId: string,
    texts: string[],
    urls: string[] | undefined,
    options: DirectPublish['options'],
    auth: { user: { id: string } },
  ) =>
    s.publishing
      .publishDirect(
        auth.user.id,
        { platform, accountId, texts, media: [], options },
        {
          urls: urls ?? [],
          field: urlField(platform),
          load: (list) => s.media.refsFromUrls(auth.user.id, platform, list),
          peek: (list) => s.media.refsFromUrls(auth.user.id, platform, list, { fetch: false }),
        },
      )
      .then((r) => {
        if (!r.success) throw targetError(r, Date.now());
        return { success: true, platform, accountId, data: r.data! };
      });
  const singleDryRun = (
    platform: Platform,
    accountId: string,
    texts: string[],
    urls: string[] | undefined,
    options: DirectPublish['options'],
    auth: { user: { id: string } },
  ) =>
    s.publishing.dryRunDirect(
      auth.user.id,
      { platform, accountId, texts, media: [], options },
      {
        urls: urls ?? [],
        field: urlField(platform),
        load: (list) => s.media.refsFromUrls(auth.user.id, platform, list, { fetch: false }),
      },
    );

  /**
   * The draft publish endpoints: the body names the request; with async: true the answer is 202
   * {jobId} at once and the publish runs on, else the answer waits for every target.
   */
  const publishDraft =
    <B extends { async?: boolean; dryRun?: boolean }>(request: (body: B) => PublishRequest) =>
    async ({
      auth,
      body,
      res,
    }: {
      auth: { user: { id: string } };
      body: B;
      res: { status(code: number): { json(body: unknown): unknown } };
    }) => {
      const req = request(body);
      if (body.dryRun) return s.publishing.dryRun(auth.user.id, req);
      if (body.async) {
        const r = await s.publishing.publishDraft(auth.user.id, req, true);
        res.status(202).json({
          success: true,
          jobId: r.jobId,
          draftId: r.draftId,
          ...(r.warnings?.length ? { warnings: r.warnings } : {}),
        });
        return undefined;
      }
      return s.publishing.publishDraft(auth.user.id, req);
    };

  return [
    defineRoute({
      method: 'post',
      idempotent: true,
      path: '/microblog/publish',
      tag,
      summary: 'Publish a draft now to its accounts (or the given ones)',
      description:
        'Answers when every target is done: {success, jobId, draftId, results, summary}; success is true ' +
        'only if every target succeeded. With async: true answers 202 {jobId} at once. With dryRun: true ' +
        'answers {success, dryRun, plan, credits: {needed, balance}, xCostUsd} and sends, charges and stores ' +
        'nothing. Costs 10 credits per target account (a thread counts once), reserved before anything is ' +
        'sent; failed targets are refunded. Targets already published are skipped unless force.',
      body: c.publishBody,
      response: c.publishResponse,
      accepted: c.acceptedResponse,
      errors: [...publishErrors],
      handler: publishDraft(({ draftId, accountIds, jobId, community, force }) => ({
        draftId,
        accountIds,
        jobId,
        community,
        force,
      })),
    }),
    defineRoute({
      method: 'post',
      idempotent: true,
      path: '/publish/multi-platform',
      tag,
      summary: 'Publish one draft to several accounts at once (10 credits per account)',
      body: c.multiPublishBody,
      response: c.multiPublishResponse,
      accepted: c.acceptedResponse,
      errors: [...publishErrors],
      handler: publishDraft(({ draftId, targetAccounts, jobId, force }) => ({ draftId, targetAccounts, jobId, force })),
    }),
    defineRoute({
      method: 'post',
      idempotent: true,
      path: '/microblog/quote',
      tag,
      summary: 'Quote an X post (10 credits)',
      description:
        'With dryRun: true answers {success, dryRun, plan, credits: {needed, balance}, xCostUsd} and sends, ' +
        'charges and stores nothing (402 when the credits would be short).',
      body: c.quoteBody,
      response: c.quoteResponse,
      errors: [...publishErrors, 'PLATFORM_ERROR', 'TOKEN_EXPIRED'],
      handler: async ({ auth, body }) => {
        const options = { quote: { id: body.quoteTweetId, url: `https://x.com/i/web/status/${body.quoteTweetId}` } };
        if (body.dryRun) return singleDryRun('microblog', body.accountId, [body.content], [], options, auth);
        const r = await single('microblog', body.accountId, [body.content], [], options, auth);
        return { success: true, message: 'Quote published', tweetId: String(r.data.tweetId), url: String(r.data.url) };
      },
    }),
    ...(['skyblog', 'fedblog'] as const).map((platform) =>
      defineRoute({
        method: 'post',
        idempotent: true,
        path: `/${platform}/publish`,
        tag,
        summary: `Publish text (single or thread) to one ${platform} account (10 credits)`,
        description:
          "imageUrls: this server's media URLs or public http(s) URLs. langs default: the draft-less " +
          'default, the setting defaultLanguage. A link in the first text gets a link card on Bluesky (built ' +
          'by Herald; images win over it). With dryRun: true answers {success, dryRun, plan, credits: ' +
          '{needed, balance}, xCostUsd} and sends, charges and stores nothing (402 when the credits would be ' +
          'short).',
        body: c.textPublishBody,
        response: c.singlePublishResponse,
        errors: [...publishErrors, 'PLATFORM_ERROR', 'TOKEN_EXPIRED'],
        handler: ({ auth, body }) =>
          (body.dryRun ? singleDryRun : single)(
            platform,
            body.accountUuid,
            body.type === 'single' ? [body.text!] : body.texts!,
            body.imageUrls,
            body.langs ? { langs: body.langs } : {},
            auth,
          ),
      }),
    ),
    defineRoute({
      method: 'post',
      idempotent: true,
      path: '/threadblog/publish',
      tag,
      summary: 'Publish to a Threads account (10 credits)',
      description:
        'Use a draft, or text (max 500) and mediaUrls. Threads fetches media itself, so mediaUrls must be ' +
        "public URLs; this server's own media cannot go to Threads by URL. With dryRun: true answers " +
        '{success, dryRun, plan, credits: {needed, balance}, xCostUsd} and sends, charges and stores nothing ' +
        '(402 when the credits would be short).',
      body: c.threadblogPublishBody,
      response: c.singlePublishResponse,
      errors: [...publishErrors, 'PLATFORM_ERROR', 'TOKEN_EXPIRED'],
      handler: async ({ auth, body }) => {
        if (body.draftId && body.dryRun)
          return s.publishing.dryRun(auth.user.id, {
            draftId: body.draftId,
            targetAccounts: [{ accountId: body.accountId, platform: 'threadblog' }],
          });
        if (body.draftId)
          return s.publishing.publishDraftTo(auth.user.id, body.draftId, body.accountId, 'threadblog', {
            replyControl: body.replyControl,
          });
        return (body.dryRun ? singleDryRun : single)(
          'threadblog',
          body.accountId,
          [body.text ?? ''],
          body.mediaUrls,
          { replyControl: body.replyControl },
          auth,
        );
      },
    }),
    defineRoute({
      method: 'post',
      idempotent: true,
      path: '/problog/publish',
      tag,
      summary: 'Publish to a LinkedIn account (10 credits)',
      description:
        "Use a draft (its first post as the post, the others as the post's comments, in order), or text " +
        '(max 3000) and mediaUrls. With dryRun: ' +
        'true answers {success, dryRun, plan, credits: {needed, balance}, xCostUsd} and sends, charges and ' +
        'stores nothing (402 when the credits would be short).',
      body: c.problogPublishBody,
      response: c.singlePublishResponse,
      errors: [...publishErrors, 'PLATFORM_ERROR', 'TOKEN_EXPIRED'],
      handler: async ({ auth, body }) => {
        if (body.draftId && body.dryRun)
          return s.publishing.dryRun(auth.user.id, {
            draftId: body.draftId,
            targetAccounts: [{ accountId: body.accountId, platform: 'problog' }],
          });
        if (body.draftId)
          return s.publishing.publishDraftTo(auth.user.id, body.draftId, body.accountId, 'problog', {
            visibility: body.visibility ?? 'PUBLIC',
          });
        return (body.dryRun ? singleDryRun : single)(
          'problog',
          body.accountId,
          [body.text ?? ''],
          body.mediaUrls,
          { visibility: body.visibility ?? 'PUBLIC' },
          auth,
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/publish/history',
      tag,
      summary: 'Recent publications, newest first, with errors explained',
      query: c.historyQuery,
      response: c.historyResponse,
      errors: ['INVALID_INPUT'],
      handler: ({ auth, query }) => ({ success: true, publications: s.publishing.history(auth.user.id, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/publish/review',
      tag,
      summary: 'Settle a publication held for review: it went out, or it did not',
      description:
        'Herald holds a post as needs_review when a network may have published it without confirming and ' +
        'cannot be asked. published: mark it done. not_published: the next publish sends it.',
      body: c.reviewBody,
      response: messageResponse,
      errors: ['INVALID_INPUT', 'NOT_FOUND'],
      handler: ({ auth, body }) => {
        s.publishing.resolveReview(auth.user.id, body.publicationId, body.outcome);
        return {
          success: true,
          message: body.outcome === 'published' ? 'Marked as published' : 'Marked as not published',
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/microblog/publish/progress',
      tag,
      summary: 'Where each target of a draft (or job) stands',
      description:
        'One entry per draft and account (latest publication, or pending schedule entry). Summary: completed ' +
        '= published; failed = failed + missed + needs_review; pending = pending + publishing.',
      query: c.progressQuery,
      response: c.progressResponse,
      errors: ['INVALID_INPUT', 'NOT_FOUND'],
      handler: ({ auth, query }) => ({ success: true, ...s.publishing.progress(auth.user.id, query) }),
    }),
  ];
};
