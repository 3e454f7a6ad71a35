/**
 * LinkedIn's Images API (docs/decisions.md §19.5): initializeUpload names the owner (who must be the
 * post's author) and answers an upload URL and an image URN; the bytes go to that URL with a
 * PUT; the URN goes into the post once LinkedIn says the image is AVAILABLE. The upload host
 * differs from the API host, so the access token is only sent to a LinkedIn host (or the
 * configured API host itself, as with a local simulator), never to whatever URL comes back.
 */
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallContext, MediaItem } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { joinUrl } from '../http.js';
import { liCall, restHeaders } from './rest.js';

export interface ImageOptions {
  version: string;
  /** Wait between image status checks, ms. */
  pollIntervalMs: number;
  /** Longest wait for LinkedIn to process an uploaded image, ms. */
  processingTimeoutMs: number;
}

interface InitializeAnswer {
  value?: { uploadUrl?: string; image?: string; uploadUrlExpiresAt?: number };
}

/** True for a URL the access token may be sent to. */
export function trustedUploadUrl(uploadUrl: string, apiUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(uploadUrl);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const api = new URL(apiUrl);
  if (url.protocol === api.protocol && url.hostname === api.hostname) return true;
  return url.protocol === 'https:' && (url.hostname === 'linkedin.com' || url.hostname.endsWith('.linkedin.com'));
}

async function waitAvailable(ctx: CallContext, urn: string, opts: ImageOptions): Promise<void> {
  const deadline = Date.now() + opts.processingTimeoutMs;
  for (;;) {
    const { body } = await liCall<{ status?: string }>(
      joinUrl(ctx.network.apiUrl, `/rest/images/${encodeURIComponent(urn)}`),
      {
        headers: restHeaders(ctx.credentials.accessToken, ctx.network.version ?? opts.version, false),
      },
      { what: 'check an uploaded image', signal: ctx.signal },
    );
    if (body.status === 'AVAILABLE') return;
    if (body.status === 'PROCESSING_FAILED') {
      throw new PlatformError(
        'problog',
        'permanent',
        'LinkedIn could not process an image of the post; use a JPG, PNG or GIF of ordinary size',
      );
    }
    if (Date.now() + opts.pollIntervalMs > deadline) {
      throw new PlatformError(
        'problog',
        'transient',
        `LinkedIn was still processing an image after ${Math.round(opts.processingTimeoutMs / 1000)} s`,
      );
    }
    try {
      await delay(opts.pollIntervalMs, undefined, { signal: ctx.signal });
    } catch (err) {
      throw new PlatformError('problog', 'transient', 'Publishing to LinkedIn was cancelled', { cause: err });
    }
  }
}

/** Uploads one image for `owner` and answers its URN once LinkedIn can use it. */
export async function uploadImage(
  ctx: CallContext,
  owner: string,
  item: MediaItem,
  opts: ImageOptions,
): Promise<string> {
  if (!item.path)
    throw new PlatformError(
      'problog',
      'permanent',
      'LinkedIn needs the image file itself; upload the image to Herald first',
    );
  return uploadImageBytes(ctx, owner, await fs.openAsBlob(item.path, { type: item.mime }), item.mime, opts);
}

/** Uploads image bytes (a file, or a link card's thumbnail) for `owner`; answers the image URN once available. */
export async function uploadImageBytes(
  ctx: CallContext,
  owner: string,
  bytes: Blob,
  mime: string,
  opts: ImageOptions,
): Promise<string> {
  const init = await liCall<InitializeAnswer>(
    joinUrl(ctx.network.apiUrl, '/rest/images?action=initializeUpload'),
    {
      method: 'POST',
      headers: restHeaders(ctx.credentials.accessToken, ctx.network.version ?? opts.version),
      body: JSON.stringify({ initializeUploadRequest: { owner } }),
    },
    { what: 'start an image upload', signal: ctx.signal },
  );
  const { uploadUrl, image } = init.body.value ?? {};
  if (!uploadUrl || !image)
    throw new PlatformError('problog', 'transient', 'LinkedIn answered the image upload request without an upload URL');
  if (!trustedUploadUrl(uploadUrl, ctx.network.apiUrl)) {
    throw new PlatformError(
      'problog',
      'permanent',
      'LinkedIn gave an upload address outside LinkedIn; Herald did not send the image there',
    );
  }
  await liCall(
    uploadUrl,
    {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${ctx.credentials.accessToken}`,
        'content-type': mime || 'application/octet-stream',
      },
      body: bytes,
    },
    { what: 'upload an image', signal: ctx.signal, timeoutMs: 5 * 60_000 },
  );
  await waitAvailable(ctx, image, opts);
  return image;
}
