/**
 * A video on Bluesky goes through the video service (decisions §11), never through the PDS
 * directly: a service-auth token from the account's PDS for each call, the upload limits asked
 * first (canUpload false holds the post: a quota, not a failure), the file streamed from disk
 * (never whole in memory), then the job polled until the service has stored the processed blob on
 * the account's PDS. The embed carries alt text, aspect ratio and captions (each caption a blob).
 */
import type { CallContext, MediaItem } from '../adapter.js';
import { networkFailure, PlatformError } from '../errors.js';
import { streamUpload } from '../stream-upload.js';
import { hostOf } from '../http.js';
import { xrpc, xrpcError, xrpcUrl, type XrpcErrorBody } from './xrpc.js';
import type { BlobRef } from './images.js';

export const DEFAULT_VIDEO_URL = 'https://video.bsky.app';
const FIFTEEN_MINUTES = 15 * 60_000;

export interface VideoEmbed {
  $type: 'app.bsky.embed.video';
  video: BlobRef;
  alt?: string;
  aspectRatio?: { width: number; height: number };
  captions?: { lang: string; file: BlobRef }[];
}

interface JobStatus {
  jobId?: string;
  did?: string;
  state?: string;
  progress?: number;
  blob?: BlobRef;
  error?: string;
  message?: string;
}

interface UploadLimits extends XrpcErrorBody {
  canUpload?: boolean;
  remainingDailyVideos?: number;
  remainingDailyBytes?: number;
}

/** Told while the network processes a video (progress shows `waitingFor: "processing"`). */
export type ProcessingListener = (processing: boolean) => void;

const span = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 100) / 10} s`);

const nextUtcMidnight = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

async function serviceAuth(ctx: CallContext, pds: string, aud: string, lxm: string): Promise<string> {
  const exp = String(Math.floor(Date.now() / 1000) + 30 * 60);
  const r = await xrpc<{ token?: string }>(pds, 'com.atproto.server.getServiceAuth', {
    what: 'get a token for the video service',
    token: ctx.credentials.accessToken,
    params: { aud, lxm, exp },
    signal: ctx.signal,
  });
  if (!r?.token)
    throw new PlatformError('skyblog', 'transient', `${hostOf(pds)} answered the service-auth request without a token`);
  return r.token;
}

const quotaHold = (why: string) =>
  new PlatformError(
    'skyblog',
    'rate_limited',
    `Bluesky's video service takes no more videos from this account now (${why})`,
    {
      code: 'video_quota',
      resetAt: nextUtcMidnight(Date.now()),
    },
  );

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

/** Uploads one video and waits for the service to finish it; answers the post's embed. */
export async function videoEmbed(
  ctx: CallContext,
  pds: string,
  did: string,
  item: MediaItem,
  onProcessing?: ProcessingListener,
): Promise<VideoEmbed> {
  const service = ctx.network.videoUrl ?? DEFAULT_VIDEO_URL;
  const { timeoutMs, pollMs } = ctx.network.processing ?? { timeoutMs: FIFTEEN_MINUTES, pollMs: 2000 };
  const limitsToken = await serviceAuth(
    ctx,
    pds,
    `did:web:${new URL(service).hostname}`,
    'app.bsky.video.getUploadLimits',
  );
  const limits = await xrpc<UploadLimits>(service, 'app.bsky.video.getUploadLimits', {
    what: 'ask the video upload limits',
    token: limitsToken,
    signal: ctx.signal,
  });
  if (limits.canUpload === false) throw quotaHold(limits.message || limits.error || 'canUpload: false');
  if (typeof limits.remainingDailyBytes === 'number' && item.size > limits.remainingDailyBytes)
    throw quotaHold(`${limits.remainingDailyBytes} bytes left today, the video is ${item.size}`);

  // The service stores the processed blob on the account's PDS with this token, as the account.
  const uploadToken = await serviceAuth(ctx, pds, `did:web:${new URL(pds).hostname}`, 'com.atproto.repo.uploadBlob');
  const url = new URL(xrpcUrl(service, 'app.bsky.video.uploadVideo'));
  url.searchParams.set('did', did);
  url.searchParams.set('name', `${Date.now().toString(36)}.mp4`);
  let reply;
  try {
    reply = await streamUpload(
      url,
      {
        authorization: `Bearer ${uploadToken}`,
        'content-type': item.mime,
        'content-length': String(item.size),
        accept: 'application/json',
      },
      item.path,
      { signal: ctx.signal, timeoutMs: 60 * 60_000 },
    );
  } catch (err) {
    throw networkFailure('skyblog', err, { write: false });
  }
  let parsed: { jobStatus?: JobStatus } & JobStatus & XrpcErrorBody = {};
  try {
    parsed = reply.text ? JSON.parse(reply.text) : {};
  } catch {
    parsed = { message: reply.text.slice(0, 300) };
  }
  if (reply.status < 200 || reply.status > 299)
    throw xrpcError(reply.status, reply.headers, parsed, 'upload the video', hostOf(service));
  const answer = { body: parsed };
  let job: JobStatus = answer.body.jobStatus ?? answer.body;
  if (!job?.jobId)
    throw new PlatformError(
      'skyblog',
      'permanent',
      "Bluesky's video service did not start a job for the video: " +
        (job?.message || job?.error || 'no jobId in its answer'),
    );
  const jobId = job.jobId;
  const deadline = Date.now() + timeoutMs;
  onProcessing?.(true);
  try {
    for (;;) {
      if (job.state === 'JOB_STATE_FAILED')
        throw new PlatformError(
          'skyblog',
          'permanent',
          `Bluesky's video service could not process the video: ${job.message || job.error || 'JOB_STATE_FAILED'}`,
        );
      if (job.state === 'JOB_STATE_COMPLETED' && job.blob?.ref) break;
      if (Date.now() >= deadline)
        throw new PlatformError(
          'skyblog',
          'permanent',
          `Bluesky was still processing the video after ${span(timeoutMs)} (last state ${job.state ?? 'unknown'}); ` +
            'it was not posted',
        );
      await sleep(pollMs, ctx.signal);
      const r = await xrpc<{ jobStatus?: JobStatus }>(service, 'app.bsky.video.getJobStatus', {
        what: 'ask how the video processing goes',
        params: { jobId },
        signal: ctx.signal,
      });
      job = r.jobStatus ?? {};
    }
  } finally {
    onProcessing?.(false);
  }

  const embed: VideoEmbed = { $type: 'app.bsky.embed.video', video: job.blob! };
  if (item.altText) embed.alt = item.altText;
  if (item.width && item.height) embed.aspectRatio = { width: item.width, height: item.height };
  const captions = [];
  for (const c of item.captions ?? []) {
    const { blob } = await xrpc<{ blob: BlobRef }>(pds, 'com.atproto.repo.uploadBlob', {
      what: 'upload the captions',
      token: ctx.credentials.accessToken,
      bytes: Buffer.from(c.vtt, 'utf8'),
      contentType: 'text/vtt',
      signal: ctx.signal,
    });
    captions.push({ lang: c.lang, file: blob });
  }
  if (captions.length) embed.captions = captions;
  return embed;
}
