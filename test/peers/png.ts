/** Real PNG files built byte by byte (signature, IHDR, zlib-compressed IDAT, IEND) for peer tests. */
import crypto from 'node:crypto';
import zlib from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * An RGB PNG of `width` × `height`. `noise` fills it with random pixels (incompressible, for
 * size-limit tests); otherwise it is a solid colour.
 */
export function makePng(
  width: number,
  height: number,
  opts: { rgb?: [number, number, number]; noise?: boolean } = {},
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = 1 + width * 3;
  const raw = opts.noise ? crypto.randomBytes(row * height) : Buffer.alloc(row * height);
  const [r, g, b] = opts.rgb ?? [200, 30, 30];
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter: none
    if (opts.noise) continue;
    for (let x = 0; x < width; x++) {
      const o = y * row + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: opts.noise ? 0 : 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
