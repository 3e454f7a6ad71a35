/**
 * The one place errors become HTTP answers: `{success: false, error, message, details?}` with the
 * status of docs/decisions.md §1. Internal faults are logged by class and message only and answered
 * with a fixed text, so no stack, path or SQL reaches a client.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../../core/logger.js';
import { HeraldError, isStorageFull, storageFull } from '../../core/errors.js';

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new HeraldError('NOT_FOUND', 'No such endpoint'));
}

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

export function toHeraldError(err: unknown): HeraldError | undefined {
  if (err instanceof HeraldError) return err;
  // A full disk is not Herald's fault nor the request's: 507 saying what to free (docs/decisions.md §1).
  if (isStorageFull(err)) return storageFull(err);
  // Express's router throws a URIError when a path parameter is not valid percent-encoding.
  if (err instanceof URIError)
    return new HeraldError('INVALID_INPUT', 'The request path is not valid percent-encoding');
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new HeraldError('INVALID_INPUT', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new HeraldError('INVALID_INPUT', 'The request body is too large', { status: 413 });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HeraldError('INVALID_INPUT', 'Unsupported body encoding', { status: 415 });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new HeraldError('INVALID_INPUT', 'The request body could not be read');
    default:
      // Other client errors of the body parser (a gzip body that is not gzip): 400, never a fault.
      if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose)
        return new HeraldError('INVALID_INPUT', 'The request body could not be read');
      return undefined;
  }
}

export function errorMapper(log: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    let herald = toHeraldError(err);
    if (herald?.code === 'STORAGE_FULL') log.warn(`Herald could not save a request: ${herald.message}`);
    if (!herald) {
      log.error('Herald internal error', err);
      herald = new HeraldError('INTERNAL_ERROR', 'Something went wrong inside Herald; the request was not completed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (herald.retryAfter !== undefined) res.setHeader('Retry-After', String(herald.retryAfter));
    const body: Record<string, unknown> = { success: false, error: herald.code, message: herald.message };
    if (herald.details) body.details = herald.details;
    res.status(herald.status).json(body);
  };
}
