/**
 * Idempotency-Key for the routes whose RouteDef says `idempotent: true` (docs/decisions.md §10); the rules
 * live in IdempotencyService. Two steps in the route's chain:
 *
 * - `check`, right after key auth: a bad header is refused before the body is read.
 * - `claim`, after the body is parsed (JSON) or stored (uploads), just before validation and the
 *   handler: fingerprints method, path and body, then replays the first answer (status, type and
 *   bytes, with `Idempotent-Replayed: true`), refuses (409/422), or claims the key and records the
 *   answer the route sends, whatever sends it (the handler, sendJson, the error mapper): `res.end`
 *   is wrapped, and the answer is stored before its bytes go out, so a client that saw it can
 *   always have it again.
 *
 * Validation runs after the claim, so an invalid body's 400 is kept like any final answer.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../core/logger.js';
import {
  REPLAYED_HEADER,
  type IdempotencyService,
  type IdempotencyTicket,
  type StoredAnswer,
} from '../../domain/idempotency/idempotency.service.js';

interface Pending {
  key: string;
}

const pending = new WeakMap<Request, Pending>();

export interface IdempotencyOptions {
  /** The body's digest: its parsed JSON by default; uploads hash their stored files. */
  digest?: (req: Request) => string | Promise<string>;
  /** Undoes what reading the body left behind when the handler will not run (stored upload files). */
  discard?: (req: Request) => void;
}

const jsonDigest = (req: Request) => JSON.stringify(req.body ?? null) ?? '';

export function idempotency(
  svc: IdempotencyService,
  log: Logger,
  opts: IdempotencyOptions = {},
): { check: RequestHandler; claim: RequestHandler } {
  const digest = opts.digest ?? jsonDigest;
  const check: RequestHandler = (req, _res, next) => {
    const key = svc.parseKey(req.headers['idempotency-key']);
    if (key !== undefined) pending.set(req, { key });
    next();
  };
  const claim: RequestHandler = async (req, res, next) => {
    const p = pending.get(req);
    if (!p) return next();
    try {
      const fingerprint = svc.fingerprint(req.method, req.originalUrl, await digest(req));
      const start = svc.start(req.auth!.user.id, p.key, fingerprint);
      if ('replay' in start) {
        opts.discard?.(req);
        replay(res, start.replay);
        return;
      }
      record(res, svc, start.run, log);
    } catch (err) {
      opts.discard?.(req);
      return next(err);
    }
    next();
  };
  return { check, claim };
}

function replay(res: Response, answer: StoredAnswer): void {
  res.statusCode = answer.status;
  if (answer.contentType) res.setHeader('Content-Type', answer.contentType);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

type End = Response['end'];
type Write = Response['write'];

/** Records what the route answers, and hands it to the service before it goes out. */
function record(res: Response, svc: IdempotencyService, ticket: IdempotencyTicket, log: Logger): void {
  const chunks: Buffer[] = [];
  const toBuffer = (chunk: unknown, encoding: unknown) =>
    Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Write;
  let settled = false;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (!settled) {
      settled = true;
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, rest[0]));
      const type = res.getHeader('Content-Type');
      try {
        svc.finish(ticket, {
          status: res.statusCode,
          contentType: type === undefined ? null : String(type),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      } catch (err) {
        // The answer still goes out; its key is freed so a retry runs instead of waiting on a row
        // that will never be completed (a full disk, for one).
        log.warn(`Herald could not keep an idempotent answer: ${(err as Error).message}`);
        try {
          svc.abandon(ticket);
        } catch {
          /* the lease frees it */
        }
      }
    }
    return end(chunk, ...rest);
  }) as End;
}
