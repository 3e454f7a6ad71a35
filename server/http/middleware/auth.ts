import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AuthContext, AuthService } from '../../domain/auth/auth.service.js';
import { HeraldError } from '../../core/errors.js';

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}

/** Query parameters and cookie names that look like someone trying to pass a key elsewhere. */
const KEY_PLACES = ['svc-key', 'svc_key', 'api_key', 'apikey', 'apiKey', 'key', 'token', 'access_token'];

/**
 * `svc-key` header only. A key offered in the query string or a cookie is refused outright, even
 * alongside a valid header, so nobody builds on a habit that leaks keys into logs and history.
 */
export function keyAuth(auth: AuthService): RequestHandler {
  return (req: Request, res: Response, next) => {
    const q = req.query as Record<string, unknown>;
    const cookie = req.headers.cookie ?? '';
    if (KEY_PLACES.some((k) => k in q) || /(^|;\s*)(svc-key|api_key|apikey)=/i.test(cookie)) {
      return next(new HeraldError('INVALID_API_KEY', 'Send the API key in the svc-key header only'));
    }
    const header = req.headers['svc-key'];
    const key = typeof header === 'string' ? header.trim() : undefined;
    // A good key is answered without a promise; a bad one waits in authenticate() and is refused.
    let ctx: AuthContext | undefined;
    try {
      ctx = auth.authenticateKnown(key);
    } catch (err) {
      return next(err); // an expired key: TOKEN_EXPIRED
    }
    if (ctx) return admit(auth, ctx, req, res, next);
    return auth.authenticate(key).then((c) => admit(auth, c, req, res, next));
  };
}

function admit(auth: AuthService, ctx: AuthContext, req: Request, res: Response, next: NextFunction): void {
  const decision = auth.limiter.hit(ctx.keyId, ctx.tier);
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.reset));
  if (!decision.allowed) {
    return next(
      new HeraldError(
        'RATE_LIMITED',
        `This key made ${decision.limit} requests this hour; try again in ${decision.retryAfter} s`,
        { retryAfter: decision.retryAfter },
      ),
    );
  }
  req.auth = ctx;
  next();
}
