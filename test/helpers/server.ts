/**
 * Starts a real Herald server (real SQLite file in a fresh temp folder, real migrations, real
 * HTTP on loopback) for one test file.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/core/config.js';
import type { Clock } from '../../server/core/clock.js';
import { createServer, type HeraldServer, type ServerOptions } from '../../server/server.js';

export const OWNER = { email: 'owner@example.test', password: 'correct horse battery' };

export interface TestServer {
  server: HeraldServer;
  base: string;
  dataDir: string;
  call<T = any>(method: string, p: string, opts?: CallOptions): Promise<Reply<T>>;
  login(email?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw body text instead of JSON. */
  raw?: string;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A clock tests can move. */
export class TestClock implements Clock {
  constructor(public t = Date.parse('2026-11-15T12:00:00Z')) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
  set(iso: string) {
    this.t = Date.parse(iso);
  }
}

export function tempDir(prefix = 'herald-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A call's headers (the key in `svc-key`, JSON's content type) and body (`raw`, else `body` as JSON). */
export function requestParts(o: CallOptions): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers['svc-key'] = o.key;
  let body: string | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  return { headers, body };
}

/**
 * Calls of a Herald API at `base` over fetch, JSON in and out (the body is undefined when the
 * answer is not JSON): TestServer's `call`, also for a Herald in another process.
 */
export function jsonCaller(base: string): TestServer['call'] {
  return async <T>(method: string, p: string, o: CallOptions = {}): Promise<Reply<T>> => {
    const { headers, body } = requestParts(o);
    const res = await fetch(base + p, { method, headers, body });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

/** A loopback port nothing listens on (opened, then closed). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function startServer(
  opts: Partial<ServerOptions> & { owner?: boolean; settings?: Record<string, string>; dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const config = loadConfig(
    {},
    {
      HERALD_DATA_DIR: dataDir,
      HERALD_PORT: '0',
      HERALD_LOG_LEVEL: 'silent',
      HERALD_SECRET_STORE: 'file',
      // Simulators and the test PDS listen on loopback (docs/decisions.md §7); the address
      // policy's own tests set it back to '0'.
      HERALD_ALLOW_PRIVATE_ADDRESSES: '1',
      // The suite creates many users: scrypt at 2^14, not OWASP's 2^17 (config.ts, passwordCostLog2).
      HERALD_PASSWORD_COST: process.env.HERALD_PASSWORD_COST ?? '14',
      // The suite's injected clocks are not the simulators': Mastodon posts fire locally unless a
      // test turns the hand-off on (hand-off.test.ts); the product's default is on (config.ts).
      HERALD_FEDBLOG_HAND_OFF: '0',
      ...(opts.owner === false ? {} : { HERALD_OWNER_EMAIL: OWNER.email, HERALD_OWNER_PASSWORD: OWNER.password }),
      ...opts.settings,
    },
  );
  const server = await createServer({ ...opts, config, announce: false });
  const base = server.apiUrl;
  const call = jsonCaller(base);
  const login = async (email = OWNER.email, password = OWNER.password) => {
    const r = await call<any>('POST', '/auth/login', { body: { email, password } });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
    return r.body.apiKey.key as string;
  };
  return {
    server,
    base,
    dataDir,
    call,
    login,
    // Under npm test the data folder is kept for the canary sweep (scripts/test.mjs removes it).
    close: async () => {
      await server.close();
      if (!process.env.HERALD_TEST_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A request with full control of the headers (fetch will not let a caller set Host), over
 * node:http. `target` is the request-target as sent on the wire.
 */
export function rawRequest(
  port: number,
  opts: {
    method?: string;
    target: string;
    headers?: Record<string, string | string[]>;
    body?: string;
    setHost?: boolean;
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: opts.method ?? 'GET',
      path: opts.target,
      headers: opts.headers,
      setHost: opts.setHost ?? false,
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

/** Creates a second user directly through the service (there is no registration endpoint). */
export async function addUser(t: TestServer, email: string, password = 'another password'): Promise<string> {
  await t.server.services.users.create({ email, password });
  return t.login(email, password);
}
