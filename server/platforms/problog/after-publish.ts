/**
 * LinkedIn after publishing: DELETE /rest/posts/{urn}, an edit as a PARTIAL_UPDATE of the
 * commentary, and member post analytics (GET /rest/memberCreatorPostAnalytics, one call per
 * metric, scope r_member_postAnalytics). LinkedIn's reactions, comments and reshares are Herald's
 * likes, replies and reposts; LinkedIn has no quotes.
 */
import type { CallContext, PostRef } from '../adapter.js';
import { count, type DeleteOutcome, type MetricsRead, type PartRef } from '../after-publish.js';
import { PlatformError } from '../errors.js';
import { joinUrl } from '../http.js';
import { escapeLittleText } from './little-text.js';
import { liCall, restHeaders } from './rest.js';

import { LINKEDIN_ANALYTICS_SCOPE as ANALYTICS_SCOPE } from '../scopes.js';

const isGone = (err: unknown) => err instanceof PlatformError && (err.status === 404 || err.status === 410);
const postUrl = (ctx: CallContext, urn: string) =>
  joinUrl(ctx.network.apiUrl, `/rest/posts/${encodeURIComponent(urn)}`);

export async function deleteLinkedinPost(ctx: CallContext, ref: PartRef, version: string): Promise<DeleteOutcome> {
  try {
    await liCall(
      postUrl(ctx, ref.id),
      {
        method: 'DELETE',
        headers: { ...restHeaders(ctx.credentials.accessToken, version, false), 'x-restli-method': 'DELETE' },
      },
      { what: 'delete the post', signal: ctx.signal },
    );
    return 'deleted';
  } catch (err) {
    if (isGone(err)) return 'gone';
    throw err;
  }
}

export async function editLinkedinPost(ctx: CallContext, ref: PartRef, text: string, version: string): Promise<void> {
  await liCall(
    postUrl(ctx, ref.id),
    {
      method: 'POST',
      headers: { ...restHeaders(ctx.credentials.accessToken, version), 'x-restli-method': 'PARTIAL_UPDATE' },
      body: JSON.stringify({ patch: { $set: { commentary: escapeLittleText(text) } } }),
    },
    { what: 'edit the post', signal: ctx.signal },
  );
}

const METRICS = [
  ['IMPRESSION', 'impressions'],
  ['REACTION', 'likes'],
  ['COMMENT', 'replies'],
  ['RESHARE', 'reposts'],
] as const;

/** The finder's entity: `(share:urn%3Ali%3Ashare%3A1)` or `(ugc:…)` for a ugcPost. */
function entityOf(urn: string): string {
  const kind = urn.startsWith('urn:li:ugcPost:') ? 'ugc' : 'share';
  return `(${kind}:${encodeURIComponent(urn)})`;
}

export async function readLinkedinMetrics(ctx: CallContext, refs: PostRef[], version: string): Promise<MetricsRead> {
  const out: MetricsRead = new Map();
  for (const ref of refs) {
    const m = { likes: null, reposts: null, replies: null, quotes: null, impressions: null } as Record<
      string,
      number | null
    >;
    try {
      for (const [queryType, key] of METRICS) {
        // Rest.li's encoded entity must not be encoded again, so the query is written by hand.
        const url =
          joinUrl(ctx.network.apiUrl, '/rest/memberCreatorPostAnalytics') +
          `?q=entity&entity=${entityOf(ref.id)}&queryType=${queryType}&aggregation=TOTAL`;
        const { body } = await liCall<{ elements?: { count?: number }[] }>(
          url,
          { headers: restHeaders(ctx.credentials.accessToken, version, false) },
          { what: 'read the post’s analytics', signal: ctx.signal },
        );
        m[key] = count(body.elements?.[0]?.count ?? 0);
      }
      out.set(ref.id, m as never);
    } catch (err) {
      if (isGone(err)) {
        out.set(ref.id, 'gone');
        continue;
      }
      if (err instanceof PlatformError && err.status === 403)
        throw new PlatformError(
          'problog',
          'permanent',
          `LinkedIn did not let Herald read post analytics: the account did not grant ${ANALYTICS_SCOPE}; ` +
            'connect it again with analytics (the LinkedIn app needs the Community Management API product)',
          { status: 403, code: 'missing_scope' },
        );
      throw err;
    }
  }
  return out;
}
