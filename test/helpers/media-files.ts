/**
 * Media files made in code: minimal but structurally valid PNG, JPEG, GIF, WebP, MP4 and MOV,
 * plus helpers to build multipart bodies and endless generated streams for upload tests. No
 * binary fixtures are shipped.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16be = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u16le = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), body, u32be(crc32(body))]);
}

export const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG claiming `width`×`height`; `idatBytes` of (not necessarily decodable) pixel data. */
export function png(width: number, height: number, idatBytes = 64): Buffer {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([
    PNG_SIG,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', crypto.randomBytes(idatBytes)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function jpeg(width: number, height: number, scanBytes = 64): Buffer {
  const app0 = Buffer.concat([
    Buffer.from([0xff, 0xe0]),
    u16be(16),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
  ]);
  const sof = Buffer.concat([
    Buffer.from([0xff, 0xc0]),
    u16be(11),
    Buffer.from([8]),
    u16be(height),
    u16be(width),
    Buffer.from([1, 1, 0x11, 0]),
  ]);
  const sos = Buffer.concat([Buffer.from([0xff, 0xda]), u16be(8), Buffer.from([1, 1, 0, 0, 0x3f, 0])]);
  const scan = Buffer.from(crypto.randomBytes(scanBytes).map((b) => (b === 0xff ? 0x00 : b)));
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, sos, scan, Buffer.from([0xff, 0xd9])]);
}

export function gif(width: number, height: number, frames = 1): Buffer {
  const head = Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    u16le(width),
    u16le(height),
    Buffer.from([0x80, 0, 0]),
    Buffer.from([0, 0, 0, 255, 255, 255]),
  ]);
  const frame = Buffer.concat([
    Buffer.from([0x2c]),
    u16le(0),
    u16le(0),
    u16le(Math.min(width, 4)),
    u16le(Math.min(height, 4)),
    Buffer.from([0]),
    Buffer.from([2, 3, 0x8c, 0x2d, 0x99, 0]),
  ]);
  return Buffer.concat([head, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}

export function webp(width: number, height: number, kind: 'VP8 ' | 'VP8L' | 'VP8X' = 'VP8 '): Buffer {
  let payload: Buffer;
  if (kind === 'VP8 ') {
    payload = Buffer.concat([
      Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a]),
      u16le(width & 0x3fff),
      u16le(height & 0x3fff),
      Buffer.alloc(8),
    ]);
  } else if (kind === 'VP8L') {
    const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    payload = Buffer.concat([Buffer.from([0x2f]), u32le(bits >>> 0), Buffer.alloc(7)]);
  } else {
    const w = width - 1;
    const h = height - 1;
    payload = Buffer.from([
      0,
      0,
      0,
      0,
      w & 0xff,
      (w >> 8) & 0xff,
      (w >> 16) & 0xff,
      h & 0xff,
      (h >> 8) & 0xff,
      (h >> 16) & 0xff,
    ]);
  }
  const chunk = Buffer.concat([Buffer.from(kind, 'latin1'), u32le(payload.length), payload]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(4 + chunk.length), Buffer.from('WEBP', 'latin1'), chunk]);
}

function box(type: string, body: Buffer): Buffer {
  return Buffer.concat([u32be(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

/** A version-0 track header giving the picture size (16.16 fixed point at offset 76). */
function tkhd(width: number, height: number): Buffer {
  const b = Buffer.alloc(84);
  b.writeUInt32BE(width * 65536, 76);
  b.writeUInt32BE(height * 65536, 80);
  return box('tkhd', b);
}

/** ftyp + moov (with a track of `dims`) + the header of an mdat of `mdatBytes`. */
export function videoHeader(kind: 'mp4' | 'mov', mdatBytes: number, dims: [number, number] = [1280, 720]): Buffer {
  const brand = kind === 'mp4' ? 'isom' : 'qt  ';
  const ftyp = box('ftyp', Buffer.concat([Buffer.from(brand, 'latin1'), u32be(0x200), Buffer.from(brand, 'latin1')]));
  const moov = box('moov', Buffer.concat([box('mvhd', Buffer.alloc(100)), box('trak', tkhd(dims[0], dims[1]))]));
  return Buffer.concat([ftyp, moov, u32be(8 + mdatBytes), Buffer.from('mdat', 'latin1')]);
}

export function video(kind: 'mp4' | 'mov', mdatBytes = 256): Buffer {
  return Buffer.concat([videoHeader(kind, mdatBytes), crypto.randomBytes(mdatBytes)]);
}

/**
 * The start of a file of `format` whose declared sizes leave room for a gigabyte of payload, so
 * the zeros that follow (GIF: 255-byte sub-blocks of zeros) keep the structure valid.
 */
export function endlessHeader(format: 'png' | 'jpeg' | 'webp' | 'gif' | 'mp4' | 'mov' | 'pdf'): {
  header: Buffer;
  pattern?: Buffer;
} {
  switch (format) {
    case 'png': {
      const ihdr = Buffer.concat([u32be(100), u32be(100), Buffer.from([8, 2, 0, 0, 0])]);
      return {
        header: Buffer.concat([PNG_SIG, pngChunk('IHDR', ihdr), u32be(0x7fff0000), Buffer.from('IDAT', 'latin1')]),
      };
    }
    case 'jpeg': {
      const j = jpeg(100, 100, 0);
      return { header: j.subarray(0, j.length - 2) };
    }
    case 'webp': {
      const w = webp(100, 100);
      w.writeUInt32LE(0xfffffff0, 4);
      return { header: w };
    }
    case 'gif': {
      const head = Buffer.concat([Buffer.from('GIF89a', 'latin1'), u16le(100), u16le(100), Buffer.from([0, 0, 0])]);
      const frame = Buffer.concat([
        Buffer.from([0x2c]),
        u16le(0),
        u16le(0),
        u16le(100),
        u16le(100),
        Buffer.from([0]),
        Buffer.from([8]),
      ]);
      const pattern = Buffer.alloc(256);
      pattern[0] = 255;
      return { header: Buffer.concat([head, frame]), pattern };
    }
    case 'pdf':
      return { header: Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1') };
    default:
      return { header: videoHeader(format, 0xfffffff0 - 8) };
  }
}

/** A stream of `header` followed by zeros (or `pattern` repeated) up to `total` bytes, generated as it is read. */
export function zeroTail(
  header: Buffer,
  total: number,
  opts: { pattern?: Buffer; onRead?: (n: number) => void } = {},
): Readable {
  let sent = 0;
  const block = Buffer.alloc(256 * 1024);
  if (opts.pattern) for (let i = 0; i < block.length; i += opts.pattern.length) opts.pattern.copy(block, i);
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const chunk = sent === 0 ? header : block.subarray(0, Math.min(block.length, total - sent));
      sent += chunk.length;
      opts.onRead?.(chunk.length);
      this.push(chunk);
    },
  });
}

export interface Part {
  name?: string;
  /** Without a file name the part is a plain form field. */
  filename?: string;
  type?: string;
  data: Buffer | Readable;
  /** The whole Content-Disposition value, sent as is (e.g. with an RFC 5987 filename*). */
  disposition?: string;
}

/** A multipart/form-data body as a stream, so parts can be endless generated streams. */
export function multipart(parts: Part[]): { boundary: string; stream: Readable } {
  const boundary = `----herald${crypto.randomBytes(8).toString('hex')}`;
  async function* gen() {
    for (const p of parts) {
      const fname = p.filename?.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
      const disposition =
        p.disposition ?? `form-data; name="${p.name ?? 'files'}"${fname === undefined ? '' : `; filename="${fname}"`}`;
      const type = fname === undefined ? '' : `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n`;
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`, 'latin1');
      if (Buffer.isBuffer(p.data)) yield p.data;
      else for await (const c of p.data) yield c as Buffer;
      yield Buffer.from('\r\n', 'latin1');
    }
    yield Buffer.from(`--${boundary}--\r\n`, 'latin1');
  }
  return { boundary, stream: Readable.from(gen(), { objectMode: false }) };
}

export interface UploadReply {
  status: number;
  body: any;
  text: string;
  error?: string;
}

/** Streams a multipart upload over node:http; resolves with the answer even if the server cut the body off. */
export function upload(
  base: string,
  key: string,
  parts: Part[],
  path = '/microblog/media/upload',
): Promise<UploadReply> {
  const { boundary, stream } = multipart(parts);
  const url = new URL(base + path);
  return new Promise((resolve) => {
    let settled = false;
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      headers: {
        'svc-key': key,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      const finish = () => {
        if (settled) return;
        settled = true;
        stream.destroy();
        req.destroy();
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body, text });
      };
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    req.on('error', (err) => {
      stream.destroy();
      if (!settled)
        setTimeout(() => {
          if (!settled) {
            settled = true;
            resolve({ status: 0, body: undefined, text: '', error: err.message });
          }
        }, 200);
    });
    stream.on('error', () => req.destroy());
    stream.pipe(req);
  });
}
