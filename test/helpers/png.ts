/**
 * Small but real PNG files (signature, IHDR, IDAT, IEND with correct CRCs) so media tests upload
 * bytes any image decoder accepts, without shipping binary fixtures.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { MediaItem } from '../../server/platforms/adapter.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGB PNG of one colour. */
export function pngBytes(width: number, height: number, rgb: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes a PNG into `dir` and describes it as the adapters receive media. */
export function pngMedia(
  dir: string,
  name: string,
  width: number,
  height: number,
  rgb: [number, number, number],
  altText: string,
): MediaItem {
  const file = path.join(dir, name);
  const bytes = pngBytes(width, height, rgb);
  fs.writeFileSync(file, bytes);
  return { path: file, mime: 'image/png', size: bytes.length, kind: 'image', width, height, altText };
}
