/**
 * Mastodon media (docs/decisions.md §19.3): POST /api/v2/media (multipart `file` + `description` as alt
 * text). 200 means processed; 202 means `url: null` for now, so poll GET /api/v1/media/:id,
 * which answers 206 while processing and 200 once `url` is set.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallContext, MediaItem } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { bearer, joinUrl, sleep } from '../http.js';
import { mastoCall } from './http.js';

const UPLOAD_TIMEOUT = 5 * 60_000;
const PROCESSING_MAX_MS = 10 * 60_000;

interface Attachment {
  id?: string;
  type?: string;
  url?: string | null;
}

async function waitForProcessing(ctx: CallContext, serverUrl: string, id: string): Promise<void> {
  const started = Date.now();
  let delay = 500;
  for (;;) {
    await sleep(delay, ctx.signal);
    const reply = await mastoCall<Attachment>(
      joinUrl(serverUrl, `/api/v1/media/${encodeURIComponent(id)}`),
      {
        headers: { ...bearer(ctx.credentials.accessToken), accept: 'application/json' },
      },
      { what: 'check media processing', signal: ctx.signal },
    );
    if (reply.status === 200 && reply.body.url) return;
    if (Date.now() - started > PROCESSING_MAX_MS) {
      throw new PlatformError(
        'fedblog',
        'transient',
        'The Mastodon instance is still processing the media after 10 minutes',
      );
    }
    // Media polling shares a small rate limit (30 uploads / 30 min): back off gently.
    delay = Math.min(delay * 2, 5000);
  }
}

/** Uploads one file with its description; returns the attachment id once it can be attached. */
export async function uploadMastoMedia(
  ctx: CallContext,
  serverUrl: string,
  item: MediaItem,
  descriptionLimit: number,
): Promise<string> {
  const description = item.altText.trim();
  // Never cut (docs/decisions.md §11): publishing checks the instance's limit first.
  const count = [...description].length;
  if (count > descriptionLimit)
    throw new PlatformError(
      'fedblog',
      'permanent',
      `The alt text has ${count} characters, over this Mastodon instance's limit of ${descriptionLimit}; shorten it`,
    );
  const form = new FormData();
  form.append('file', await fs.openAsBlob(item.path, { type: item.mime }), path.basename(item.path) || 'media');
  if (description) form.append('description', description);
  const reply = await mastoCall<Attachment>(
    joinUrl(serverUrl, '/api/v2/media'),
    {
      method: 'POST',
      headers: { ...bearer(ctx.credentials.accessToken), accept: 'application/json' },
      body: form,
    },
    { what: 'upload the media', signal: ctx.signal, timeoutMs: UPLOAD_TIMEOUT },
  );
  const id = reply.body.id;
  if (!id)
    throw new PlatformError('fedblog', 'transient', 'The Mastodon instance answered the upload without a media id');
  if (reply.status === 202 || !reply.body.url) await waitForProcessing(ctx, serverUrl, String(id));
  return String(id);
}
