/**
 * What Herald accepts as media, decided from the bytes only: the declared Content-Type and the
 * file name are never read. Statuses: 413 when a file is over its byte cap, 415 when the bytes
 * are not one of the allowed types (SVG, HTML, scripts, archives, unknown), 400 when the bytes
 * claim an allowed type but are malformed, truncated, carry trailing data, or exceed the pixel
 * or frame caps.
 */
import { HeraldError } from '../../core/errors.js';

export type MediaKind = 'image' | 'gif' | 'video' | 'document';
export type MediaFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'mp4' | 'mov' | 'pdf';

export interface MediaTypeInfo {
  format: MediaFormat;
  kind: MediaKind;
  mime: string;
  ext: string;
  /** Byte cap; a file of cap + 1 bytes is refused. */
  maxBytes: number;
}

const MB = 1024 * 1024;

export const MEDIA_TYPES: Record<MediaFormat, MediaTypeInfo> = {
  png: { format: 'png', kind: 'image', mime: 'image/png', ext: 'png', maxBytes: 5 * MB },
  jpeg: { format: 'jpeg', kind: 'image', mime: 'image/jpeg', ext: 'jpg', maxBytes: 5 * MB },
  webp: { format: 'webp', kind: 'image', mime: 'image/webp', ext: 'webp', maxBytes: 5 * MB },
  gif: { format: 'gif', kind: 'gif', mime: 'image/gif', ext: 'gif', maxBytes: 15 * MB },
  mp4: { format: 'mp4', kind: 'video', mime: 'video/mp4', ext: 'mp4', maxBytes: 512 * MB },
  mov: { format: 'mov', kind: 'video', mime: 'video/quicktime', ext: 'mov', maxBytes: 512 * MB },
  pdf: { format: 'pdf', kind: 'document', mime: 'application/pdf', ext: 'pdf', maxBytes: 100 * MB },
};

/** The largest cap of any type: the whole-file limit handed to multer as well. */
export const MAX_MEDIA_BYTES = Math.max(...Object.values(MEDIA_TYPES).map((t) => t.maxBytes));

/** Pixel caps, checked from headers before anything is decoded. */
export const MAX_SIDE = 8192;
export const MAX_PIXELS = 40_000_000;
export const MAX_GIF_FRAMES = 1000;

/** Bytes gathered before the type is decided (file-type's own sample size is 4100). */
export const SNIFF_BYTES = 16 * 1024;

/** file-type's answer → our format; anything else is refused. */
const FROM_SNIFF: Record<string, MediaFormat> = {
  'png|image/png': 'png',
  'jpg|image/jpeg': 'jpeg',
  'webp|image/webp': 'webp',
  'gif|image/gif': 'gif',
  'mp4|video/mp4': 'mp4',
  'mov|video/quicktime': 'mov',
  'pdf|application/pdf': 'pdf',
};

/**
 * Markup that makes a file a polyglot a browser or tool might run. Long tags only, so random
 * compressed bytes do not match by chance.
 */
const MARKUP = /<(?:script|html|svg|iframe|object|embed|body|!doctype|\?xml)[\s>/]/i;

export const tooLarge = (info: MediaTypeInfo) =>
  new HeraldError(
    'INVALID_INPUT',
    `The ${info.format.toUpperCase()} file is over its ${Math.round(info.maxBytes / MB)} MB limit`,
    { status: 413 },
  );

export const malformed = (format: string, why: string) =>
  new HeraldError('INVALID_INPUT', `Not a valid ${format.toUpperCase()} file: ${why}`);

export const unsupported = (what = 'This file type') =>
  new HeraldError('INVALID_INPUT', `${what} is not accepted; send PNG, JPEG, WebP, GIF, MP4, MOV or PDF`, {
    status: 415,
  });

/** Decides the type from the first bytes of a file. */
/** file-type (with its token readers; its load time: README, Performance) is loaded by the first upload. */
let fileType: Promise<typeof import('file-type')> | undefined;

export async function sniffType(head: Buffer): Promise<MediaTypeInfo> {
  if (head.length === 0) throw new HeraldError('INVALID_INPUT', 'The file is empty');
  const { fileTypeFromBuffer } = await (fileType ??= import('file-type'));
  const found = await fileTypeFromBuffer(head);
  const format = found ? FROM_SNIFF[`${found.ext}|${found.mime}`] : undefined;
  if (!format) throw unsupported(found ? `${found.mime}` : 'This file type');
  // A PDF's own syntax may name markup types in its metadata; it is served as a download, never run.
  if (format !== 'pdf' && MARKUP.test(head.toString('latin1')))
    throw unsupported('A file with HTML, SVG or script markup inside');
  return MEDIA_TYPES[format];
}

/** Throws when width × height exceed the caps (or are zero). */
export function checkPixels(format: string, width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw malformed(format, 'width and height must be positive');
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw new HeraldError(
      'INVALID_INPUT',
      `The image is ${width}×${height} pixels; the limit is ${MAX_SIDE} per side and ` +
        `${MAX_PIXELS / 1_000_000} megapixels`,
    );
  }
}
