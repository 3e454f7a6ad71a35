/**
 * Mastodon after publishing: DELETE and PUT /api/v1/statuses/:id (Mastodon keeps an edit
 * history), and a status's own counts (GET /api/v1/statuses/:id; impressions are not public).
 */
import type { CallContext, PostRef } from '../adapter.js';
import { count, type DeleteOutcome, type MetricsRead, type PartRef } from '../after-publish.js';
import { PlatformError } from '../errors.js';
import { bearer, joinUrl } from '../http.js';
import { mastoCall } from './http.js';

const isGone = (err: unknown) => err instanceof PlatformError && (err.status === 404 || err.status === 410);

function statusUrl(ctx: CallContext, id: string): string {
  const server = ctx.account.serverUrl;
  if (!server)
    throw new PlatformError(
      'fedblog',
      'permanent',
      'This Mastodon account has no instance on record; connect it again',
    );
  return joinUrl(server, `/api/v1/statuses/${encodeURIComponent(id)}`);
}

export async function deleteMastodonPost(ctx: CallContext, ref: PartRef): Promise<DeleteOutcome> {
  try {
    await mastoCall(
      statusUrl(ctx, ref.id),
      { method: 'DELETE', headers: bearer(ctx.credentials.accessToken) },
      { what: 'delete the post', signal: ctx.signal },
    );
    return 'deleted';
  } catch (err) {
    if (isGone(err)) return 'gone';
    throw err;
  }
}

export async function editMastodonPost(ctx: CallContext, ref: PartRef, text: string): Promise<void> {
  await mastoCall(
    statusUrl(ctx, ref.id),
    {
      method: 'PUT',
      headers: { ...bearer(ctx.credentials.accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ status: text }),
    },
    { what: 'edit the post', signal: ctx.signal },
  );
}

interface MastoStatusCounts {
  favourites_count?: number;
  reblogs_count?: number;
  replies_count?: number;
  quotes_count?: number;
}

export async function readMastodonMetrics(ctx: CallContext, refs: PostRef[]): Promise<MetricsRead> {
  const out: MetricsRead = new Map();
  for (const ref of refs) {
    try {
      const { body } = await mastoCall<MastoStatusCounts>(
        statusUrl(ctx, ref.id),
        { headers: bearer(ctx.credentials.accessToken) },
        { what: 'read the post’s counts', signal: ctx.signal },
      );
      out.set(ref.id, {
        likes: count(body.favourites_count),
        reposts: count(body.reblogs_count),
        replies: count(body.replies_count),
        quotes: count(body.quotes_count),
        impressions: null,
      });
    } catch (err) {
      if (!isGone(err)) throw err;
      out.set(ref.id, 'gone');
    }
  }
  return out;
}
