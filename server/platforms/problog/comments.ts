/**
 * A thread on LinkedIn, which has none: the first part is the post, each later part a comment on
 * it (POST /rest/socialActions/{post urn}/comments, the member as actor). A comment's text is
 * attributed text, not little text, so it is sent as written. A comment's ref keeps the post's URN
 * in `cid`, so the next part, and the lookup after a crash, find the post from any part. Deleting
 * a thread deletes its comments (DELETE …/comments/{id}?actor=) before the post.
 */
import type { CallContext, PostRef } from '../adapter.js';
import type { DeleteOutcome } from '../after-publish.js';
import { PlatformError } from '../errors.js';
import { joinUrl } from '../http.js';
import { liCall, restHeaders } from './rest.js';

interface LinkedInComment {
  id?: string;
  $URN?: string;
  commentUrn?: string;
  actor?: string;
  object?: string;
  message?: { text?: string };
  created?: { time?: number };
}

/** The post a thread part belongs to: the root when given, else the part before it. */
export const postUrnOf = (root: PostRef | undefined, previous: PostRef) => root?.id ?? previous.cid ?? previous.id;

/** The public address of a comment: its post's page, opened at the comment. */
export const commentUrl = (postUrn: string, commentUrn: string) =>
  `https://www.linkedin.com/feed/update/${postUrn}?commentUrn=${encodeURIComponent(commentUrn)}`;

const commentsUrl = (ctx: CallContext, postUrn: string) =>
  joinUrl(ctx.network.apiUrl, `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`);

const urnOf = (c: LinkedInComment, postUrn: string) =>
  c.$URN ?? c.commentUrn ?? (c.id ? `urn:li:comment:(${postUrn},${c.id})` : undefined);

const fold = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

export async function publishComment(
  ctx: CallContext,
  args: { postUrn: string; actor: string; text: string; version: string },
): Promise<PostRef> {
  const res = await liCall<LinkedInComment>(
    commentsUrl(ctx, args.postUrn),
    {
      method: 'POST',
      headers: { ...restHeaders(ctx.credentials.accessToken, args.version), 'x-restli-method': 'CREATE' },
      body: JSON.stringify({ actor: args.actor, object: args.postUrn, message: { text: args.text } }),
    },
    { what: 'publish the comment', write: true, signal: ctx.signal },
  );
  const header = res.headers.get('x-restli-id');
  const urn =
    (res.body && typeof res.body === 'object' ? urnOf(res.body, args.postUrn) : undefined) ??
    (header ? (header.startsWith('urn:') ? header : `urn:li:comment:(${args.postUrn},${header})`) : undefined);
  // Created without saying what: the comment may well exist, so it must be reconciled.
  if (!urn)
    throw new PlatformError(
      'problog',
      'ambiguous',
      "LinkedIn answered without the new comment's id; Herald will check whether it was published",
    );
  return { id: urn, cid: args.postUrn, url: commentUrl(args.postUrn, urn) };
}

/** The member's comment on the post with this text from `since` on (a write whose answer was lost). */
export async function findComment(
  ctx: CallContext,
  args: { postUrn: string; actor: string; text: string; since: number; version: string },
): Promise<PostRef | null> {
  const url = new URL(commentsUrl(ctx, args.postUrn));
  url.searchParams.set('count', '100');
  const { body } = await liCall<{ elements?: LinkedInComment[] }>(
    url.toString(),
    { headers: restHeaders(ctx.credentials.accessToken, args.version, false) },
    { what: "look up the post's comments", signal: ctx.signal },
  );
  const since = args.since - 2 * 60_000;
  const wanted = fold(args.text);
  for (const c of body.elements ?? []) {
    const urn = urnOf(c, args.postUrn);
    if (!urn || (c.actor && c.actor !== args.actor)) continue;
    if (c.created?.time !== undefined && c.created.time < since) continue;
    if (fold(c.message?.text ?? '') !== wanted) continue;
    return { id: urn, cid: args.postUrn, url: commentUrl(args.postUrn, urn) };
  }
  return null;
}

const COMMENT_URN = /^urn:li:comment:\((.+),(\d+)\)$/;

/** Whether a part's id is a comment's (a thread's later part), not a post's. */
export const isComment = (id: string) => COMMENT_URN.test(id);

export async function deleteComment(
  ctx: CallContext,
  ref: PostRef,
  args: { actor: string; version: string },
): Promise<DeleteOutcome> {
  const [, parent, id] = COMMENT_URN.exec(ref.id)!;
  const url = new URL(`${commentsUrl(ctx, ref.cid ?? parent!)}/${id}`);
  url.searchParams.set('actor', args.actor);
  try {
    await liCall(
      url.toString(),
      {
        method: 'DELETE',
        headers: { ...restHeaders(ctx.credentials.accessToken, args.version, false), 'x-restli-method': 'DELETE' },
      },
      { what: 'delete the comment', signal: ctx.signal },
    );
    return 'deleted';
  } catch (err) {
    if (err instanceof PlatformError && (err.status === 404 || err.status === 410)) return 'gone';
    throw err;
  }
}
