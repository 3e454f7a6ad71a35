/**
 * Multipart media upload with multer and a storage engine of our own: each part `files` is
 * streamed through storeStream (type from magic bytes, per-type byte cap while streaming,
 * structure and pixel checks), at most 4 files, all or nothing.
 *
 * When a file fails, every file this request wrote is removed and the refusal is answered; from
 * then on the rest of the body is read and thrown away, up to DRAIN_BYTES more (a lingering
 * close, refuseBody): a client still sending then finishes its request, or reads the answer
 * between its writes, instead of meeting a reset before it has read the answer (a socket closed
 * with unread bytes is reset; a paused one blocks a client that only reads once its body is
 * sent). Past DRAIN_BYTES reading stops and the connection is closed, so a hostile 1 GB upload is read no
 * further than its cap and a little more. The engine reports the failure to multer only once the
 * body has ended or the connection is gone (multer would otherwise drain the whole request).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Request, RequestHandler, Response } from 'express';
import type Multer from 'multer';
import type { StorageEngine } from 'multer';
import { storeStream, type StoredMedia } from '../../domain/media/media-store.js';
import { MAX_MEDIA_BYTES } from '../../domain/media/media-types.js';
import type { MediaService } from '../../domain/media/media.service.js';
import { HeraldError, isStorageFull, storageFull } from '../../core/errors.js';

export const MAX_FILES = 4;
export const FILE_PART = 'files';
/**
 * Bytes of a request that are not file content (boundaries, part headers, small fields). Busboy
 * reads an over-long field to its end before reporting it, so this is counted on the raw request.
 */
export const MAX_FORM_OVERHEAD = 2 * 1024 * 1024;

interface UploadState {
  res: Response;
  finish: (err?: unknown) => void;
  /** Every path this request created, so a failure removes them all. */
  paths: Set<string>;
  /** Set when the request has failed: no file may be created after that. */
  failed: boolean;
  /** Files being created: a failure waits for them before removing every path. */
  opening: Promise<void>[];
  stored: StoredMedia[];
  count: number;
  /** File bytes handed to the engine so far. */
  fileBytes: number;
  /** Bytes of the request body read so far. */
  bodyBytes: number;
}

const states = new WeakMap<Request, UploadState>();

/**
 * At most this many bytes of a refused request are read (and discarded) after the refusal: a file up
 * to 1 MiB over its cap (the common mistake) is then read to its end (the 64 KiB margin covers how
 * far past the cap the refusing read went) and answered on a connection that stays open. Closing
 * instead races the client: one that reads only between its writes loses the answer to the reset
 * about 3 times in 1,000 (test/reliability/refused-uploads.test.ts).
 */
export const DRAIN_BYTES = 1024 * 1024 + 64 * 1024;
/**
 * A body whose rest would not fit DRAIN_BYTES stops being read this many bytes after the answer is out:
 * enough for the client to read the answer between its writes, and no longer than needed.
 */
export const AFTER_ANSWER_BYTES = 128 * 1024;
/** How long a refused request whose client stopped sending keeps its connection once answered. */
export const LINGER_MS = 5_000;
/**
 * Once a refused request has been read as far as it may be, reading stops and the connection is
 * closed this much later: a client still sending is held by TCP, not reset, while it reads the
 * answer (a reset meeting its next write made Node's own client drop an answer it had not read
 * yet, 1 run in 5 with both cores busy).
 */
export const CLOSE_AFTER_MS = 500;

/**
 * Reads and discards the rest of a refused request (a lingering close): a body whose length says
 * it ends within DRAIN_BYTES is read to its end (the connection stays usable); a longer one (or
 * one of unknown length) stops being read AFTER_ANSWER_BYTES after the answer is out, and never
 * later than DRAIN_BYTES, and is closed CLOSE_AFTER_MS later. A client that neither ends its body
 * nor closes is closed LINGER_MS after the answer. `read` is how much of the body was read before
 * the refusal.
 */
function refuseBody(req: Request, res: Response, read: number): void {
  req.unpipe();
  const length = Number(req.headers['content-length']);
  const fits = Number.isFinite(length) && length - read <= DRAIN_BYTES;
  let drained = 0;
  let answeredAt: number | undefined;
  let closing = false;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    const late = !fits && answeredAt !== undefined && drained - answeredAt > AFTER_ANSWER_BYTES;
    if ((drained > DRAIN_BYTES || late) && !closing) {
      closing = true;
      req.pause();
      setTimeout(() => req.socket.destroy(), CLOSE_AFTER_MS).unref();
    }
  });
  // A client that sent `Connection: close` (Node's own without an agent does) would have its socket
  // closed by Node the moment the answer is out, the rest of its body unread: a reset, which lost
  // the answer 1 run in 6 with both cores busy. The socket is kept for the lingering close below,
  // and ended once the body has been read to its end.
  if (!res.headersSent && /\bclose\b/i.test(String(req.headers.connection ?? ''))) {
    res.shouldKeepAlive = true;
    req.once('end', () => req.socket.end());
  }
  // Until the answer is out (the files are being removed first) nothing more is read: a client
  // streaming fast on a loaded machine otherwise filled DRAIN_BYTES first and was closed on
  // without any answer (about 1 run in 3 with both cores busy).
  req.pause();
  res.once('finish', () => {
    answeredAt = drained;
    if (closing) return;
    req.resume();
    if (req.complete) return;
    const linger = setTimeout(() => req.socket.destroy(), LINGER_MS);
    linger.unref();
    // A kept-alive connection carries many requests: nothing of this one stays on its socket.
    const stop = () => {
      clearTimeout(linger);
      req.off('end', stop);
      req.socket.off('close', stop);
    };
    req.once('end', stop);
    req.socket.once('close', stop);
  });
}

/** Calls `then` once the request's body has ended or its connection is gone, whichever is first. */
function whenSettled(req: Request, then: () => void): void {
  if (req.complete || req.socket.destroyed) return then();
  let called = false;
  const once = () => {
    req.off('end', once);
    req.socket.off('close', once);
    if (!called) {
      called = true;
      then();
    }
  };
  req.once('end', once);
  req.socket.once('close', once);
}

// multer and busboy are needed only when media is uploaded: loaded then, not at start-up.
let multerModule: typeof Multer | undefined;
const loadMulter = () => (multerModule ??= createRequire(import.meta.url)('multer') as typeof Multer);

/** The files stored for this request, in part order. */
export function uploadedMedia(req: Request): StoredMedia[] {
  return (states.get(req)?.stored ?? []).filter(Boolean);
}

/**
 * A digest of the files stored for this request (part order, type and a SHA-256 of each file's
 * bytes, read back from the media folder): the upload's body, for its Idempotency-Key.
 */
export async function uploadDigest(req: Request): Promise<string> {
  const parts: string[] = [];
  for (const file of uploadedMedia(req)) {
    const hash = crypto.createHash('sha256');
    for await (const chunk of fs.createReadStream(file.path)) hash.update(chunk as Buffer);
    parts.push(`${file.mime} ${file.size} ${hash.digest('hex')}`);
  }
  return parts.join('\n');
}

/** Removes the files stored for this request (a replayed or refused upload records none). */
export function discardUploaded(req: Request): void {
  const st = states.get(req);
  if (!st) return;
  for (const p of st.paths) fs.rmSync(p, { force: true });
  st.stored = [];
}

const badInput = (message: string) => new HeraldError('INVALID_INPUT', message);

const MULTER_MESSAGES: Record<string, string> = {
  LIMIT_FILE_COUNT: `At most ${MAX_FILES} files per upload`,
  LIMIT_PART_COUNT: 'Too many parts in the form',
  LIMIT_FIELD_COUNT: 'Too many fields in the form',
  LIMIT_FIELD_KEY: 'A field name is too long',
  LIMIT_FIELD_VALUE: 'A field value is too long',
  LIMIT_UNEXPECTED_FILE: `Media files go in the part named "${FILE_PART}"`,
};

function toHerald(err: unknown): HeraldError {
  if (err instanceof HeraldError) return err;
  // The media folder's disk filled up mid-file: not the form's fault (the partial file is gone).
  if (isStorageFull(err)) return storageFull(err);
  if (multerModule && err instanceof multerModule.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE')
      return new HeraldError('INVALID_INPUT', `A file is over the ${MAX_MEDIA_BYTES / 1024 / 1024} MB limit`, {
        status: 413,
      });
    return badInput(MULTER_MESSAGES[err.code] ?? 'The multipart form is not acceptable');
  }
  return badInput('The multipart form could not be read');
}

class MediaStorage implements StorageEngine {
  constructor(private readonly media: MediaService) {}

  _handleFile(
    req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File>) => void,
  ): void {
    const st = states.get(req)!;
    const fail = (err: unknown) => {
      st.finish(err);
      whenSettled(req, () => cb(err));
    };
    // At multer's whole-file limit busboy skips the rest of the part without backpressure: stop
    // reading the request right there, before the engine has even seen the last chunk.
    file.stream.once('limit', () => {
      req.unpipe();
      req.pause();
    });
    if (file.fieldname !== FILE_PART) return fail(badInput(MULTER_MESSAGES.LIMIT_UNEXPECTED_FILE));
    st.count += 1;
    if (st.count > MAX_FILES) return fail(badInput(MULTER_MESSAGES.LIMIT_FILE_COUNT));
    // Files finish storing in any order (a small GIF after a large video); keep the part order.
    const index = st.count - 1;
    const onChunk = (n: number) => {
      st.fileBytes += n;
    };
    storeStream(file.stream, {
      dir: this.media.dir,
      id: this.media.newId(),
      onPath: (p) => {
        // A file still being sniffed when another one failed must not appear after the cleanup.
        if (st.failed) throw badInput('The upload was abandoned');
        st.paths.add(p);
      },
      onOpening: (opened) => st.opening.push(opened),
      onChunk,
    }).then((stored) => {
      stored.originalName = file.originalname;
      st.stored[index] = stored;
      cb(null, { path: stored.path, size: stored.size, filename: stored.fileName });
    }, fail);
  }

  _removeFile(_req: Request, file: Express.Multer.File, cb: (error: Error | null) => void): void {
    fs.rm(file.path, { force: true }, (err) => cb(err));
  }
}

function createUpload(media: MediaService): RequestHandler {
  const multer = loadMulter();
  return multer({
    storage: new MediaStorage(media),
    // The engine enforces 4 files and the per-type caps; these are multer's own backstops.
    limits: {
      fileSize: MAX_MEDIA_BYTES,
      files: MAX_FILES + 1,
      fields: 8,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: MAX_FILES + 9,
      headerPairs: 50,
    },
    streamHandler: (req: Request, busboy: NodeJS.WritableStream) => {
      const st = states.get(req)!;
      req.on('data', (chunk: Buffer) => {
        st.bodyBytes += chunk.length;
        // The engine lags the parser by at most a few buffers, far below the allowance.
        if (st.bodyBytes - st.fileBytes > MAX_FORM_OVERHEAD)
          st.finish(new HeraldError('INVALID_INPUT', 'The form carries too much besides its files', { status: 413 }));
      });
      req.pipe(busboy);
    },
  } as Multer.Options).any();
}

export function mediaUpload(media: MediaService): RequestHandler {
  let upload: RequestHandler | undefined;
  return (req, res, next) => {
    upload ??= createUpload(media);
    let done = false;
    const st: UploadState = {
      res,
      paths: new Set(),
      failed: false,
      opening: [],
      stored: [],
      count: 0,
      fileBytes: 0,
      bodyBytes: 0,
      finish: (err) => {
        if (done) return;
        done = true;
        if (err) {
          st.failed = true;
          refuseBody(req, res, st.bodyBytes);
          st.stored = [];
          // A file still opening would be re-created after its removal: remove once all exist.
          void Promise.all(st.opening).then(() => {
            for (const p of st.paths) fs.rmSync(p, { force: true });
            next(toHerald(err));
          });
          return;
        }
        next();
      },
    };
    states.set(req, st);
    upload(req, res, (err?: unknown) => st.finish(err));
  };
}
