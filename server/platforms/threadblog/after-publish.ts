/**
 * Threads after publishing: DELETE /{media-id} (scope threads_delete) and the media's insights
 * (GET /{media-id}/insights, scope threads_manage_insights; views are Herald's impressions).
 * Threads cannot edit a published post.
 */
import type { CallContext, PostRef } from '../adapter.js';
import { count, type DeleteOutcome, type MetricsRead, type PartRef } from '../after-publish.js';
import { PlatformError } from '../errors.js';
import { graphCall, graphUrl } from './graph.js';

/** Graph's "object does not exist" (code 100) or a 404: the post is no longer there. */
const isGone = (err: unknown) =>
  err instanceof PlatformError && (err.status === 404 || (err.opts.code === '100' && /exist/i.test(err.message)));

export async function deleteThreadsPost(ctx: CallContext, ref: PartRef): Promise<DeleteOutcome> {
  try {
    await graphCall(
      graphUrl(ctx.network.apiUrl, `/${encodeURIComponent(ref.id)}`, { access_token: ctx.credentials.accessToken }),
      { method: 'DELETE' },
      { what: 'delete the post', signal: ctx.signal },
    );
    return 'deleted';
  } catch (err) {
    if (isGone(err)) return 'gone';
    throw err;
  }
}

interface Insight {
  name?: string;
  values?: { value?: number }[];
  total_value?: { value?: number };
}

export async function readThreadsMetrics(ctx: CallContext, refs: PostRef[]): Promise<MetricsRead> {
  const out: MetricsRead = new Map();
  for (const ref of refs) {
    try {
      const body = await graphCall<{ data?: Insight[] }>(
        graphUrl(ctx.network.apiUrl, `/${encodeURIComponent(ref.id)}/insights`, {
          metric: 'views,likes,replies,reposts,quotes',
          access_token: ctx.credentials.accessToken,
        }),
        { method: 'GET' },
        { what: 'read the post’s insights', signal: ctx.signal },
      );
      const by = new Map((body.data ?? []).map((i) => [i.name, i.values?.[0]?.value ?? i.total_value?.value]));
      out.set(ref.id, {
        likes: count(by.get('likes')),
        reposts: count(by.get('reposts')),
        replies: count(by.get('replies')),
        quotes: count(by.get('quotes')),
        impressions: count(by.get('views')),
      });
    } catch (err) {
      if (!isGone(err)) throw err;
      out.set(ref.id, 'gone');
    }
  }
  return out;
}
