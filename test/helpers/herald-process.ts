/**
 * Herald as people start it, in child processes (the foundation-startup and foundation-data-folder
 * tests): `launch` runs a command in its own process group as a terminal would and collects its
 * output; `useLaunches()` kills whatever a failed test left running and removes the temporary
 * data folders after the calling file's tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { ROOT } from './child-server.js';
import { tempDir } from './server.js';

export const LISTENING = /^Herald API listening on http:\/\/127\.0\.0\.1:(\d+)\/api\/v1$/m;
export const OWNER = { email: 'serve-owner@example.test', password: 'serve owner password' };
/** Child processes compile TypeScript on start: slow on a busy machine, so each test gets room. */
export const SLOW = 180_000;
const dirs: string[] = [];
const running = new Set<ChildProcess>();
export const newDir = () => {
  const d = tempDir('herald-startup-');
  dirs.push(d);
  return d;
};

/** After the calling file's tests: ends what is still running and removes the data folders. */
export function useLaunches(): void {
  afterAll(() => {
    // Anything a failed test left running: its whole process group, by id.
    for (const c of running)
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
}

/** The environment of a fresh shell: no HERALD_* settings leak in from the test run. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HERALD_') && !k.startsWith('npm_')) env[k] = v;
  return { ...env, ...extra };
}

export interface Launched {
  child: ChildProcess;
  output: () => string;
  waitFor: (re: RegExp, ms?: number) => Promise<RegExpMatchArray>;
  /** Resolves when every process holding the output pipes (npm, the shell, Herald) has exited. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a command in its own process group (as a terminal would), collecting stdout and stderr. */
export function launch(cmd: string, args: string[], env: Record<string, string>): Launched {
  const child = spawn(cmd, args, { cwd: ROOT, env: cleanEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  const waiters: (() => void)[] = [];
  const onData = (c: Buffer) => {
    out += c.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      for (const w of waiters) w();
      resolve({ code, signal });
    });
  });
  const waitFor = (re: RegExp, ms = 90_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${re} within ${ms} ms; output:\n${out}`)), ms);
      const check = () => {
        const m = out.match(re);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          reject(new Error(`exited before ${re}; output:\n${out}`));
        }
      };
      waiters.push(check);
      check();
    });
  return { child, output: () => out, waitFor, closed };
}

export async function login(base: string, email = OWNER.email, password = OWNER.password) {
  const r = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { apiKey: { key: string } }).apiKey.key;
}

/** Waits for every process of a launch to exit, failing (not hanging) when one keeps running. */
export async function stopped(p: Launched, what: string, ms = 60_000) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running ${ms} ms later; output:\n${p.output()}`)), ms);
  });
  try {
    return await Promise.race([p.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A stop is graceful when the port is released and SQLite was closed (a clean close removes the WAL). */
export async function expectStoppedCleanly(base: string, dataDir: string) {
  await expect(fetch(`${base}/openapi.json`)).rejects.toThrow();
  expect(fs.existsSync(path.join(dataDir, 'herald.db'))).toBe(true);
  expect(fs.existsSync(path.join(dataDir, 'herald.db-wal'))).toBe(false);
}
