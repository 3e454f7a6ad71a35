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
  UNAUTHORIZED: 403,
  RATE_LIMITED: 429,
  /** POST /auth/setup once an owner exists (decisions §10). */
  ALREADY_SET_UP: 409,
  OAUTH_NOT_CONFIGURED: 501,
  PLATFORM_ERROR: 502,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface HeraldErrorOptions {
  details?: ErrorDetail[];
  /** Overrides the code's usual status where decisions §1 says so (413, 415). */
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
export const invalidInput = (message: string, details?: ErrorDetail[]) => new HeraldError('INVALID_INPUT', message, { details });
