/**
 * The real headless Herald (`server/main.ts`, what `npm run serve` runs) in a process of its own,
 * for tests that SIGKILL it, restart it on the same data folder, run two of it side by side or
 * run it under libfaketime. Settings go in through the environment, as for a person.
 *
 * By default the child runs server/main.ts bundled with esbuild (the same transform tsx applies,
 * as scripts/build.mjs ships it; rebuilt when the sources change): it starts in well under a
 * second where tsx takes several on a loaded 2-core machine, which matters for tests that restart
 * it a dozen times. HERALD_CHILD_RUNNER=tsx runs `tsx server/main.ts` instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallOptions, Reply } from './server.js';
import { OWNER, requestParts } from './server.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

let built: Promise<string> | undefined;

/** A digest of the server's sources: the bundle is rebuilt only when they change. */
function sourceDigest(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.(ts|json|sql)$/.test(e.name)) hash.update(full).update(fs.readFileSync(full));
    }
  };
  walk(path.join(ROOT, 'server'));
  walk(path.join(ROOT, 'client'));
  // The shared leaves are bundled into the server too.
  walk(path.join(ROOT, 'text'));
  walk(path.join(ROOT, 'time'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The bundled server entry (under node_modules so its externals resolve), shared by every test
 * file while the sources are unchanged; bundles of other sources older than a day are removed.
 */
function bundle(): Promise<string> {
  built ??= (async () => {
    const cache = path.join(ROOT, 'node_modules', '.cache');
    const dir = path.join(cache, `herald-child-${sourceDigest()}`);
    const outfile = path.join(dir, 'server', 'main.mjs');
    if (fs.existsSync(outfile)) return outfile;
    const { build } = await import('esbuild');
    // Built beside, then renamed into place: test files starting together never see half a bundle.
    const tmp = `${dir}.tmp-${process.pid}`;
    await build({
      entryPoints: [path.join(ROOT, 'server/main.ts')],
      outfile: path.join(tmp, 'server', 'main.mjs'),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external: ['better-sqlite3', 'keytar', 'electron', '@atproto/*', 'file-type', 'sharp', 'node-schedule'],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'warning',
    });
    try {
      fs.renameSync(tmp, dir);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true }); // another file built the same sources first
    }
    for (const old of fs
      .readdirSync(cache)
      .filter((n) => n.startsWith('herald-child-') && path.join(cache, n) !== dir)) {
      const p = path.join(cache, old);
      try {
        if (Date.now() - fs.statSync(p).mtimeMs > 86_400_000) fs.rmSync(p, { recursive: true, force: true });
      } catch {
        /* removed meanwhile */
      }
    }
    return outfile;
  })();
  return built;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildServer {
  pid: number;
  url: string;
  apiUrl: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves when the process is gone. */
  exited: Promise<ChildExit>;
  alive(): boolean;
  call<T = any>(method: string, p: string, opts?: CallOptions): Promise<Reply<T>>;
  login(email?: string, password?: string): Promise<string>;
  /** Sends a signal (default SIGKILL) and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<ChildExit>;
}

export interface ChildOptions {
  dataDir: string;
  /** HERALD_* settings over the test defaults (port 0, file secret store, owner, error log). */
  env?: Record<string, string | undefined>;
  /**
   * Run under libfaketime: FAKETIME (e.g. "+3h", "+0 x10") or a FAKETIME_TIMESTAMP_FILE to move the clock while it
   * runs.
   */
  faketime?: { spec?: string; file?: string };
  /** How long to wait for the listening line, ms. */
  readyMs?: number;
}

export async function startChild(opts: ChildOptions): Promise<ChildServer> {
  const tsx = process.env.HERALD_CHILD_RUNNER === 'tsx';
  const args = tsx ? ['--import', 'tsx', path.join(ROOT, 'server/main.ts')] : [await bundle()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HERALD_DATA_DIR: opts.dataDir,
    HERALD_PORT: '0',
    HERALD_HOST: '127.0.0.1',
    HERALD_SECRET_STORE: 'file',
    HERALD_LOG_LEVEL: 'error',
    HERALD_OWNER_EMAIL: OWNER.email,
    HERALD_OWNER_PASSWORD: OWNER.password,
    HERALD_DEFAULT_TIER: 'enterprise',
    HERALD_ALLOW_PRIVATE_ADDRESSES: '1',
    HERALD_MIGRATIONS_DIR: path.join(ROOT, 'migrations'),
    ...opts.env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  if (opts.faketime) {
    env.LD_PRELOAD = LIBFAKETIME;
    if (opts.faketime.spec) env.FAKETIME = opts.faketime.spec;
    if (opts.faketime.file) {
      env.FAKETIME_TIMESTAMP_FILE = opts.faketime.file;
      env.FAKETIME_NO_CACHE = '1';
    }
  }
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  proc.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  let gone = false;
  const exited = new Promise<ChildExit>((resolve) =>
    proc.once('exit', (code, signal) => {
      gone = true;
      resolve({ code, signal });
    }),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`Herald did not start within ${opts.readyMs ?? 30_000} ms:\n${out.slice(-2000)}`));
    }, opts.readyMs ?? 30_000);
    const check = () => {
      const m = /Herald API listening on (http:\/\/[^\s/]+)\/api\/v1/.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.stdout!.off('data', check);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', check);
    check();
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`Herald exited before listening (${e.signal ?? e.code}):\n${out.slice(-2000)}`));
    });
  });
  const apiUrl = `${url}/api/v1`;

  // A fresh connection per call (no keep-alive pool): the child may be killed or restarted at
  // any moment, and under libfaketime its keep-alive timeout runs faster than the client thinks.
  const call = <T>(method: string, p: string, o: CallOptions = {}): Promise<Reply<T>> =>
    new Promise((resolve, reject) => {
      const { headers, body } = requestParts(o);
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = http.request(apiUrl + p, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: any;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });

  return {
    pid: proc.pid!,
    url,
    apiUrl,
    port: Number(new URL(url).port),
    dataDir: opts.dataDir,
    proc,
    exited,
    output: () => out,
    alive: () => !gone,
    call,
    login: async (email = OWNER.email, password = OWNER.password) => {
      const r = await call<any>('POST', '/auth/login', { body: { email, password } });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
      return r.body.apiKey.key as string;
    },
    kill: async (signal = 'SIGKILL') => {
      if (!gone) proc.kill(signal);
      return exited;
    },
  };
}
