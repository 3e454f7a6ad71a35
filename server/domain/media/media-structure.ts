/**
 * Walks a media file's container structure as it streams past, without decoding anything:
 * dimensions come from headers (PNG IHDR, JPEG SOFn, WebP VP8/VP8L/VP8X, GIF logical screen,
 * MP4/MOV tkhd), GIF frames are counted, and a file must end exactly where its format says it
 * ends. That last rule is what refuses polyglots (a GIF with a ZIP after its trailer, a PNG with
 * HTML after IEND) and truncated files.
 *
 * Each walker is a generator that asks the driver for bytes: `read` n bytes, `skip` n bytes, or
 * take the `rest` of the stream (only its last two bytes are kept).
 */
import { checkPixels, malformed, MAX_GIF_FRAMES, type MediaFormat } from './media-types.js';
import { HeraldError } from '../../core/errors.js';
import { PdfPages } from './media-pdf.js';

export interface StructureResult {
  width?: number;
  height?: number;
  frames?: number;
  /** Videos: the movie header's duration. */
  durationMs?: number;
  /** PDFs: the page count. */
  pages?: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Need = { read: number; eofOk?: boolean } | { skip: number } | { rest: true };
type Walker = Generator<Need, StructureResult, Buffer | null>;

function* pngWalker(): Walker {
  const sig = yield { read: 8 };
  if (!sig!.equals(PNG_SIGNATURE)) throw malformed('png', 'bad signature');
  let dims: StructureResult | undefined;
  let idat = 0;
  for (;;) {
    const h = (yield { read: 8 })!;
    const len = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    if (!/^[A-Za-z]{4}$/.test(type) || len > 0x7fffffff) throw malformed('png', 'bad chunk');
    if (!dims) {
      if (type !== 'IHDR' || len !== 13) throw malformed('png', 'IHDR must come first');
      const d = (yield { read: 17 })!;
      dims = { width: d.readUInt32BE(0), height: d.readUInt32BE(4) };
      checkPixels('png', dims.width!, dims.height!);
      continue;
    }
    if (type === 'IHDR') throw malformed('png', 'second IHDR');
    if (type === 'IDAT') idat += 1;
    yield { skip: len + 4 };
    if (type === 'IEND') {
      if (!idat) throw malformed('png', 'no image data');
      return dims;
    }
  }
}

const isSof = (c: number) => c >= 0xc0 && c <= 0xcf && c !== 0xc4 && c !== 0xc8 && c !== 0xcc;

function* jpegWalker(): Walker {
  const soi = (yield { read: 2 })!;
  if (soi[0] !== 0xff || soi[1] !== 0xd8) throw malformed('jpeg', 'no start marker');
  let dims: StructureResult | undefined;
  for (;;) {
    const m = (yield { read: 2 })!;
    if (m[0] !== 0xff) throw malformed('jpeg', 'bad marker');
    let code = m[1];
    while (code === 0xff) code = (yield { read: 1 })![0];
    if ((code >= 0xd0 && code <= 0xd7) || code === 0x01) continue;
    if (code === 0xd8 || code === 0xd9 || code === 0x00) throw malformed('jpeg', 'unexpected marker');
    const len = (yield { read: 2 })!.readUInt16BE(0);
    if (len < 2) throw malformed('jpeg', 'bad segment length');
    if (isSof(code)) {
      if (dims) throw malformed('jpeg', 'second frame header');
      if (len < 8) throw malformed('jpeg', 'short frame header');
      const d = (yield { read: len - 2 })!;
      dims = { height: d.readUInt16BE(1), width: d.readUInt16BE(3) };
      checkPixels('jpeg', dims.width!, dims.height!);
      continue;
    }
    yield { skip: len - 2 };
    if (code === 0xda) {
      if (!dims) throw malformed('jpeg', 'scan before frame header');
      const tail = yield { rest: true };
      if (!tail || tail.length < 2 || tail[0] !== 0xff || tail[1] !== 0xd9)
        throw malformed('jpeg', 'it must end with its end-of-image marker');
      return dims;
    }
  }
}

function* gifWalker(): Walker {
  const h = (yield { read: 13 })!;
  const sig = h.toString('latin1', 0, 6);
  if (sig !== 'GIF87a' && sig !== 'GIF89a') throw malformed('gif', 'bad signature');
  const width = h.readUInt16LE(6);
  const height = h.readUInt16LE(8);
  checkPixels('gif', width, height);
  if (h[10] & 0x80) yield { skip: 3 * 2 ** ((h[10] & 7) + 1) };
  let frames = 0;
  const subBlocks = function* (): Generator<Need, void, Buffer | null> {
    for (;;) {
      const n = (yield { read: 1 })![0];
      if (n === 0) return;
      yield { skip: n };
    }
  };
  for (;;) {
    const tag = (yield { read: 1 })![0];
    if (tag === 0x3b) {
      if (!frames) throw malformed('gif', 'no image');
      return { width, height, frames };
    }
    if (tag === 0x2c) {
      frames += 1;
      if (frames > MAX_GIF_FRAMES)
        throw new HeraldError('INVALID_INPUT', `The GIF has more than ${MAX_GIF_FRAMES} frames`);
      const d = (yield { read: 9 })!;
      if (d[8] & 0x80) yield { skip: 3 * 2 ** ((d[8] & 7) + 1) };
      yield { read: 1 };
      yield* subBlocks();
    } else if (tag === 0x21) {
      yield { read: 1 };
      yield* subBlocks();
    } else {
      throw malformed('gif', 'unknown block');
    }
  }
}

function* webpWalker(): Walker {
  const h = (yield { read: 20 })!;
  if (h.toString('latin1', 0, 4) !== 'RIFF' || h.toString('latin1', 8, 12) !== 'WEBP')
    throw malformed('webp', 'bad header');
  const riffSize = h.readUInt32LE(4);
  const fourcc = h.toString('latin1', 12, 16);
  let width: number;
  let height: number;
  let used = 4 + 8;
  if (fourcc === 'VP8X') {
    const d = (yield { read: 10 })!;
    width = 1 + d.readUIntLE(4, 3);
    height = 1 + d.readUIntLE(7, 3);
    used += 10;
  } else if (fourcc === 'VP8 ') {
    const d = (yield { read: 10 })!;
    if (d[3] !== 0x9d || d[4] !== 0x01 || d[5] !== 0x2a) throw malformed('webp', 'bad VP8 start code');
    width = d.readUInt16LE(6) & 0x3fff;
    height = d.readUInt16LE(8) & 0x3fff;
    used += 10;
  } else if (fourcc === 'VP8L') {
    const d = (yield { read: 5 })!;
    if (d[0] !== 0x2f) throw malformed('webp', 'bad VP8L signature');
    const bits = d.readUInt32LE(1);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
    used += 5;
  } else {
    throw malformed('webp', 'unknown first chunk');
  }
  checkPixels('webp', width, height);
  if (riffSize < used) throw malformed('webp', 'RIFF size too small');
  yield { skip: riffSize - used };
  return { width, height };
}

/** Children of an ISO box payload, as [type, payload] pairs. */
function* isoChildren(buf: Buffer): Generator<[string, Buffer]> {
  let off = 0;
  while (off + 8 <= buf.length) {
    const size = buf.readUInt32BE(off);
    if (size < 8 || off + size > buf.length) return;
    yield [buf.toString('latin1', off + 4, off + 8), buf.subarray(off + 8, off + size)];
    off += size;
  }
}

/** The movie header's duration (mvhd: version 1 has 64-bit times), in ms. */
function movieDuration(mvhd: Buffer): number | undefined {
  const v1 = mvhd[0] === 1;
  if (mvhd.length < (v1 ? 32 : 20)) return undefined;
  const scale = mvhd.readUInt32BE(v1 ? 20 : 12);
  const units = v1 ? Number(mvhd.readBigUInt64BE(24)) : mvhd.readUInt32BE(16);
  // All ones: "unknown" in the format.
  if (!scale || units === 0xffffffff || !Number.isSafeInteger(units)) return undefined;
  return Math.round((units * 1000) / scale);
}

/** Width and height of the first track with a picture (tkhd, 16.16 fixed point), and the duration. */
function videoDims(moov: Buffer): StructureResult {
  let durationMs: number | undefined;
  for (const [type, box] of isoChildren(moov)) if (type === 'mvhd') durationMs = movieDuration(box);
  const dims = trackDims(moov);
  return durationMs === undefined ? dims : { ...dims, durationMs };
}

function trackDims(moov: Buffer): StructureResult {
  for (const [type, trak] of isoChildren(moov)) {
    if (type !== 'trak') continue;
    for (const [t, tkhd] of isoChildren(trak)) {
      if (t !== 'tkhd') continue;
      const at = tkhd[0] === 1 ? 88 : 76;
      if (tkhd.length < at + 8) continue;
      const width = tkhd.readUInt32BE(at) >>> 16;
      const height = tkhd.readUInt32BE(at + 4) >>> 16;
      if (width && height) return { width, height };
    }
  }
  return {};
}

const MAX_MOOV_PARSE = 4 * 1024 * 1024;

function* isoWalker(format: 'mp4' | 'mov'): Walker {
  let dims: StructureResult = {};
  let moov = false;
  let first = true;
  for (;;) {
    const h = yield { read: 8, eofOk: !first };
    if (h === null) break;
    first = false;
    let size = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw malformed(format, 'bad box type');
    let header = 8;
    if (size === 1) {
      const big = (yield { read: 8 })!.readBigUInt64BE(0);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw malformed(format, 'box too large');
      size = Number(big);
      header = 16;
    }
    if (type === 'moov') moov = true;
    if (size === 0) {
      yield { rest: true };
      break;
    }
    if (size < header) throw malformed(format, 'bad box size');
    if (type === 'moov' && size - header <= MAX_MOOV_PARSE) dims = videoDims((yield { read: size - header })!);
    else yield { skip: size - header };
  }
  if (!moov) throw malformed(format, 'no movie header (moov)');
  return dims;
}

const WALKERS: Record<MediaFormat, () => Walker> = {
  png: pngWalker,
  jpeg: jpegWalker,
  gif: gifWalker,
  webp: webpWalker,
  mp4: () => isoWalker('mp4'),
  mov: () => isoWalker('mov'),
  pdf: function* () {
    yield { rest: true };
    return {};
  },
};

/** Feeds chunks to a format's walker; `end()` says whether the file ended where it should. */
export class StructureCheck {
  private readonly gen: Walker;
  private need: Need | undefined;
  private result: StructureResult | undefined;
  private parts: Buffer[] = [];
  private have = 0;
  private tail = Buffer.alloc(0);
  private readonly pdf: PdfPages | undefined;

  constructor(private readonly format: MediaFormat) {
    this.gen = WALKERS[format]();
    this.advance(null);
    if (format === 'pdf') this.pdf = new PdfPages();
  }

  private advance(input: Buffer | null): void {
    let step = this.gen.next(input);
    while (!step.done && 'skip' in step.value && step.value.skip === 0) step = this.gen.next(null);
    if (step.done) {
      this.result = step.value;
      this.need = undefined;
    } else {
      this.need = step.value;
    }
  }

  push(chunk: Buffer): void {
    if (this.pdf) return this.pdf.push(chunk);
    let off = 0;
    while (off < chunk.length) {
      const need = this.need;
      if (!need) throw malformed(this.format, 'data after the end of the file');
      if ('rest' in need) {
        this.tail = Buffer.concat([this.tail, chunk.subarray(Math.max(off, chunk.length - 2))]).subarray(-2);
        return;
      }
      if ('skip' in need) {
        const n = Math.min(need.skip, chunk.length - off);
        need.skip -= n;
        off += n;
        if (need.skip === 0) this.advance(null);
        continue;
      }
      const n = Math.min(need.read - this.have, chunk.length - off);
      this.parts.push(chunk.subarray(off, off + n));
      this.have += n;
      off += n;
      if (this.have === need.read) {
        const data = Buffer.concat(this.parts);
        this.parts = [];
        this.have = 0;
        this.advance(data);
      }
    }
  }

  end(): StructureResult {
    if (this.pdf) return { pages: this.pdf.end() };
    const need = this.need;
    if (need && 'rest' in need) this.advance(this.tail);
    else if (need && 'read' in need && need.eofOk && this.have === 0) this.advance(null);
    if (this.need || !this.result) throw malformed(this.format, 'the file is truncated');
    return this.result;
  }
}
