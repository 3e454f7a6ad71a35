/**
 * LinkedIn videos and documents (decisions §11). A video: initializeUpload with its size answers
 * one upload URL per part (byte ranges); each part is PUT streamed from its slice of the file
 * (never the whole file in memory) and its ETag kept; finalizeUpload with the ETags in order; then
 * the video is polled until AVAILABLE, within the processing wait. Captions: LinkedIn takes one
 * captions file per video (SRT, at the captionsUploadUrl it answers when asked for one); the
 * first caption goes, turned from WebVTT into SRT. A document (PDF): initializeUpload, one PUT,
 * polled until AVAILABLE. Either goes into the post as `content.media {id, title}`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CallContext, MediaItem } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { networkFailure } from '../errors.js';
import { streamUpload } from '../stream-upload.js';
import { joinUrl } from '../http.js';
import { trustedUploadUrl } from './images.js';
import { liCall, linkedinError, restHeaders } from './rest.js';

const FIFTEEN_MINUTES = 15 * 60_000;

interface VideoInit {
  value?: {
    video?: string;
    uploadToken?: string;
    uploadInstructions?: { uploadUrl?: string; firstByte?: number; lastByte?: number }[];
    captionsUploadUrl?: string;
  };
}

/** Told while the network processes a video (progress shows `waitingFor: "processing"`). */
export type ProcessingListener = (processing: boolean) => void;

const refuseUrl = () =>
  new PlatformError(
    'problog',
    'permanent',
    'LinkedIn gave an upload address outside LinkedIn; Herald sent nothing there',
  );

const CUE = /^((?:\d{2,}:)?\d{2}:\d{2})\.(\d{3})\s+-->\s+((?:\d{2,}:)?\d{2}:\d{2})\.(\d{3})/;
const hms = (t: string) => (t.split(':').length === 2 ? `00:${t}` : t);

/** WebVTT to SRT: numbered cues, a comma before the milliseconds, no header, notes or cue settings. */
export function vttToSrt(vtt: string): string {
  const out: string[] = [];
  for (const block of vtt.replace(/^\uFEFF/, '').split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const at = lines.findIndex((l) => CUE.test(l));
    if (at === -1) continue;
    const m = CUE.exec(lines[at])!;
    const text = lines
      .slice(at + 1)
      .join('\n')
      .trimEnd();
    out.push(`${out.length + 1}\n${hms(m[1])},${m[2]} --> ${hms(m[3])},${m[4]}\n${text}`);
  }
  return out.join('\n\n') + '\n';
}

async function waitAvailable(
  ctx: CallContext,
  version: string,
  path: string,
  what: string,
  onProcessing?: ProcessingListener,
): Promise<void> {
  const { timeoutMs, pollMs } = ctx.network.processing ?? { timeoutMs: FIFTEEN_MINUTES, pollMs: 2000 };
  const deadline = Date.now() + timeoutMs;
  onProcessing?.(true);
  try {
    for (;;) {
      const { body } = await liCall<{ status?: string; processingFailureReason?: string }>(
        joinUrl(ctx.network.apiUrl, path),
        { headers: restHeaders(ctx.credentials.accessToken, version, false) },
        { what: `check the uploaded ${what}`, signal: ctx.signal },
      );
      if (body.status === 'AVAILABLE') return;
      if (body.status === 'PROCESSING_FAILED')
        throw new PlatformError(
          'problog',
          'permanent',
          `LinkedIn could not process the ${what}: ${body.processingFailureReason ?? 'PROCESSING_FAILED'}`,
        );
      if (Date.now() + pollMs > deadline) {
        const span = timeoutMs >= 60_000 ? `${Math.round(timeoutMs / 60_000)} min` : `${timeoutMs / 1000} s`;
        throw new PlatformError(
          'problog',
          'permanent',
          `LinkedIn was still processing the ${what} after ${span} (status ${body.status ?? 'unknown'}); ` +
            'it was not posted',
        );
      }
      try {
        await delay(pollMs, undefined, { signal: ctx.signal });
      } catch (err) {
        throw new PlatformError('problog', 'transient', 'Publishing to LinkedIn was cancelled', { cause: err });
      }
    }
  } finally {
    onProcessing?.(false);
  }
}

const put = (ctx: CallContext, url: string, body: BodyInit, type: string, length: number, what: string) =>
  liCall(
    url,
    {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${ctx.credentials.accessToken}`,
        'content-type': type,
        'content-length': String(length),
      },
      body,
      duplex: 'half',
    } as RequestInit,
    { what, signal: ctx.signal, timeoutMs: 30 * 60_000 },
  );

/** PUTs bytes `start`..`end` of the file, streamed with the socket's backpressure; answers the reply's headers. */
async function putSlice(ctx: CallContext, url: string, file: string, start: number, end: number, what: string) {
  let reply;
  try {
    reply = await streamUpload(
      new URL(url),
      {
        authorization: `Bearer ${ctx.credentials.accessToken}`,
        'content-type': 'application/octet-stream',
        'content-length': String(end - start + 1),
      },
      file,
      { signal: ctx.signal, timeoutMs: 30 * 60_000, method: 'PUT', start, end },
    );
  } catch (err) {
    throw networkFailure('problog', err, { write: false });
  }
  if (reply.status < 200 || reply.status > 299) {
    let body: unknown = reply.text;
    try {
      body = JSON.parse(reply.text);
    } catch {
      /* not JSON */
    }
    throw linkedinError(reply.status, body, what);
  }
  return reply;
}

/** Uploads a video for `owner`; answers its URN once LinkedIn says it is AVAILABLE. */
export async function uploadVideo(
  ctx: CallContext,
  owner: string,
  item: MediaItem,
  version: string,
  onProcessing?: ProcessingListener,
): Promise<string> {
  const caption = item.captions?.[0];
  const init = await liCall<VideoInit>(
    joinUrl(ctx.network.apiUrl, '/rest/videos?action=initializeUpload'),
    {
      method: 'POST',
      headers: restHeaders(ctx.credentials.accessToken, version),
      body: JSON.stringify({
        initializeUploadRequest: { owner, fileSizeBytes: item.size, uploadCaptions: !!caption, uploadThumbnail: false },
      }),
    },
    { what: 'start a video upload', signal: ctx.signal },
  );
  const { video, uploadToken = '', uploadInstructions = [], captionsUploadUrl } = init.body.value ?? {};
  if (!video || uploadInstructions.length === 0)
    throw new PlatformError('problog', 'transient', 'LinkedIn answered the video upload request without upload URLs');
  const etags: string[] = [];
  for (const part of uploadInstructions) {
    const { uploadUrl, firstByte = 0, lastByte = item.size - 1 } = part;
    if (!uploadUrl || !trustedUploadUrl(uploadUrl, ctx.network.apiUrl)) throw refuseUrl();
    const res = await putSlice(ctx, uploadUrl, item.path, firstByte, lastByte, 'upload a part of the video');
    const etag = res.headers.get('etag');
    if (!etag) throw new PlatformError('problog', 'transient', 'LinkedIn answered a video part without its ETag');
    etags.push(etag);
  }
  if (caption && captionsUploadUrl) {
    if (!trustedUploadUrl(captionsUploadUrl, ctx.network.apiUrl)) throw refuseUrl();
    const srt = Buffer.from(vttToSrt(caption.vtt), 'utf8');
    await put(ctx, captionsUploadUrl, srt, 'application/octet-stream', srt.length, 'upload the captions');
  }
  await liCall(
    joinUrl(ctx.network.apiUrl, '/rest/videos?action=finalizeUpload'),
    {
      method: 'POST',
      headers: restHeaders(ctx.credentials.accessToken, version),
      body: JSON.stringify({ finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags } }),
    },
    { what: 'finish the video upload', signal: ctx.signal },
  );
  await waitAvailable(ctx, version, `/rest/videos/${encodeURIComponent(video)}`, 'video', onProcessing);
  return video;
}

/** Uploads a PDF for `owner`; answers its URN once LinkedIn says it is AVAILABLE. */
export async function uploadDocument(ctx: CallContext, owner: string, item: MediaItem, version: string) {
  const init = await liCall<{ value?: { uploadUrl?: string; document?: string } }>(
    joinUrl(ctx.network.apiUrl, '/rest/documents?action=initializeUpload'),
    {
      method: 'POST',
      headers: restHeaders(ctx.credentials.accessToken, version),
      body: JSON.stringify({ initializeUploadRequest: { owner } }),
    },
    { what: 'start a document upload', signal: ctx.signal },
  );
  const { uploadUrl, document } = init.body.value ?? {};
  if (!uploadUrl || !document)
    throw new PlatformError(
      'problog',
      'transient',
      'LinkedIn answered the document upload request without an upload URL',
    );
  if (!trustedUploadUrl(uploadUrl, ctx.network.apiUrl)) throw refuseUrl();
  await putSlice(ctx, uploadUrl, item.path, 0, item.size - 1, 'upload the document');
  await waitAvailable(ctx, version, `/rest/documents/${encodeURIComponent(document)}`, 'document');
  return document;
}
