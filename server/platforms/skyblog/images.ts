/**
 * Images for a Bluesky post (docs/decisions.md §19.2): each file is uploaded with
 * com.atproto.repo.uploadBlob just before the record that uses it (unreferenced blobs are
 * collected), and goes into an `app.bsky.embed.images` entry with its alt text and aspect ratio.
 * A still image over the size every PDS accepts is re-encoded smaller first (shrinkImage); a GIF
 * over it is refused before anything is uploaded, with the limit in the message.
 */
import fs from 'node:fs/promises';
import type { CallContext, MediaItem, PostLinkCard } from '../adapter.js';
import { shrinkImage, ShrinkError } from '../../core/images.js';
import { PlatformError } from '../errors.js';
import { xrpc } from './xrpc.js';

/** bsky.social's upload cap (976.56 KB), under the lexicon's 1,000,000 / 2,000,000 byte caps. */
export const SKYBLOG_IMAGE_MAX_BYTES = 976_560;
export const SKYBLOG_MAX_IMAGES = 4;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

export interface ImageEmbed {
  $type: 'app.bsky.embed.images';
  images: { image: BlobRef; alt: string; aspectRatio?: { width: number; height: number } }[];
}

/** Width and height from the file's own header (PNG, JPEG, GIF, WebP), when the caller had none. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && b.toString('latin1', 0, 4) === 'GIF8') {
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = b.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
    if (chunk === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) {
        i += 1;
        continue;
      }
      const marker = b[i + 1];
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      // Start-of-frame markers (all but DHT, JPG and DAC) carry the dimensions.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + len;
    }
  }
  return null;
}

/** Refuses what Bluesky would refuse, before anything is uploaded. */
export function checkImages(media: MediaItem[]): void {
  if (media.length > SKYBLOG_MAX_IMAGES) {
    throw new PlatformError(
      'skyblog',
      'permanent',
      `Bluesky allows at most ${SKYBLOG_MAX_IMAGES} images per post; this post has ${media.length}`,
    );
  }
  if (media.some((m) => m.kind === 'video')) {
    if (media.length > 1) throw new PlatformError('skyblog', 'permanent', 'Bluesky takes one video per post, alone');
    return;
  }
  for (const item of media) {
    if (item.kind === 'document')
      throw new PlatformError('skyblog', 'permanent', 'Bluesky does not take documents (PDF): LinkedIn only');
    if (!IMAGE_TYPES.has(item.mime))
      throw new PlatformError(
        'skyblog',
        'permanent',
        `Bluesky does not take ${item.mime} images; use JPEG, PNG, GIF or WebP`,
      );
    if (item.size > SKYBLOG_IMAGE_MAX_BYTES && !canShrink(item)) throw tooBig(item.size);
  }
}

/** Still images over the cap are made smaller; an animated GIF cannot be. */
const canShrink = (item: MediaItem) => item.kind === 'image' && item.mime !== 'image/gif';

function tooBig(size: number, why?: string): PlatformError {
  return new PlatformError(
    'skyblog',
    'permanent',
    `An image is ${(size / 1000).toFixed(0)} KB, over Bluesky's limit of ` +
      `${(SKYBLOG_IMAGE_MAX_BYTES / 1000).toFixed(2)} KB (${SKYBLOG_IMAGE_MAX_BYTES} bytes) per image` +
      `${why ? `, and ${why}` : ''}; make it smaller and try again`,
  );
}

/** The bytes that go out: the file itself, or a smaller re-encoding when it is over the cap. */
async function fitted(item: MediaItem): Promise<{ bytes: Buffer; mime: string; width?: number; height?: number }> {
  const bytes = await fs.readFile(item.path);
  if (bytes.byteLength <= SKYBLOG_IMAGE_MAX_BYTES)
    return { bytes, mime: item.mime, width: item.width, height: item.height };
  if (!canShrink(item)) throw tooBig(bytes.byteLength);
  try {
    return await shrinkImage(bytes, SKYBLOG_IMAGE_MAX_BYTES);
  } catch (err) {
    if (err instanceof ShrinkError) throw tooBig(bytes.byteLength, err.message);
    throw tooBig(bytes.byteLength, 'it could not be read to make it smaller');
  }
}

/** The lexicon's cap on a link card's thumb (app.bsky.embed.external#external.thumb, 1,000,000 bytes). */
export const SKYBLOG_THUMB_MAX_BYTES = 976_560;

export interface ExternalEmbed {
  $type: 'app.bsky.embed.external';
  external: { uri: string; title: string; description: string; thumb?: BlobRef };
}

/**
 * A link card as an external embed (docs/decisions.md §19.2): the thumbnail, when there is one, is
 * made to fit the lexicon's cap and uploaded as a blob right before the record. A thumbnail that
 * cannot be made small enough or is refused leaves the card without one, never fails the post.
 */
export async function externalEmbed(ctx: CallContext, base: string, card: PostLinkCard): Promise<ExternalEmbed> {
  const external: ExternalEmbed['external'] = { uri: card.url, title: card.title, description: card.description };
  if (card.thumb) {
    try {
      let { bytes, mime } = card.thumb;
      if (bytes.byteLength > SKYBLOG_THUMB_MAX_BYTES || !IMAGE_TYPES.has(mime))
        ({ bytes, mime } = await shrinkImage(bytes, SKYBLOG_THUMB_MAX_BYTES));
      const { blob } = await xrpc<{ blob: BlobRef }>(base, 'com.atproto.repo.uploadBlob', {
        what: 'upload a link card image',
        token: ctx.credentials.accessToken,
        bytes,
        contentType: mime,
        signal: ctx.signal,
        timeoutMs: 60_000,
      });
      if (blob?.ref) external.thumb = blob;
    } catch (err) {
      // A session that must be renewed is the caller's business; anything else only costs the thumb.
      if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'rate_limited')) throw err;
    }
  }
  return { $type: 'app.bsky.embed.external', external };
}

export async function uploadImages(
  ctx: CallContext,
  base: string,
  media: MediaItem[],
): Promise<ImageEmbed | undefined> {
  if (media.length === 0 || media.some((m) => m.kind === 'video')) return undefined;
  checkImages(media);
  const images: ImageEmbed['images'] = [];
  for (const item of media) {
    // The file on disk is what goes out (its real size, not only the recorded one), made smaller
    // when it is over the cap.
    const out = await fitted(item);
    const bytes = out.bytes;
    const { blob } = await xrpc<{ blob: BlobRef }>(base, 'com.atproto.repo.uploadBlob', {
      what: 'upload an image',
      token: ctx.credentials.accessToken,
      bytes,
      contentType: out.mime,
      signal: ctx.signal,
      timeoutMs: 120_000,
    });
    if (!blob?.ref)
      throw new PlatformError(
        'skyblog',
        'transient',
        'The Bluesky server answered the image upload without a blob reference',
      );
    const size = out.width && out.height ? { width: out.width, height: out.height } : imageSize(bytes);
    const entry: ImageEmbed['images'][number] = { image: blob, alt: item.altText ?? '' };
    if (size && size.width > 0 && size.height > 0)
      entry.aspectRatio = { width: Math.round(size.width), height: Math.round(size.height) };
    images.push(entry);
  }
  return { $type: 'app.bsky.embed.images', images };
}
