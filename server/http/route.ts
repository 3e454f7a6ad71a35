/**
 * One definition per endpoint drives validation, the handler call and the OpenAPI document, so
 * the three cannot drift apart. Routes are adapters: parse, call one service method, send.
 */
import type { Request, Response, RequestHandler } from 'express';
import type { z } from 'zod';
import type { ErrorCode } from '../core/errors.js';
import { HeraldError } from '../core/errors.js';
import type { AuthContext } from '../domain/auth/auth.service.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface HandlerInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  auth: AuthContext;
  req: Request;
  res: Response;
}

export interface RouteDef<B = any, Q = any, P = any> {
  method: Method;
  /** Express path under /api/v1, e.g. `/templates/:id`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Whether the svc-key header is required (default true). */
  auth?: boolean;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Content type of the request body when it is not JSON (media upload; `text`: files, see bodyTypes). */
  bodyType?: 'json' | 'multipart' | 'text' | 'none';
  /** With bodyType `text`: the media types taken (others get 415); the body reaches `body` as a string. */
  bodyTypes?: string[];
  response?: z.ZodType;
  /** Media type of a non-JSON answer (e.g. the bytes of a media item), or each it may have. */
  responseType?: string | readonly string[];
  status?: number;
  /** A 202 answer the handler sends itself when asked to work in the background (`async: true`). */
  accepted?: z.ZodType;
  errors?: ErrorCode[];
  /** The handler's return value is sent as JSON unless it already answered (res.headersSent). */
  handler(input: HandlerInput<B, Q, P>): unknown | Promise<unknown>;
  /**
   * A POST that creates or publishes: it takes an `Idempotency-Key` header (docs/decisions.md §10), and the
   * OpenAPI document, the client and the CLI learn it from here. Needs a keyed route (keys are per user).
   */
  idempotent?: boolean;
  /** Extra middleware that runs before validation (after auth), e.g. multer. */
  before?: RequestHandler[];
}

export const defineRoute = <B = any, Q = any, P = any>(def: RouteDef<B, Q, P>): RouteDef<B, Q, P> => def;

/** Turns zod issues into INVALID_INPUT with `details: [{path, message}]`. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, where: 'body' | 'query' | 'params'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw new HeraldError(
    'INVALID_INPUT',
    `Invalid ${where}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`.slice(0, 500),
    { details },
  );
}
