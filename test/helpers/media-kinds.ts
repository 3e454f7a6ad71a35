/** Generated documents and timed videos for the media-kinds tests (valid structure, made-up content). */
import zlib from 'node:zlib';

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const box = (type: string, body: Buffer) => Buffer.concat([u32be(8 + body.length), Buffer.from(type, 'latin1'), body]);

/**
 * An MP4 of `durationMs` (the movie header's timescale 1000) with a 1280×720 track and `mdatBytes`
 * of payload (zeros unless `fill` says otherwise).
 */
export function timedVideo(durationMs: number, mdatBytes = 1024, dims: [number, number] = [1280, 720]): Buffer {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom', 'latin1'), u32be(0x200), Buffer.from('isom', 'latin1')]));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(durationMs, 16);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(dims[0] * 65536, 76);
  tkhd.writeUInt32BE(dims[1] * 65536, 80);
  const moov = box('moov', Buffer.concat([box('mvhd', mvhd), box('trak', box('tkhd', tkhd))]));
  return Buffer.concat([ftyp, moov, u32be(8 + mdatBytes), Buffer.from('mdat', 'latin1'), Buffer.alloc(mdatBytes)]);
}

/** The header of a timed MP4 whose mdat declares `mdatBytes` that the caller streams after it. */
export function timedVideoHeader(durationMs: number, mdatBytes: number): Buffer {
  const whole = timedVideo(durationMs, 0);
  whole.writeUInt32BE(8 + mdatBytes, whole.length - 8);
  return whole;
}

/**
 * A PDF of `pages` pages. `objectStreams`: the page objects go inside one Flate-compressed object
 * stream (as PDF 1.5+ writers do), so only a reader that inflates it can count them.
 */
export function pdf(pages: number, opts: { objectStreams?: boolean; eof?: boolean } = {}): Buffer {
  const out: string[] = ['%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'];
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  out.push('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  out.push(`2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${pages} >>\nendobj\n`);
  const page = (i: number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${i} >>`;
  if (opts.objectStreams) {
    const body = Array.from({ length: pages }, (_, i) => page(i)).join('\n');
    const header = Array.from({ length: pages }, (_, i) => `${i + 3} 0`).join(' ') + '\n';
    const data = zlib.deflateSync(Buffer.from(header + body, 'latin1'));
    out.push(
      `${pages + 3} 0 obj\n<< /Type /ObjStm /N ${pages} /First ${header.length} /Filter /FlateDecode ` +
        `/Length ${data.length} >>\nstream\n`,
    );
    out.push(data.toString('latin1'));
    out.push('\nendstream\nendobj\n');
  } else {
    for (let i = 0; i < pages; i += 1) out.push(`${i + 3} 0 obj\n${page(i)}\nendobj\n`);
  }
  out.push(`trailer\n<< /Root 1 0 R /Size ${pages + 4} >>\n`);
  if (opts.eof !== false) out.push('%%EOF\n');
  return Buffer.from(out.join(''), 'latin1');
}

/** A small well-formed WebVTT file of `cues` cues. */
export function vtt(cues = 2, words = 'Hello there'): string {
  const lines = ['WEBVTT', ''];
  for (let i = 0; i < cues; i += 1) {
    const ts = (s: number) =>
      `00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
    lines.push(`${ts(i)} --> ${ts(i + 1)}`, `${words} ${i}`, '');
  }
  return lines.join('\n');
}
