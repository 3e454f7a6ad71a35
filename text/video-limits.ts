/**
 * Each network's limits on one video (decisions §11, Clarifications): length from the file's movie
 * header, size in bytes. Over a limit the post is not valid for that network, named in its
 * verdict; nothing is sent or charged. Bluesky's service may allow less on the day
 * (getUploadLimits, asked when publishing). Shared by the server's verdicts and the composer.
 */
import { NETWORK_LABELS, type Platform } from './networks.js';

const MB = 1024 * 1024;

export interface VideoLimit {
  minMs?: number;
  maxMs?: number;
  maxBytes: number;
}

export const VIDEO_LIMITS: Record<Platform, VideoLimit> = {
  microblog: { maxMs: 140_000, maxBytes: 512 * MB },
  // The PDS caps an embedded video blob at 100,000,000 bytes.
  skyblog: { maxMs: 180_000, maxBytes: 100_000_000 },
  // Mastodon has no length limit; the size is the instance's (account meta video_size_limit).
  fedblog: { maxBytes: 99 * MB },
  threadblog: { maxMs: 300_000, maxBytes: 1024 * MB },
  problog: { minMs: 3_000, maxMs: 1_800_000, maxBytes: 500 * MB },
};

const seconds = (ms: number) => (ms % 60_000 === 0 && ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`);
/** Limits set in decimal megabytes read as such, those set in binary ones (512 MiB) as "512 MB". */
export const megabytes = (b: number) => `${Math.round(b % 1_000_000 === 0 ? b / 1_000_000 : b / (1024 * 1024))} MB`;

export function videoLimitFor(platform: Platform, meta: Record<string, unknown> = {}): VideoLimit {
  const limit = VIDEO_LIMITS[platform];
  const own = meta.video_size_limit;
  if (platform === 'fedblog' && typeof own === 'number' && own > 0) return { ...limit, maxBytes: own };
  return limit;
}

/** Why this video cannot go to the network, or undefined when it fits. */
export function videoProblem(
  platform: Platform,
  video: { size?: number; durationMs?: number | null; name?: string },
  meta: Record<string, unknown> = {},
): string | undefined {
  const limit = videoLimitFor(platform, meta);
  const net = NETWORK_LABELS[platform];
  const what = video.name ? `the video "${video.name}"` : 'the video';
  if (video.size !== undefined && video.size > limit.maxBytes)
    return `${what} is ${megabytes(video.size)}; ${net} takes videos up to ${megabytes(limit.maxBytes)}`;
  const d = video.durationMs;
  if (d !== null && d !== undefined) {
    if (limit.maxMs !== undefined && d > limit.maxMs)
      return `${what} is ${seconds(Math.round(d))} long; ${net} takes videos up to ${seconds(limit.maxMs)}`;
    if (limit.minMs !== undefined && d < limit.minMs)
      return `${what} is ${(d / 1000).toFixed(1)} s long; ${net} takes videos of at least ${seconds(limit.minMs)}`;
  }
  return undefined;
}
