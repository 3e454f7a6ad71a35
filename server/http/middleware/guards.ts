/**
 * Guards that run before anything else, for every path: DNS-rebinding (Host allow-list),
 * cross-origin writes, security headers. Nothing here trusts a header it did not parse itself.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HeraldError } from '../../core/errors.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The exact `Host` values this server answers to. Only loopback names with the listening port
 * (and the configured host when it is a specific address).
 */
export function allowedHosts(port: number, configuredHost?: string): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (configuredHost && !['0.0.0.0', '::', ''].includes(configuredHost)) {
    names.add(
      configuredHost.includes(':') && !configuredHost.startsWith('[')
        ? `[${configuredHost}]`
        : configuredHost.toLowerCase(),
    );
  }
  return new Set([...names].map((n) => `${n}:${port}`));
}

/** Origins whose pages may write: this server's own pages. */
export function allowedOrigins(hosts: Set<string>): Set<string> {
  return new Set([...hosts].map((h) => `http://${h}`));
}

function countRawHeader(req: Request, name: string): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === name) n += 1;
  return n;
}

export function hostGuard(getHosts: () => Set<string>): RequestHandler {
  return (req, _res, next) => {
    const host = req.headers.host;
    const ok =
      typeof host === 'string' &&
      countRawHeader(req, 'host') === 1 &&
      req.url.startsWith('/') &&
      getHosts().has(host.toLowerCase());
    if (!ok)
      return next(
        new HeraldError('UNAUTHORIZED', 'This Host is not allowed: Herald answers only on its loopback address'),
      );
    next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses writes that a browser sends from another site. Browsers set Origin on cross-origin
 * requests and Sec-Fetch-Site on every request; non-browser clients (CLI, scripts) send neither.
 */
export function originGuard(getOrigins: () => Set<string>): RequestHandler {
  return (req, _res, next) => {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const foreignOrigin = origin !== undefined && !getOrigins().has(String(origin).toLowerCase());
    const foreignSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (req.method === 'OPTIONS' && (origin !== undefined || foreignSite)) {
      // No CORS: a preflight from anywhere gets no permission headers at all.
      return next(new HeraldError('UNAUTHORIZED', 'Cross-origin requests are not allowed'));
    }
    if (!SAFE_METHODS.has(req.method) && (foreignOrigin || foreignSite)) {
      return next(new HeraldError('UNAUTHORIZED', 'Cross-origin writes are not allowed'));
    }
    next();
  };
}

export function securityHeaders(): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    next();
  };
}

function hasBody(req: Request): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

/** JSON routes take JSON only: anything else is 415, unparsed. */
export function requireJson(): RequestHandler {
  return (req, _res, next) => {
    if (!hasBody(req)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') {
      return next(
        new HeraldError('INVALID_INPUT', 'This endpoint accepts only Content-Type: application/json', { status: 415 }),
      );
    }
    next();
  };
}

/** File routes (bodyType `text`) take their listed media types only. */
export function requireTypes(types: string[]): RequestHandler {
  return (req, _res, next) => {
    if (!hasBody(req)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!types.includes(type)) {
      return next(
        new HeraldError('INVALID_INPUT', `This endpoint accepts only Content-Type: ${types.join(' or ')}`, {
          status: 415,
        }),
      );
    }
    next();
  };
}

/** Multipart routes take multipart only. */
export function requireMultipart(): RequestHandler {
  return (req, _res, next) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'multipart/form-data') {
      return next(new HeraldError('INVALID_INPUT', 'This endpoint accepts only multipart/form-data', { status: 415 }));
    }
    next();
  };
}
