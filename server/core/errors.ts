/**
 * Domain errors carry one of the spec's codes; exactly one middleware (http/middleware/errors.ts)
 * turns them into the envelope `{success: false, error, message, details?}` and a status.
 */
export const ERROR_STATUS = {
  INVALID_API_KEY: 401,
  TOKEN_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  USER_NOT_FOUND: 404,
  NOT_FOUND: 404,
  INVALID_INPUT: 400,
  NO_SOCIAL_SET: 400,
  INSUFFICIENT_CREDITS: 402,
  /** The month's X spend would pass its cap and the cap is set to refuse (docs/decisions.md §15). */
  SPEND_CAP_REACHED: 402,
  UNAUTHORIZED: 403,
  RATE_LIMITED: 429,
  /** POST /auth/setup once an owner exists (docs/decisions.md §2). */
  ALREADY_SET_UP: 409,
  /** The same Idempotency-Key while its first request still runs (docs/decisions.md §10). */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** The same Idempotency-Key with another method, path or body (docs/decisions.md §10). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /**
   * Scheduling or queueing a draft on accounts it was already published to, without `force` (docs/decisions.md §22).
   */
  ALREADY_PUBLISHED: 409,
  /** The network cannot do what was asked; the message says which network and what it can do instead. */
  NOT_SUPPORTED: 409,
  /** No secret store can save now (no keychain and no file store chosen): the message names the fix. */
  SECRET_STORE_UNAVAILABLE: 409,
  /** The encrypted file store is waiting for its passphrase (POST /setup/secrets/unlock). */
  SECRET_STORE_LOCKED: 423,
  OAUTH_NOT_CONFIGURED: 501,
  PLATFORM_ERROR: 502,
  INTERNAL_ERROR: 500,
  STORAGE_FULL: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface HeraldErrorOptions {
  details?: ErrorDetail[];
  /** Overrides the code's usual status where docs/decisions.md §1 says so (413, 415). */
  status?: number;
  /** Seconds, sent as Retry-After (RATE_LIMITED). */
  retryAfter?: number;
  cause?: unknown;
}

export class HeraldError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: HeraldErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HeraldError';
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export const notFound = (what: string) => new HeraldError('NOT_FOUND', `${what} not found`);
export const invalidInput = (message: string, details?: ErrorDetail[]) =>
  new HeraldError('INVALID_INPUT', message, { details });

/**
 * The error codes a full disk (or an exhausted quota) shows up as: SQLite's SQLITE_FULL from
 * better-sqlite3 (its extended codes start the same), and ENOSPC / EDQUOT from fs writes and
 * fsync. Looked for along `cause` too, since callers wrap what they rethrow.
 */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

export function isStorageFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof HeraldError) return e.code === 'STORAGE_FULL';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (FULL_CODES.has(code) || code.startsWith('SQLITE_FULL'))) return true;
  }
  return false;
}

/**
 * A full disk is the person's to fix, and the write is not half-done (SQLite rolled its
 * transaction back; a partial file is removed), so the answer says what to free. No path: error
 * bodies never carry one.
 */
export const storageFull = (cause?: unknown) =>
  new HeraldError(
    'STORAGE_FULL',
    "The disk that holds Herald's data folder is full, so nothing was saved. Free some space on it (large " +
      'downloads, old backups, the trash, media you no longer need), then try again.',
    { cause },
  );
