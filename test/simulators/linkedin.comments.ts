// LinkedIn simulator: comments on a post (the Comments API under /rest/socialActions/{urn}/comments).
// A create needs the versioned headers and a token; actor is the token's member, object the post in
// the path, which must exist; the text is attributed text of at most 1,250 characters. The answer
// is 201 with the comment, its URN built from the post's; every accepted comment is recorded.
import type { Router, SimReply, SimRequest } from './common.js';
import type { LinkedInState } from './linkedin.simulator.js';

/** What one LinkedIn comment holds. */
export const COMMENT_MAX = 1250;

export interface LinkedInCommentRecord {
  urn: string;
  id: string;
  actor: string;
  object: string;
  text: string;
  createdAt: number;
  seq: number;
}

export function registerLinkedInComments(
  router: Router,
  ctx: {
    state: LinkedInState;
    rest: (req: SimRequest) => { sub: string; urn: string } | SimReply;
    li: (status: number, message: string, extra?: Record<string, unknown>) => SimReply;
  },
): LinkedInCommentRecord[] {
  const comments: LinkedInCommentRecord[] = [];
  let idSeq = 7_300_000_000_000_000_000n;
  const view = (c: LinkedInCommentRecord) => ({
    id: c.id,
    commentUrn: c.urn,
    $URN: c.urn,
    actor: c.actor,
    object: c.object,
    message: { text: c.text, attributes: [] },
    created: { actor: c.actor, time: c.createdAt },
    lastModified: { actor: c.actor, time: c.createdAt },
  });
  const postOf = (urn: string) => ctx.state.posts.find((p) => p.urn === urn);

  router.on('POST', '/rest/socialActions/:urn/comments', (req) => {
    const a = ctx.rest(req);
    if (!('sub' in a)) return a;
    if (req.bodyKind !== 'json' || typeof req.body !== 'object' || Array.isArray(req.body))
      return ctx.li(400, 'Request body could not be converted to data map', { code: 'ILLEGAL_ARGUMENT' });
    const b = req.body as Record<string, any>;
    const missing = ['actor', 'object', 'message'].filter((f) => b[f] === undefined);
    if (typeof b.message === 'object' && b.message && typeof b.message.text !== 'string') missing.push('message/text');
    if (missing.length)
      return ctx.li(
        422,
        missing.map((f) => `ERROR :: /${f} :: field is required but not found and has no default value`).join('\n'),
      );
    if (b.actor !== a.urn)
      return ctx.li(403, 'Not enough permissions to access: partnerApiSocialActions.CREATE', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    const target = req.params.urn!;
    if (b.object !== target)
      return ctx.li(400, `The object ${String(b.object)} does not match the resource key ${target}`, {
        code: 'ILLEGAL_ARGUMENT',
      });
    if (!postOf(target)) return ctx.li(404, `Not Found: ${target}`, { code: 'NOT_FOUND' });
    const text = String(b.message.text);
    if (!text.trim()) return ctx.li(422, 'ERROR :: /message/text :: comment text must not be empty');
    const length = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
    if (length > COMMENT_MAX)
      return ctx.li(422, `ERROR :: /message/text :: length ${length} exceeds the maximum of ${COMMENT_MAX}`, {
        code: 'UNPROCESSABLE_ENTITY',
      });
    const id = String((idSeq += 7919n));
    const comment: LinkedInCommentRecord = {
      urn: `urn:li:comment:(${target},${id})`,
      id,
      actor: a.urn,
      object: target,
      text,
      createdAt: Date.now(),
      seq: comments.length + 1,
    };
    comments.push(comment);
    return {
      status: 201,
      body: view(comment),
      headers: { 'x-restli-id': comment.urn, 'x-restli-protocol-version': '2.0.0' },
    };
  });

  router.on('GET', '/rest/socialActions/:urn/comments', (req) => {
    const a = ctx.rest(req);
    if (!('sub' in a)) return a;
    const target = req.params.urn!;
    if (!postOf(target)) return ctx.li(404, `Not Found: ${target}`, { code: 'NOT_FOUND' });
    const start = Number(req.query.get('start') ?? 0);
    const count = Math.min(100, Number(req.query.get('count') ?? 10));
    const on = comments.filter((c) => c.object === target);
    return {
      status: 200,
      body: {
        paging: { start, count, links: [], total: on.length },
        elements: on.slice(start, start + count).map(view),
      },
    };
  });

  router.on('DELETE', '/rest/socialActions/:urn/comments/:id', (req) => {
    const a = ctx.rest(req);
    if (!('sub' in a)) return a;
    const at = comments.findIndex((c) => c.object === req.params.urn && c.id === req.params.id);
    if (at === -1) return ctx.li(404, `Not Found: ${req.params.id}`, { code: 'NOT_FOUND' });
    if (comments[at]!.actor !== a.urn || req.query.get('actor') !== a.urn)
      return ctx.li(403, 'Not enough permissions to access: partnerApiSocialActions.DELETE', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    comments.splice(at, 1);
    return { status: 204, headers: { 'x-restli-protocol-version': '2.0.0' } };
  });
  return comments;
}
