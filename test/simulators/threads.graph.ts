// Graph-API shapes for the Threads simulator: error bodies, parameter reading, token lookup.
import { randomBytes } from 'node:crypto';
import type { SimReply, SimRequest } from './common.js';
import { str } from './common.js';

export interface GraphErrorFields {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
}

export function graphError(status: number, e: GraphErrorFields): SimReply {
  return {
    status,
    body: {
      error: {
        type: 'OAuthException',
        is_transient: false,
        ...e,
        fbtrace_id: `A${randomBytes(11).toString('base64url')}`,
      },
    },
    headers: e.code === 190 ? { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${e.message}"` } : {},
  };
}

export const errors = {
  invalidToken: () => graphError(400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }),
  expiredToken: () =>
    graphError(400, {
      message: `Error validating access token: Session has expired on ${new Date().toUTCString()}.`,
      code: 190,
      error_subcode: 463,
    }),
  mediaNotFound: (id: string) =>
    graphError(400, {
      message: 'The requested resource does not exist',
      code: 24,
      error_subcode: 4279009,
      error_user_title: 'Media Not Found',
      error_user_msg: `The media with id ${id} cannot be found.`,
    }),
  /** A refused app (wrong app id: code 101; wrong app secret: code 1), as Graph words them. */
  oauth: (message: string, code: number) => graphError(400, { message, type: 'OAuthException', code }),
  param: (message: string) => graphError(400, { message: `(#100) ${message}`, type: 'THApiException', code: 100 }),
  unknownObject: (id: string) =>
    graphError(400, {
      message:
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing ` +
        `permissions, or does not support this operation.`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
    }),
  rateLimited: () => graphError(400, { message: 'Application request limit reached', code: 4, is_transient: true }),
  server: (status: number) =>
    graphError(status, {
      message: 'An unexpected error has occurred. Please retry your request later.',
      code: 2,
      is_transient: true,
    }),
};

/** Graph endpoints read parameters from the query string and from a form/JSON body alike. */
export function params(req: SimRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of req.query) out[k] = v;
  if (req.body && typeof req.body === 'object') {
    for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) {
      const s = str(v);
      if (s !== undefined) out[k] = s;
    }
  }
  return out;
}

export function accessToken(req: SimRequest): string | undefined {
  return params(req).access_token ?? req.bearer;
}

/** Threads timestamps look like 2026-01-01T12:00:00+0000. */
export function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

export function pick(
  obj: Record<string, unknown>,
  fields: string | undefined,
  fallback: string[],
): Record<string, unknown> {
  const wanted = fields
    ? fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : fallback;
  const out: Record<string, unknown> = { id: obj.id };
  for (const f of wanted) if (obj[f] !== undefined) out[f] = obj[f];
  return out;
}
