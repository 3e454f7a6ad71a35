/**
 * X v2 media upload (docs/decisions.md §19.1): images up to 5 MB in one multipart request; GIFs,
 * videos and bigger images through initialize → append (1 MiB segments) → finalize, then STATUS
 * polling until X says `succeeded` (attaching earlier fails). Alt text goes on afterwards with
 * POST /2/media/metadata. Media ids stay strings end to end (they are 64-bit).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallContext, MediaItem } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { bearer, joinUrl, sleep } from '../http.js';
import { xCall } from './http.js';
import { altTextCount, altTextLimit } from '../../../text/alt-text.js';

const ONE_SHOT_MAX = 5 * 1024 * 1024;
const SEGMENT = 1024 * 1024;
const UPLOAD_TIMEOUT = 5 * 60_000;
/** Longest Herald waits for X to process one video. */
const PROCESSING_MAX_MS = 10 * 60_000;

interface MediaData {
  id?: string;
  media_id_string?: string;
  media_key?: string;
  processing_info?: {
    state?: string;
    check_after_secs?: number;
    progress_percent?: number;
    error?: { code?: number; name?: string; message?: string };
  };
}

const category = (item: MediaItem) =>
  item.kind === 'video' ? 'tweet_video' : item.kind === 'gif' ? 'tweet_gif' : 'tweet_image';

function idOf(data: MediaData | undefined, step: string): string {
  const id = data?.id ?? data?.media_id_string;
  if (!id) throw new PlatformError('microblog', 'transient', `X answered the media ${step} without a media id`);
  return String(id);
}

async function oneShot(ctx: CallContext, item: MediaItem): Promise<string> {
  const form = new FormData();
  form.append('media', await fs.openAsBlob(item.path, { type: item.mime }), fileName(item));
  form.append('media_category', category(item));
  const { body } = await xCall<{ data?: MediaData }>(
    joinUrl(ctx.network.apiUrl, '/2/media/upload'),
    {
      method: 'POST',
      headers: bearer(ctx.credentials.accessToken),
      body: form,
    },
    { what: 'upload an image', signal: ctx.signal, timeoutMs: UPLOAD_TIMEOUT },
  );
  return idOf(body.data, 'upload');
}

async function chunked(ctx: CallContext, item: MediaItem): Promise<string> {
  const base = ctx.network.apiUrl;
  const auth = bearer(ctx.credentials.accessToken);
  const init = await xCall<{ data?: MediaData }>(
    joinUrl(base, '/2/media/upload/initialize'),
    {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ media_type: item.mime, total_bytes: item.size, media_category: category(item) }),
    },
    { what: 'start a media upload', signal: ctx.signal },
  );
  const id = idOf(init.body.data, 'initialize');

  const handle = await fs.promises.open(item.path, 'r');
  try {
    const buffer = Buffer.alloc(SEGMENT);
    for (let index = 0, offset = 0; offset < item.size; index++) {
      const { bytesRead } = await handle.read(buffer, 0, SEGMENT, offset);
      if (bytesRead === 0)
        throw new PlatformError('microblog', 'permanent', `The file ${item.path} is shorter than its recorded size`);
      const form = new FormData();
      form.append('segment_index', String(index));
      form.append(
        'media',
        new Blob([buffer.subarray(0, bytesRead)], { type: 'application/octet-stream' }),
        fileName(item),
      );
      await xCall(
        joinUrl(base, `/2/media/upload/${encodeURIComponent(id)}/append`),
        {
          method: 'POST',
          headers: auth,
          body: form,
        },
        { what: 'upload a media segment', signal: ctx.signal, timeoutMs: UPLOAD_TIMEOUT },
      );
      offset += bytesRead;
    }
  } finally {
    await handle.close();
  }

  const fin = await xCall<{ data?: MediaData }>(
    joinUrl(base, `/2/media/upload/${encodeURIComponent(id)}/finalize`),
    {
      method: 'POST',
      headers: auth,
    },
    { what: 'finish a media upload', signal: ctx.signal },
  );
  await waitUntilProcessed(ctx, id, fin.body.data?.processing_info);
  return id;
}

/** Polls STATUS until X has processed the media; no processing_info means ready. */
async function waitUntilProcessed(ctx: CallContext, id: string, info: MediaData['processing_info']): Promise<void> {
  const started = Date.now();
  while (info && info.state !== 'succeeded') {
    if (info.state === 'failed') {
      const e = info.error;
      throw new PlatformError(
        'microblog',
        'permanent',
        `X could not process the media: ${e?.message ?? e?.name ?? 'unknown reason'}`,
        { code: e?.name },
      );
    }
    if (Date.now() - started > PROCESSING_MAX_MS) {
      throw new PlatformError('microblog', 'transient', 'X is still processing the media after 10 minutes');
    }
    await sleep(Math.max(250, (info.check_after_secs ?? 1) * 1000), ctx.signal);
    const url = new URL(joinUrl(ctx.network.apiUrl, '/2/media/upload'));
    url.searchParams.set('command', 'STATUS');
    url.searchParams.set('media_id', id);
    const { body } = await xCall<{ data?: MediaData }>(
      url.toString(),
      { headers: bearer(ctx.credentials.accessToken) },
      { what: 'check media processing', signal: ctx.signal },
    );
    info = body.data?.processing_info;
  }
}

async function setAltText(ctx: CallContext, id: string, altText: string): Promise<void> {
  await xCall(
    joinUrl(ctx.network.apiUrl, '/2/media/metadata'),
    {
      method: 'POST',
      headers: { ...bearer(ctx.credentials.accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ id, metadata: { alt_text: { text: altText } } }),
    },
    { what: 'set the image description (alt text)', signal: ctx.signal },
  );
}

const fileName = (item: MediaItem) => path.basename(item.path) || 'media';

/** Uploads one file and returns the media id to attach. */
export async function uploadXMedia(ctx: CallContext, item: MediaItem): Promise<string> {
  // Alt text is never cut (docs/decisions.md §11): publishing checks it first; this guards the adapter's own callers.
  const count = altTextCount('microblog', item.altText.trim());
  if (count > altTextLimit('microblog'))
    throw new PlatformError(
      'microblog',
      'permanent',
      `The alt text has ${count} characters, over X's limit of ${altTextLimit('microblog')}; shorten it`,
    );
  const small = item.kind === 'image' && item.mime !== 'image/gif' && item.size <= ONE_SHOT_MAX;
  const id = small ? await oneShot(ctx, item) : await chunked(ctx, item);
  if (item.altText.trim()) await setAltText(ctx, id, item.altText.trim());
  return id;
}

/** X's per-post media rule: up to 4 images, or one GIF, or one video. */
export function checkXMediaMix(media: MediaItem[]): void {
  const moving = media.filter((m) => m.kind !== 'image').length;
  if (media.length > 4)
    throw new PlatformError(
      'microblog',
      'permanent',
      `X allows at most 4 images per post; this post has ${media.length}`,
    );
  if (moving > 0 && media.length > 1)
    throw new PlatformError('microblog', 'permanent', 'X allows one GIF or one video per post, without other media');
}
