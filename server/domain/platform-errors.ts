/**
 * The one place a network's failure (the adapters' PlatformError) becomes an API error:
 * `token_expired` → TOKEN_EXPIRED, `rate_limited` → RATE_LIMITED with Retry-After until the
 * network's own reset when it gave one, every other kind → PLATFORM_ERROR. Anything that is not
 * a PlatformError passes through untouched for the http error mapper.
 */
import { HeraldError } from '../core/errors.js';
import { PlatformError } from '../platforms/errors.js';

export function toHeraldError(err: unknown, now = Date.now()): unknown {
  if (!(err instanceof PlatformError)) return err;
  if (err.kind === 'token_expired') return new HeraldError('TOKEN_EXPIRED', err.message);
  if (err.kind === 'rate_limited') {
    const retryAfter = err.resetAt ? Math.max(1, Math.ceil((err.resetAt - now) / 1000)) : undefined;
    return new HeraldError('RATE_LIMITED', err.message, { retryAfter });
  }
  return new HeraldError('PLATFORM_ERROR', err.message);
}
