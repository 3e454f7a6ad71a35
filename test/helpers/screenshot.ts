/**
 * Screenshots kept in the repository and compared with a pixel tolerance, without an image
 * library: Chromium's PNGs (8-bit, RGB or RGBA, not interlaced) are decoded with node:zlib.
 * HERALD_UPDATE_SCREENSHOTS=1 rewrites the baselines; a missing baseline is written and noted.
 * On a mismatch the new shot and a diff (changed pixels in red) go to test-results/screenshots.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Locator } from 'playwright-core';
import { shotPath } from './browser.js';

export const BASELINES = path.resolve('test/e2e/__screenshots__');

export interface Image {
  width: number;
  height: number;
  rgba: Buffer;
}

/** Decodes an 8-bit, non-interlaced PNG of colour type 2 (RGB), 6 (RGBA) or 0 (grey). */
export function decodePng(buf: Buffer): Image {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0,
    height = 0,
    type = 0;
  const idat: Buffer[] = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const kind = buf.toString('ascii', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      type = data[9];
      if (data[8] !== 8 || data[12] !== 0 || ![0, 2, 6].includes(type))
        throw new Error(`unsupported PNG: depth ${data[8]}, type ${type}, interlace ${data[12]}`);
    } else if (kind === 'IDAT') idat.push(data);
    else if (kind === 'IEND') break;
    at += 12 + len;
  }
  const channels = type === 6 ? 4 : type === 2 ? 3 : 1;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels] : 0;
      const b = prev[x];
      const c = x >= channels ? prev[x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[x] = v & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    if (channels === 1) {
      rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = pixels[s];
      rgba[i * 4 + 3] = 255;
    } else {
      rgba[i * 4] = pixels[s];
      rgba[i * 4 + 1] = pixels[s + 1];
      rgba[i * 4 + 2] = pixels[s + 2];
      rgba[i * 4 + 3] = channels === 4 ? pixels[s + 3] : 255;
    }
  }
  return { width, height, rgba };
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const x of b) c = CRC[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, tail]);
}
export function encodePng(img: Image): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((img.width * 4 + 1) * img.height);
  for (let y = 0; y < img.height; y++)
    img.rgba.copy(raw, y * (img.width * 4 + 1) + 1, y * img.width * 4, (y + 1) * img.width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Share of pixels whose channels differ by more than `threshold` (sizes must match), and a diff image. */
export function compareImages(a: Image, b: Image, threshold = 24): { ratio: number; diff: Image } {
  if (a.width !== b.width || a.height !== b.height) return { ratio: 1, diff: a };
  const diff = Buffer.from(a.rgba);
  let bad = 0;
  for (let i = 0; i < a.width * a.height; i++) {
    const o = i * 4;
    const d = Math.max(
      Math.abs(a.rgba[o] - b.rgba[o]),
      Math.abs(a.rgba[o + 1] - b.rgba[o + 1]),
      Math.abs(a.rgba[o + 2] - b.rgba[o + 2]),
      Math.abs(a.rgba[o + 3] - b.rgba[o + 3]),
    );
    if (d > threshold) {
      bad++;
      diff[o] = 255;
      diff[o + 1] = 0;
      diff[o + 2] = 0;
      diff[o + 3] = 255;
    } else {
      diff[o] = diff[o + 1] = diff[o + 2] = 255 - ((255 - a.rgba[o + 1]) >> 2);
      diff[o + 3] = 255;
    }
  }
  return { ratio: bad / (a.width * a.height), diff: { width: a.width, height: a.height, rgba: diff } };
}

/**
 * Screenshots `locator` and compares it with test/e2e/__screenshots__/<name>.png; returns what
 * differs (0 when it matches within `tolerance`, the share of pixels allowed to differ).
 */
export async function matchScreenshot(
  locator: Locator,
  name: string,
  tolerance = 0.002,
): Promise<{ ratio: number; written: boolean; size: string; baselineSize?: string }> {
  const shot = await locator.screenshot({ animations: 'disabled', caret: 'hide' });
  const file = path.join(BASELINES, `${name}.png`);
  const actual = decodePng(shot);
  if (process.env.HERALD_UPDATE_SCREENSHOTS === '1' || !fs.existsSync(file)) {
    fs.mkdirSync(BASELINES, { recursive: true });
    fs.writeFileSync(file, shot);
    return { ratio: 0, written: true, size: `${actual.width}x${actual.height}` };
  }
  const expected = decodePng(fs.readFileSync(file));
  const { ratio, diff } = compareImages(actual, expected);
  if (ratio > tolerance) {
    fs.writeFileSync(shotPath(`${name}.actual`), shot);
    fs.writeFileSync(shotPath(`${name}.diff`), encodePng(diff));
  }
  return {
    ratio: ratio > tolerance ? ratio : 0,
    written: false,
    size: `${actual.width}x${actual.height}`,
    baselineSize: `${expected.width}x${expected.height}`,
  };
}
