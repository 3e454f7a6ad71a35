/**
 * The error-leak suite's world and scan (security/error-leak.exploit.test.ts): a server with a
 * small JSON body cap, a seeded world and a Mastodon instance that always fails; a raw sender
 * that signs each request with the key its route needs; and the scan of an error answer for
 * leaks (stack frames, paths, SQL, class names, versions) and for the decided envelope.
 */
import http from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../server/core/errors.js';
import {
  buildRequest,
  callerKey,
  rawExchange,
  seedWorld,
  uiFixture,
  type RawReply,
  type World,
} from '../helpers/attack.js';
import { startServer, TestClock, tempDir, type TestServer } from '../helpers/server.js';

export let t: TestServer;
export let w: World;
let P: number;
export const clock = new TestClock(Date.now());
export let failingInstance: http.Server;

export function useErrorLeakServer(): void {
  beforeAll(async () => {
    const dataDir = tempDir();
    t = await startServer({
      scheduler: false,
      clock,
      dataDir,
      uiDir: uiFixture(dataDir).dir,
      settings: {
        HERALD_JSON_BODY_LIMIT: '4096',
        HERALD_DEFAULT_TIER: 'enterprise',
        HERALD_ENTERPRISE_LIMIT: '1000000',
      },
    });
    P = t.server.port;
    w = await seedWorld(t);
    failingInstance = http.createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"instance down"}');
    });
    await new Promise<void>((r) => failingInstance.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await t.close();
    failingInstance.closeAllConnections();
    await new Promise((r) => failingInstance.close(r));
  });
}

/** What must never be in an error answer, each with a name for the report. */
function leakPatterns(): [string, RegExp][] {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    ['stack frame', /\bat [^\n]*\(?[^\s()]+:\d+:\d+\)?/],
    ['source file', /\.(?:ts|js|mjs|cjs):\d+/],
    ['cwd', new RegExp(esc(process.cwd()))],
    ['data folder', new RegExp(esc(t.dataDir))],
    ['temp folder', new RegExp(esc(os.tmpdir()) + '/')],
    ['home', new RegExp(esc(os.homedir()) + '/')],
    ['node_modules', /node_modules/],
    ['absolute path', /(?:^|[\s"'(])\/(?:work|home|root|usr|var|etc|tmp|opt|srv)\//],
    ['SQL', /\b(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE|PRAGMA|WHERE)\b/],
    ['SQLite', /sqlite|SQLITE_|drizzle|constraint failed|database is locked/i],
    ['JS error class', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|URIError|SqliteError)\b/],
    ['JS internals', /Cannot read propert|is not a function|is not defined|Unexpected token|ENOENT|EACCES|errno/],
    ['versions', new RegExp(`${esc(process.version)}|\\bexpress\\b|node\\.js|\\bv8\\b`, 'i')],
  ];
}

export interface Case {
  label: string;
  r: RawReply;
}

/** What is wrong with an error answer: each leak found, and any departure from the envelope. */
export function problems(c: Case): string[] {
  const out: string[] = [];
  const { r } = c;
  if (r.headers['x-powered-by'] !== undefined) out.push('X-Powered-By');
  if (r.headers.server !== undefined) out.push('Server header');
  const text = `${Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n${r.body}`;
  for (const [name, re] of leakPatterns()) if (re.test(text)) out.push(`${name}: ${re.exec(text)![0].slice(0, 60)}`);
  // Node's own parser refusal
  if (r.status === 400 && r.body === '' && /close/i.test(r.headers.connection ?? '')) return out;
  let body: any;
  try {
    body = JSON.parse(r.body);
  } catch {
    out.push('not JSON');
    return out;
  }
  if (body.success !== false || typeof body.message !== 'string' || !(body.error in ERROR_STATUS))
    out.push('not the envelope');
  else {
    const code = body.error as ErrorCode;
    const allowed = code === 'INVALID_INPUT' ? [400, 413, 415] : [ERROR_STATUS[code]];
    if (!allowed.includes(r.status)) out.push(`status ${r.status} for ${code}`);
  }
  if (
    body.details !== undefined &&
    !(
      Array.isArray(body.details) &&
      body.details.every((d: any) => typeof d.path === 'string' && typeof d.message === 'string')
    )
  )
    out.push('bad details');
  return out;
}

/** One raw request on its own connection, with the key its route needs unless opts.key says otherwise. */
export function send(
  method: string,
  target: string,
  headers: [string, string][] = [],
  body?: string | Buffer,
  opts: { key?: string | null; timeoutMs?: number } = {},
): Promise<RawReply> {
  const h: [string, string][] = [['Host', `127.0.0.1:${P}`], ['Connection', 'close'], ...headers];
  if (opts.key !== null) h.push(['svc-key', opts.key ?? callerKey(t, w, method, target)]);
  if (Buffer.isBuffer(body)) {
    const head = buildRequest(method, target, [...h, ['Content-Length', String(body.length)]]);
    return rawExchange(P, Buffer.concat([Buffer.from(head), body]), { timeoutMs: opts.timeoutMs });
  }
  return rawExchange(P, buildRequest(method, target, h, body), { timeoutMs: opts.timeoutMs });
}

export const json: [string, string] = ['Content-Type', 'application/json'];
