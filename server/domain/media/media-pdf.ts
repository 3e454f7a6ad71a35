/**
 * Counts a PDF's pages as it streams past, without a PDF library holding the file: every page
 * object carries `/Type /Page`, in the file's plain bytes or inside a compressed object stream
 * (`/Type /ObjStm`, Flate), which is inflated on its own (its declared length capped). The file
 * must start with `%PDF-` and end with `%%EOF` (a few bytes of whitespace after it allowed).
 * Memory: one chunk, a short carry-over, and at most one object stream at a time.
 */
import zlib from 'node:zlib';
import { HeraldError } from '../../core/errors.js';

export const MAX_PDF_PAGES = 300;
/** An object stream longer than this is not inflated (real ones are kilobytes). */
const MAX_OBJSTM_BYTES = 16 * 1024 * 1024;
const MAX_OBJSTM_INFLATED = 64 * 1024 * 1024;
/** Kept between chunks: enough for a stream's dictionary before its `stream` keyword. */
const CARRY = 1024;

const PAGE = /\/Type\s{0,8}\/Page(?![A-Za-z])/g;
const STREAM = /stream\r?\n/g;

export const brokenPdf = (why: string) =>
  new HeraldError('INVALID_INPUT', `Not a valid PDF (documents are PDFs of at most ${MAX_PDF_PAGES} pages): ${why}`);

export class PdfPages {
  private pages = 0;
  private carry = '';
  private started = false;
  /** Bytes of an object stream still to collect, and what was collected. */
  private want = 0;
  private collected: Buffer[] = [];
  private tail = Buffer.alloc(0);

  push(chunk: Buffer): void {
    if (!this.started) {
      // The first chunk holds at least the sniffed head.
      if (chunk.toString('latin1', 0, 5) !== '%PDF-') throw brokenPdf('no %PDF- header');
      this.started = true;
    }
    this.tail = Buffer.concat([this.tail, chunk.subarray(Math.max(0, chunk.length - 1024))]).subarray(-1024);
    let off = 0;
    while (off < chunk.length) {
      if (this.want > 0) {
        const n = Math.min(this.want, chunk.length - off);
        this.collected.push(chunk.subarray(off, off + n));
        this.want -= n;
        off += n;
        if (this.want === 0) this.inflate();
        continue;
      }
      off = this.scan(chunk, off);
    }
    this.checkCount();
  }

  /** Scans plain bytes from `off`; answers where scanning stopped (the chunk's end, or a stream's start). */
  private scan(chunk: Buffer, off: number): number {
    const text = this.carry + chunk.toString('latin1', off);
    const fresh = this.carry.length;
    PAGE.lastIndex = 0;
    for (let m = PAGE.exec(text); m; m = PAGE.exec(text)) if (m.index + m[0].length > fresh) this.pages += 1;
    STREAM.lastIndex = 0;
    for (let m = STREAM.exec(text); m; m = STREAM.exec(text)) {
      const end = m.index + m[0].length;
      if (end <= fresh || text[m.index - 1] === 'd') continue; // seen already, or `endstream`
      const dict = text.slice(Math.max(0, m.index - CARRY), m.index);
      const at = dict.lastIndexOf('obj');
      const own = at === -1 ? dict : dict.slice(at);
      const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(own);
      if (!/\/Type\s*\/ObjStm/.test(own) || !/\/FlateDecode/.test(own) || !length) continue;
      const n = Number(length[1]);
      if (n <= 0 || n > MAX_OBJSTM_BYTES) continue;
      // Pages counted after the stream's start belong to its bytes: the inflated text counts them.
      PAGE.lastIndex = 0;
      for (let p = PAGE.exec(text); p; p = PAGE.exec(text))
        if (p.index + p[0].length > Math.max(fresh, end)) this.pages -= 1;
      this.want = n;
      this.collected = [];
      this.carry = '';
      return off + (end - fresh);
    }
    this.carry = text.slice(-CARRY);
    return chunk.length;
  }

  private inflate(): void {
    const data = Buffer.concat(this.collected);
    this.collected = [];
    try {
      const text = zlib.inflateSync(data, { maxOutputLength: MAX_OBJSTM_INFLATED }).toString('latin1');
      this.pages += text.match(PAGE)?.length ?? 0;
    } catch {
      throw brokenPdf('a compressed object stream cannot be read');
    }
  }

  private checkCount(): void {
    if (this.pages > MAX_PDF_PAGES)
      throw new HeraldError(
        'INVALID_INPUT',
        `The PDF has more than ${MAX_PDF_PAGES} pages; the limit is ${MAX_PDF_PAGES}`,
      );
  }

  /** The page count once the file has ended. */
  end(): number {
    if (!this.started) throw brokenPdf('the file is empty');
    if (this.want > 0) throw brokenPdf('the file is truncated');
    if (!this.tail.toString('latin1').includes('%%EOF')) throw brokenPdf('no %%EOF at its end (truncated?)');
    if (this.pages === 0) throw brokenPdf('no pages found');
    this.checkCount();
    return this.pages;
  }
}
