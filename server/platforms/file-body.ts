/**
 * A request body read from a file (or a byte range of it) only as fast as the network takes it:
 * a pull-based web stream, so at most one chunk is read ahead. (Readable.toWeb over a file stream
 * reads ahead without bound when the upload is slower than the disk: a 100 MB video grew the
 * server by about as much.) Spent chunks are released every few megabytes (core/memory.ts).
 */
import fs from 'node:fs/promises';
import { RELEASE_EVERY_BYTES, releaseSpentBuffers } from '../core/memory.js';

const CHUNK = 256 * 1024;

/** Bytes `start`..`end` (inclusive) of the file; the whole file without them. */
export function fileBody(path: string, start = 0, end?: number): ReadableStream<Uint8Array> {
  let file: fs.FileHandle | undefined;
  let pos = start;
  let released = start;
  let last = end ?? Number.POSITIVE_INFINITY;
  const close = async () => {
    const f = file;
    file = undefined;
    await f?.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async start() {
        file = await fs.open(path, 'r');
        if (end === undefined) last = (await file.stat()).size - 1;
      },
      async pull(controller) {
        const n = Math.min(CHUNK, last + 1 - pos);
        const buf = n > 0 && file ? Buffer.allocUnsafe(n) : undefined;
        const { bytesRead } = buf ? await file!.read(buf, 0, n, pos) : { bytesRead: 0 };
        if (!buf || bytesRead === 0) {
          await close();
          controller.close();
          return;
        }
        pos += bytesRead;
        controller.enqueue(buf.subarray(0, bytesRead));
        if (pos - released >= RELEASE_EVERY_BYTES) {
          released = pos;
          releaseSpentBuffers();
        }
      },
      cancel: close,
    },
    { highWaterMark: 1 },
  );
}
