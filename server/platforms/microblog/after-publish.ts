/**
 * X after publishing: DELETE /2/tweets/:id, and the counts of owned posts by
 * GET /2/tweets?ids=…&tweet.fields=public_metrics (100 ids a call; X prices each post read).
 * X's API cannot edit a post.
 */
import type { CallContext, PostRef } from '../adapter.js';
import { count, type DeleteOutcome, type MetricsRead, type PartRef } from '../after-publish.js';
import { PlatformError } from '../errors.js';
import { bearer, joinUrl } from '../http.js';
import { xCall } from './http.js';

const isGone = (err: unknown) => err instanceof PlatformError && err.status === 404;

export async function deleteXPost(ctx: CallContext, ref: PartRef): Promise<DeleteOutcome> {
  try {
    const { body } = await xCall<{ data?: { deleted?: boolean } }>(
      joinUrl(ctx.network.apiUrl, `/2/tweets/${encodeURIComponent(ref.id)}`),
      { method: 'DELETE', headers: bearer(ctx.credentials.accessToken) },
      { what: 'delete the post', signal: ctx.signal },
    );
    return body.data?.deleted === false ? 'gone' : 'deleted';
  } catch (err) {
    if (isGone(err)) return 'gone';
    throw err;
  }
}

interface XMetricsAnswer {
  data?: { id: string; public_metrics?: Record<string, unknown> }[];
  errors?: { resource_id?: string; value?: string; type?: string; resource_type?: string }[];
}

export async function readXMetrics(ctx: CallContext, refs: PostRef[]): Promise<MetricsRead> {
  const url = new URL(joinUrl(ctx.network.apiUrl, '/2/tweets'));
  url.searchParams.set('ids', refs.map((r) => r.id).join(','));
  url.searchParams.set('tweet.fields', 'public_metrics');
  const { body } = await xCall<XMetricsAnswer>(
    url.toString(),
    { headers: bearer(ctx.credentials.accessToken) },
    { what: 'read the posts’ counts', signal: ctx.signal },
  );
  const out: MetricsRead = new Map();
  for (const t of body.data ?? []) {
    const m = t.public_metrics ?? {};
    out.set(String(t.id), {
      likes: count(m.like_count),
      reposts: count(m.retweet_count),
      replies: count(m.reply_count),
      quotes: count(m.quote_count),
      impressions: count(m.impression_count),
    });
  }
  // X lists a deleted post among `errors` as a resource-not-found.
  for (const e of body.errors ?? []) {
    const id = e.resource_id ?? e.value;
    if (id && /resource-not-found/.test(e.type ?? '')) out.set(String(id), 'gone');
  }
  return out;
}
