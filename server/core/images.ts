/**
 * Makes a still image fit a network's byte cap (Bluesky's PDS takes about 1 MB; Herald accepts
 * 5 MB). Re-encodes with libvips (sharp, loaded only when a file is over a cap): first at the same
 * size with falling quality, then smaller by steps, keeping the aspect ratio, orientation applied,
 * metadata (EXIF location and the like) dropped. Images with transparency become WebP so the
 * transparency survives; the rest become JPEG. Animated GIFs are not re-encoded.
 */
export interface ShrunkImage {
  bytes: Buffer;
  mime: 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

export class ShrinkError extends Error {}

type SharpFn = (typeof import('sharp'))['default'];
let loaded: Promise<SharpFn> | undefined;

function sharpModule(): Promise<SharpFn> {
  loaded ??= import('sharp').then((m) => m.default);
  return loaded;
}

/** Longest side tried first: no network shows more than this, so larger only costs bytes. */
const FIRST_SIDE = 2048;
const QUALITIES = [85, 75, 65];

export async function shrinkImage(input: Buffer, maxBytes: number): Promise<ShrunkImage> {
  let sharp: SharpFn;
  try {
    sharp = await sharpModule();
  } catch {
    throw new ShrinkError('the image library (sharp) is not available on this machine');
  }
  const meta = await sharp(input, { failOn: 'error' }).metadata();
  if ((meta.pages ?? 1) > 1)
    throw new ShrinkError('an animated image cannot be made smaller without losing its animation');
  // EXIF orientations 5-8 swap width and height once applied.
  const swap = (meta.orientation ?? 1) >= 5;
  const width0 = (swap ? meta.height : meta.width) ?? 0;
  const height0 = (swap ? meta.width : meta.height) ?? 0;
  if (!width0 || !height0) throw new ShrinkError('the image has no readable size');
  const alpha = Boolean(meta.hasAlpha);
  let side = Math.min(FIRST_SIDE, Math.max(width0, height0));
  for (let step = 0; step < 12 && side >= 64; step++) {
    for (const quality of QUALITIES) {
      const pipeline = sharp(input, { failOn: 'error' })
        .rotate()
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
      const { data, info } = alpha
        ? await pipeline.webp({ quality }).toBuffer({ resolveWithObject: true })
        : await pipeline
            .flatten({ background: '#ffffff' })
            .jpeg({ quality, mozjpeg: true })
            .toBuffer({ resolveWithObject: true });
      if (data.byteLength <= maxBytes)
        return { bytes: data, mime: alpha ? 'image/webp' : 'image/jpeg', width: info.width, height: info.height };
    }
    side = Math.floor(side * 0.75);
  }
  throw new ShrinkError(`the image could not be made smaller than ${maxBytes} bytes`);
}
