/**
 * The OpenAPI 3.1 document, generated from the same route definitions and zod contracts that
 * validate requests. Decisions the spec left open are written into descriptions here.
 */
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../core/errors.js';
import { errorBody } from '../contracts/common.js';
import type { RouteDef } from './route.js';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../domain/idempotency/idempotency.service.js';

type Json = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): Json =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const js = toSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not authenticated',
  402: 'Not enough credits',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported content type',
  422: 'Unprocessable',
  429: 'Rate limited',
  500: 'Internal error',
  501: 'Not configured',
  502: 'Network error',
  507: 'Disk full',
};

/** The header of every route whose RouteDef says `idempotent: true` (docs/decisions.md §10). */
const IDEMPOTENCY_PARAMETER: Json = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes the request safe to send again. Per user, for 24 hours, the same method, path and body under this ' +
    'key get the first answer again (status and body, header Idempotent-Replayed: true), also after a ' +
    'restart; the handler runs once. 2xx answers and final 4xx ones are kept; 5xx, 429, 401, 402 and 409 are ' +
    'not (the key is free again and a retry runs). Another request under the same key: 422 ' +
    'IDEMPOTENCY_KEY_REUSED; the same one while the first still runs: 409 IDEMPOTENCY_KEY_IN_USE. A key ' +
    'whose first request died with its process is free again. A bad value: 400 INVALID_INPUT.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

export function buildOpenApi(routes: RouteDef[], info: { version: string; serverUrl?: string }): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const responses: Json = {};
    const status = String(r.status ?? 200);
    if (r.responseType) {
      const types = typeof r.responseType === 'string' ? [r.responseType] : r.responseType;
      responses[status] = {
        description: 'Success',
        content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
      };
    } else {
      responses[status] = {
        description: 'Success',
        content: { 'application/json': { schema: r.response ? toSchema(r.response, 'output') : { type: 'object' } } },
      };
    }
    if (r.idempotent) {
      const replayed = {
        [REPLAYED_HEADER]: {
          description:
            'Present (`true`) when this is the first answer to the same Idempotency-Key and request, replayed',
          schema: { type: 'string', enum: ['true'] },
        },
      };
      (responses[status] as Json).headers = replayed;
    }
    if (r.accepted) {
      responses['202'] = {
        description: 'Accepted: with async, publishing goes on in the background; follow it by jobId',
        content: { 'application/json': { schema: toSchema(r.accepted, 'output') } },
      };
      if (r.idempotent) (responses['202'] as Json).headers = (responses[status] as Json).headers;
    }
    const errorCodes: ErrorCode[] = [...(r.errors ?? []), 'INTERNAL_ERROR'];
    if (r.idempotent)
      errorCodes.push(
        'IDEMPOTENCY_KEY_IN_USE',
        'IDEMPOTENCY_KEY_REUSED',
        ...(errorCodes.includes('INVALID_INPUT') ? [] : ['INVALID_INPUT' as const]),
      );
    // Any write may meet a full disk; the error mapper answers it for every route alike.
    if (r.method !== 'get' && !errorCodes.includes('STORAGE_FULL')) errorCodes.push('STORAGE_FULL');
    if (r.auth !== false && !errorCodes.includes('INVALID_API_KEY')) errorCodes.push('INVALID_API_KEY');
    // Any keyed route answers an expired key so (docs/decisions.md §10).
    if (r.auth !== false && !errorCodes.includes('TOKEN_EXPIRED')) errorCodes.push('TOKEN_EXPIRED');
    const byStatus = new Map<number, string[]>();
    for (const code of errorCodes) {
      const st = ERROR_STATUS[code];
      byStatus.set(st, [...(byStatus.get(st) ?? []), code]);
    }
    if (r.body && r.bodyType !== 'multipart') byStatus.set(415, ['INVALID_INPUT']);
    byStatus.set(403, [...new Set([...(byStatus.get(403) ?? []), 'UNAUTHORIZED'])]);
    for (const [st, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      responses[String(st)] = {
        description:
          `${STATUS_TEXT[st] ?? 'Error'}: ${codes.join(', ')}` +
          `${st === 403 ? ' (also: a Host header other than this loopback address, or a cross-origin write)' : ''}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const op: Json = {
      tags: [r.tag],
      summary: r.summary,
      operationId: `${r.method}${path
        .replace(/[{}]/g, '')
        .split(/[/-]/)
        .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
        .join('')}`,
      parameters: [
        ...parameters(r.params, 'path'),
        ...parameters(r.query, 'query'),
        ...(r.idempotent ? [IDEMPOTENCY_PARAMETER] : []),
      ],
      responses,
      security: r.auth === false ? [] : [{ svcKey: [] }],
    };
    if (r.description) op.description = r.description;
    if (r.body) {
      const types =
        r.bodyType === 'text'
          ? (r.bodyTypes ?? [])
          : [r.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json'];
      const schema =
        r.bodyType === 'text'
          ? { type: 'string', description: 'the file as it is (UTF-8)' }
          : toSchema(r.body, 'input');
      op.requestBody = { required: true, content: Object.fromEntries(types.map((t) => [t, { schema }])) };
    }
    paths[path] = { ...(paths[path] as Json | undefined), [r.method]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Herald API',
      version: info.version,
      description: [
        "Herald's local REST API (v1). Every 2xx JSON body carries `success: true`; every error is " +
          '`{success: false, error, message, details?}`.',
        'Keyed responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix ' +
          'seconds); over the limit: 429 RATE_LIMITED with Retry-After.',
        'Requests must use Host 127.0.0.1:PORT, localhost:PORT or [::1]:PORT; others get 403. Cross-origin ' +
          'browser writes get 403. JSON routes refuse other content types with 415.',
      ].join('\n\n'),
    },
    servers: [{ url: info.serverUrl ?? '/api/v1' }],
    components: {
      securitySchemes: { svcKey: { type: 'apiKey', in: 'header', name: 'svc-key' } },
      schemas: { Error: toSchema(errorBody, 'output') },
    },
    paths,
  };
}
