/**
 * Streams one file into the media folder: the first bytes decide the type (never the declared
 * type or name), the type's byte cap is enforced on every chunk, the structure walker checks
 * headers and the end of the file, and on any failure the partial file is removed. Memory use is
 * bounded by the sniff buffer and one chunk, whatever the file's size. Uploads and guarded URL
 * fetches both come through here.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { StructureCheck } from './media-structure.js';
import { RELEASE_EVERY_BYTES, releaseSpentBuffers } from '../../core/memory.js';
import { sniffType, SNIFF_BYTES, tooLarge, type MediaFormat, type MediaKind } from './media-types.js';

export interface StoredMedia {
  /** Generated name inside the media folder: `<id>.<ext>`. */
  fileName: string;
  path: string;
  format: MediaFormat;
  kind: MediaKind;
  mime: string;
  size: number;
  width?: number;
  height?: number;
  durationMs?: number;
  pages?: number;
  /** The name the file was sent with (multipart filename), for its default title. */
  originalName?: string;
}

export interface StoreOptions {
  /** The media folder (created if missing). */
  dir: string;
  /** A generated id; only [A-Za-z0-9_-] is accepted, so it cannot name another folder. */
  id: string;
  /** Told the path before the first byte is written, so a caller can remove it on abort. */
  onPath?: (file: string) => void;
  /** Told when the file is being created: the promise settles once it exists (or failed to). */
  onOpening?: (opened: Promise<void>) => void;
  /** Told the size of every chunk read from the source. */
  onChunk?: (bytes: number) => void;
}

const SAFE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The path of `fileName` inside `dir`, refusing anything that would land elsewhere. */
export function mediaPath(dir: string, fileName: string): string {
  const full = path.resolve(dir, fileName);
  if (path.dirname(full) !== path.resolve(dir) || !/^[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(fileName)) {
    throw new Error('media file name outside the media folder');
  }
  return full;
}

export async function storeStream(src: Readable | AsyncIterable<Buffer>, opts: StoreOptions): Promise<StoredMedia> {
  if (!SAFE_ID.test(opts.id)) throw new Error('unsafe media id');
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const head: Buffer[] = [];
  let headLen = 0;
  let size = 0;
  let released = 0;
  let started:
    | { check: StructureCheck; ws: fs.WriteStream; file: string; info: Awaited<ReturnType<typeof sniffType>> }
    | undefined;

  const write = async (chunk: Buffer) => {
    const s = started!;
    if (size > s.info.maxBytes) throw tooLarge(s.info);
    s.check.push(chunk);
    if (s.ws.errored) throw s.ws.errored;
    if (!s.ws.write(chunk)) await once(s.ws, 'drain');
    // Memory stays flat however large the file (core/memory.ts).
    if (size - released >= RELEASE_EVERY_BYTES) {
      released = size;
      releaseSpentBuffers();
    }
  };
  const start = async () => {
    const first = Buffer.concat(head, headLen);
    head.length = 0;
    const info = await sniffType(first);
    const check = new StructureCheck(info.format);
    if (size > info.maxBytes) throw tooLarge(info);
    check.push(first);
    const fileName = `${opts.id}.${info.ext}`;
    const file = mediaPath(opts.dir, fileName);
    opts.onPath?.(file);
    const ws = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    // Write errors surface through once()/finished(); this listener only keeps them from being unhandled.
    ws.on('error', () => {});
    started = { check, ws, file, info };
    opts.onOpening?.(
      once(ws, 'open').then(
        () => undefined,
        () => undefined,
      ),
    );
    if (!ws.write(first)) await once(ws, 'drain');
  };

  // On failure the source is left to the caller (not destroyed with an AbortError): multer would
  // take that error for its own and answer before this function has cleaned up.
  const chunks =
    'iterator' in src && typeof src.iterator === 'function' ? src.iterator({ destroyOnReturn: false }) : src;
  try {
    for await (const c of chunks) {
      const chunk = Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array);
      size += chunk.length;
      opts.onChunk?.(chunk.length);
      if (started) {
        await write(chunk);
        continue;
      }
      head.push(chunk);
      headLen += chunk.length;
      if (headLen >= SNIFF_BYTES) await start();
    }
    if (!started) await start();
    const s = started!;
    const dims = s.check.end();
    s.ws.end();
    await finished(s.ws);
    return {
      fileName: path.basename(s.file),
      path: s.file,
      format: s.info.format,
      kind: s.info.kind,
      mime: s.info.mime,
      size,
      width: dims.width,
      height: dims.height,
      durationMs: dims.durationMs,
      pages: dims.pages,
    };
  } catch (err) {
    if (started) {
      // The file may still be opening: wait for the stream to close, or the open would re-create
      // the file after its removal.
      const { ws } = started;
      if (!ws.closed)
        await new Promise<void>((resolve) => {
          ws.once('close', () => resolve());
          ws.destroy();
        });
      await fs.promises.rm(started.file, { force: true });
    }
    throw err;
  }
}
