/**
 * fast-check arbitraries from Herald's zod contracts: the contract becomes JSON Schema (the same
 * z.toJSONSchema call that builds /openapi.json), and the JSON Schema becomes an arbitrary of
 * values that satisfy it, or nearly (lengths and sizes are capped so bodies stay small).
 *
 * Fields that name a place on the network (…Url, …Uri, service, instance) only ever get loopback
 * addresses on a closed port or strings that are not URLs, so a fuzz run never reaches beyond the
 * machine whatever Herald does with them.
 */
import fc from 'fast-check';
import { z } from 'zod';

type Json = Record<string, any>;

export function toJsonSchema(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
}

const NETWORK_FIELD = /url|uri|service|instance|issuer|endpoint|host/i;

/** Values for a field that Herald may connect to: nothing outside loopback port 1. */
export const placeArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.webPath().map((p) => `http://127.0.0.1:1${p}`),
  fc.webPath().map((p) => `http://localhost:1${p}`),
  fc.constantFrom(
    '',
    ' ',
    'not a url',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://',
    'https://',
    'ftp://127.0.0.1:1/',
    'http://[::1',
    'http://[::1]:1/',
    'http://0x7f.1:1/',
    'http://127.0.0.1:99999/',
    'http://127.0.0.1:1/callback?x=1#y',
    'data:text/plain,hi',
    '//127.0.0.1:1/',
    'http://user:pass@127.0.0.1:1/',
    'http://127.0.0.1:1/\u0000',
  ),
);

/** Strings that tend to break things: unicode edges, control characters, huge numbers, paths. */
const nastyString = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\uffff',
  '🧨'.repeat(3),
  'é',
  'e\u0301',
  '\u202e',
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(30),
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${7*7}',
  'a'.repeat(300),
  '\r\nX-Injected: 1',
  '2026-02-30T25:61:61Z',
  '0000-00-00',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
);

function stringArb(s: Json, name: string): fc.Arbitrary<string> {
  if (NETWORK_FIELD.test(name)) return placeArbitrary;
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 40, 40));
  if (s.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(s.pattern))
        .filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      /* fall through */
    }
  }
  switch (s.format) {
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid();
    case 'uri':
    case 'url':
      return placeArbitrary;
    default:
      break;
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }) },
    { weight: 1, arbitrary: nastyString },
    {
      weight: 1,
      arbitrary: fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    },
  );
}

function numberArb(s: Json, integer: boolean): fc.Arbitrary<number> {
  const lo =
    s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined);
  const hi =
    s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined);
  const inRange = integer
    ? fc.integer({
        min: Math.max(lo ?? -1e6, Number.MIN_SAFE_INTEGER),
        max: Math.min(hi ?? 1e6, Number.MAX_SAFE_INTEGER),
      })
    : fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(
    { weight: 5, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 53), 1.5, 1e308) },
  );
}

/** An arbitrary of values for JSON Schema `s` (`root` resolves `$ref`s). */
export function fromJsonSchema(s: Json | boolean, root: Json = s as Json, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (s === true || !s || Object.keys(s).length === 0 || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (s.$ref) {
    const target = String(s.$ref)
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Json, k: string) => o?.[k], root);
    return fromJsonSchema(target ?? {}, root, name, depth + 1);
  }
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.anyOf || s.oneOf)
    return fc.oneof(...((s.anyOf ?? s.oneOf) as Json[]).map((x) => fromJsonSchema(x, root, name, depth + 1)));
  if (s.allOf) return fromJsonSchema(Object.assign({}, ...(s.allOf as Json[])), root, name, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s, name);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      return fc.array(fromJsonSchema(s.items ?? {}, root, name, depth + 1), {
        minLength: min,
        maxLength: Math.max(min, Math.min(s.maxItems ?? 4, 4)),
      });
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = (s.required ?? []) as string[];
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) shape[k] = fromJsonSchema(v, root, k, depth + 1);
      return fc.record(shape, { requiredKeys: required.filter((k) => k in shape) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Object values that try to pollute prototypes once merged or assigned. */
export const pollution: fc.Arbitrary<unknown> = fc.constantFrom(
  JSON.parse('{"__proto__":{"polluted":"yes","isAdmin":true}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  JSON.parse('{"a":{"__proto__":{"polluted":"yes"}},"tweets":[{"__proto__":{"polluted":"yes"},"content":"x"}]}'),
  JSON.parse('{"__proto__":[],"toString":"x","valueOf":1,"hasOwnProperty":"no"}'),
);

/**
 * Bodies for a route: schema-valid values (mostly), the same with one field replaced by any
 * JSON, extra unknown keys, prototype-pollution objects, and any JSON at all.
 */
export function bodyArbitrary(schema: z.ZodType): fc.Arbitrary<unknown> {
  const js = toJsonSchema(schema);
  const valid = fromJsonSchema(js);
  const fields = Object.keys(js.properties ?? {});
  const oneFieldWrong =
    fields.length === 0
      ? valid
      : fc
          .tuple(valid, fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 }))
          .map(([v, k, junk]) => ({ ...(v as object), [k]: junk }));
  const extraKeys = fc
    .tuple(valid, fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }))
    .map(([v, extra]) => (v && typeof v === 'object' && !Array.isArray(v) ? { ...extra, ...(v as object) } : v));
  const withPollution = fc
    .tuple(valid, pollution)
    .map(([v, p]) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.assign(JSON.parse(JSON.stringify(v)), p) : p,
    );
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 3, arbitrary: oneFieldWrong },
    { weight: 1, arbitrary: extraKeys },
    { weight: 1, arbitrary: withPollution },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Query objects (string values, as a query string carries them), valid or not. */
export function queryArbitrary(schema: z.ZodType): fc.Arbitrary<Record<string, string | string[]>> {
  const js = toJsonSchema(schema);
  const valid = fromJsonSchema(js).map((v) =>
    Object.fromEntries(
      Object.entries((v ?? {}) as object).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
    ),
  );
  const known = Object.keys(js.properties ?? {});
  const junk = fc.dictionary(
    fc.oneof(fc.constantFrom(...(known.length ? known : ['q'])), fc.string({ maxLength: 8 })),
    fc.oneof(nastyString, fc.string({ maxLength: 20 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })),
    { maxKeys: 4 },
  );
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: junk });
}
