import { idParam, messageResponse } from '../../contracts/common.js';
import * as c from '../../contracts/drafts.js';
import type { Services } from '../../domain/services.js';
import { sendJsonBytes } from '../dispatch.js';
import { defineRoute } from '../route.js';

const tag = 'Drafts';
const base = ['INVALID_API_KEY', 'RATE_LIMITED'] as const;

/**
 * Each kept draft list (drafts.service returns the same object while the database is unchanged)
 * as the JSON body of GET /microblog/drafts, encoded as UTF-8 once: a list of a few dozen drafts
 * is tens of kB, and encoding it again for each request cost a fifth of the request. Bytes are
 * the HTTP layer's; the list goes with its body when the service lets it go.
 */
function listBodies() {
  const bodies = new WeakMap<object, Buffer>();
  return (list: object): Buffer => {
    let body = bodies.get(list);
    if (!body) bodies.set(list, (body = Buffer.from(JSON.stringify({ success: true, ...list }))));
    return body;
  };
}

export const draftRoutes = (s: Services, listBody = listBodies()) => [
  defineRoute({
    method: 'get',
    path: '/microblog/drafts',
    tag,
    summary: 'List drafts, newest first',
    description:
      'Without `limit` every draft is returned. With it, pages follow `nextCursor`. Each item carries id, ' +
      'title, status, tweets, createdAt (and scheduledFor, socialSetId, updatedAt).',
    query: c.listQuery,
    response: c.draftListResponse,
    errors: [...base, 'INVALID_INPUT'],
    handler: ({ auth, query, req, res }) => {
      sendJsonBytes(req, res, listBody(s.drafts.list(auth.user.id, query)));
    },
  }),
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/drafts',
    tag,
    summary: 'Create a draft',
    description:
      'Post content is HTML sanitised to p, br, a[href http/https], strong/b, em/i, ul/ol/li (plain text ' +
      'without tags is kept with its newlines). Positions are kept in order and renumbered 0..n-1. Without ' +
      'socialSetId the default social set is used; a user with no social set gets 400 NO_SOCIAL_SET. Each ' +
      'post carries its count, limit and validity for every target network.',
    body: c.createDraftBody,
    response: c.draftResponse,
    errors: [...base, 'INVALID_INPUT', 'NO_SOCIAL_SET', 'NOT_FOUND'],
    handler: ({ auth, body }) => ({ success: true, draft: s.drafts.create(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'post',
    idempotent: true,
    path: '/microblog/drafts/batch',
    tag,
    summary: 'Create up to 100 drafts, all or nothing',
    description: 'One transaction: if any draft is invalid, none is created. Answers the full drafts in input order.',
    body: c.batchBody,
    response: c.batchResponse,
    errors: [...base, 'INVALID_INPUT', 'NO_SOCIAL_SET', 'NOT_FOUND'],
    handler: ({ auth, body }) => ({ success: true, drafts: s.drafts.createBatch(auth.user.id, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/microblog/drafts/split',
    tag,
    summary: 'Split long text into posts that fit one network',
    description:
      'Breaks at paragraph and sentence ends, then at spaces, never inside a URL, mention or hashtag (unless ' +
      'one alone is longer than a post) nor inside a grapheme. Every post is a slice of the text; only ' +
      'whitespace lies between posts.',
    body: c.splitBody,
    response: c.splitResponse,
    errors: [...base, 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, body }) => ({
      success: true,
      platform: body.platform,
      posts: s.drafts.split(auth.user.id, body),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/microblog/drafts/:id',
    tag,
    summary: 'One draft',
    params: idParam,
    response: c.draftResponse,
    errors: [...base, 'NOT_FOUND'],
    handler: ({ auth, params }) => ({ success: true, draft: s.drafts.get(auth.user.id, params.id) }),
  }),
  defineRoute({
    method: 'put',
    path: '/microblog/drafts/:id',
    tag,
    summary: 'Update a draft',
    description:
      'Takes the create fields, all optional; `tweets` replaces the whole list (a `templateId` given with ' +
      'them frames them as at creation; alone it is only recorded). status may only go back to draft (not ' +
      'from scheduled: cancel the schedule). A draft being published cannot be edited (400 INVALID_INPUT).',
    params: idParam,
    body: c.updateDraftBody,
    response: c.draftResponse,
    errors: [...base, 'INVALID_INPUT', 'NOT_FOUND', 'NO_SOCIAL_SET'],
    handler: ({ auth, params, body }) => ({ success: true, draft: s.drafts.update(auth.user.id, params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/microblog/drafts/:id',
    tag,
    summary: 'Delete a draft',
    description:
      'Its posts, per-network text and pending schedule entries go with it. A draft being published cannot ' +
      'be deleted (400 INVALID_INPUT).',
    params: idParam,
    response: messageResponse,
    errors: [...base, 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, params }) => {
      s.drafts.delete(auth.user.id, params.id);
      return { success: true, message: 'Draft deleted' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/microblog/drafts/:id/networks',
    tag,
    summary: 'What each target network receives, counted by its rules',
    description:
      'Per target account: the posts that network receives (its per-network text split at --- lines, else ' +
      "the posts' plain text; on LinkedIn the first is the post and each later one a comment on it, " +
      "sentAs 'comment', limit 1250) with count, limit and validity by that account's rules (a Mastodon " +
      "instance's limits).",
    params: idParam,
    query: c.networksQuery,
    response: c.networksResponse,
    errors: [...base, 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, params, query }) => ({
      success: true,
      networks: s.drafts.forNetworks(auth.user.id, params.id, query.accountIds),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/microblog/drafts/:id/platforms',
    tag,
    summary: 'Per-network text of a draft',
    description:
      'Plain text; a line holding only --- separates thread posts. `posts` shows each post counted by that ' +
      "network's rule.",
    params: idParam,
    response: c.platformsResponse,
    errors: [...base, 'NOT_FOUND'],
    handler: ({ auth, params }) => ({ success: true, platforms: s.drafts.platforms(auth.user.id, params.id) }),
  }),
  defineRoute({
    method: 'put',
    path: '/microblog/drafts/:id/platforms',
    tag,
    summary: 'Set per-network text (upsert)',
    description:
      'Creates or updates (in place, same id) the text of each listed network; empty content removes that ' +
      'override. Answers every override of the draft.',
    params: idParam,
    body: c.putPlatformsBody,
    response: c.platformsResponse,
    errors: [...base, 'INVALID_INPUT', 'NOT_FOUND'],
    handler: ({ auth, params, body }) => ({
      success: true,
      platforms: s.drafts.putPlatforms(auth.user.id, params.id, body),
    }),
  }),
];
