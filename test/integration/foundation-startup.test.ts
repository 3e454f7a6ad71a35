/**
 * Foundation (issue 2): Herald as people start it, in child processes.
 * - `npm run serve` prints the line of docs/decisions.md §9, serves the API, takes the environment over
 *   `<data dir>/config.json`, and stops gracefully (database closed, port released) on SIGTERM
 *   sent to npm alone (what a supervisor does) and on Ctrl-C (SIGINT to the process group);
 * - `npm start` without Electron's binary says so and runs the same server headless;
 * - without keytar (not built where libsecret is missing) the server still starts, refuses to
 *   keep tokens until HERALD_SECRET_STORE=file is chosen, and Electron and keytar are optional
 *   dependencies only;
 * - a data folder written by a newer Herald is refused and left byte for byte as it was.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/core/config.js';
import { SchemaTooNewError } from '../../server/db/connection.js';
import { installedElectron } from '../../scripts/electron-binary.mjs';
import { createServer } from '../../server/server.js';
import { processTree } from '../helpers/proc.js';
import { startServer, tempDir } from '../helpers/server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LISTENING = /^Herald API listening on http:\/\/127\.0\.0\.1:(\d+)\/api\/v1$/m;
const OWNER = { email: 'serve-owner@example.test', password: 'serve owner password' };
/** Child processes compile TypeScript on start: slow on a busy machine, so each test gets room. */
const SLOW = 180_000;
const dirs: string[] = [];
const running = new Set<ChildProcess>();
const newDir = () => {
  const d = tempDir('herald-startup-');
  dirs.push(d);
  return d;
};

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

/** The environment of a fresh shell: no HERALD_* settings leak in from the test run. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HERALD_') && !k.startsWith('npm_')) env[k] = v;
  return { ...env, ...extra };
}

interface Launched {
  child: ChildProcess;
  output: () => string;
  waitFor: (re: RegExp, ms?: number) => Promise<RegExpMatchArray>;
  /** Resolves when every process holding the output pipes (npm, the shell, Herald) has exited. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a command in its own process group (as a terminal would), collecting stdout and stderr. */
function launch(cmd: string, args: string[], env: Record<string, string>): Launched {
  const child = spawn(cmd, args, { cwd: root, env: cleanEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

async function login(base: string, email = OWNER.email, password = OWNER.password) {
  const r = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { apiKey: { key: string } }).apiKey.key;
}

/** Waits for every process of a launch to exit, failing (not hanging) when one keeps running. */
async function stopped(p: Launched, what: string, ms = 60_000) {
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
async function expectStoppedCleanly(base: string, dataDir: string) {
  await expect(fetch(`${base}/openapi.json`)).rejects.toThrow();
  expect(fs.existsSync(path.join(dataDir, 'herald.db'))).toBe(true);
  expect(fs.existsSync(path.join(dataDir, 'herald.db-wal'))).toBe(false);
}

describe('npm run serve', () => {
  const dataDir = newDir();

  it(
    'prints the listening line, takes the environment over config.json, and stops on SIGTERM sent to npm alone',
    async () => {
      // config.json asks for an address this machine cannot bind and a free tier; the environment overrides both.
      fs.writeFileSync(
        path.join(dataDir, 'config.json'),
        JSON.stringify({
          HERALD_HOST: '203.0.113.7',
          HERALD_PORT: 1,
          HERALD_DEFAULT_TIER: 'free',
          HERALD_MONTHLY_CREDITS: 250,
          HERALD_OWNER_EMAIL: OWNER.email,
          HERALD_OWNER_PASSWORD: OWNER.password,
          HERALD_SECRET_STORE: 'file',
        }),
      );
      const p = launch('npm', ['run', 'serve'], {
        HERALD_DATA_DIR: dataDir,
        HERALD_HOST: '127.0.0.1',
        HERALD_PORT: '0',
        HERALD_DEFAULT_TIER: 'enterprise',
      });
      const [, port] = await p.waitFor(LISTENING);
      const base = `http://127.0.0.1:${port}/api/v1`;
      expect(p.output().match(new RegExp(LISTENING.source, 'gm'))).toHaveLength(1);

      // The owner and the monthly grant come from config.json, the tier from the environment.
      const key = await login(base);
      const me = await fetch(`${base}/me`, { headers: { 'svc-key': key } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe(OWNER.email);
      expect(me.headers.get('x-ratelimit-limit')).toBe('10000');
      const credits = await fetch(`${base}/credits`, { method: 'POST', headers: { 'svc-key': key } });
      expect(((await credits.json()) as { balance: number }).balance).toBe(250);
      const settings = (await (await fetch(`${base}/settings`, { headers: { 'svc-key': key } })).json()) as {
        settings: Record<string, unknown>;
      };
      expect(settings.settings).toMatchObject({ secretStore: 'file', defaultTier: 'enterprise', monthlyCredits: 250 });

      // A supervisor's SIGTERM reaches npm only; Herald must not be left running behind it.
      p.child.kill('SIGTERM');
      await stopped(p, 'Herald after SIGTERM to npm');
      expect(p.output()).toMatch(/Herald is stopping/);
      await expectStoppedCleanly(base, dataDir);
    },
    SLOW,
  );

  it(
    'a second start keeps the data and creates no owner; Ctrl-C (SIGINT to the group) stops it gracefully',
    async () => {
      const p = launch('npm', ['run', 'serve'], {
        HERALD_DATA_DIR: dataDir,
        HERALD_HOST: '127.0.0.1',
        HERALD_PORT: '0',
      });
      const [, port] = await p.waitFor(LISTENING);
      const base = `http://127.0.0.1:${port}/api/v1`;
      expect(
        (
          (await (await fetch(`${base}/auth/api-keys`, { headers: { 'svc-key': await login(base) } })).json()) as {
            apiKeys: unknown[];
          }
        ).apiKeys,
      ).toHaveLength(2);
      expect(p.output()).not.toMatch(/created the owner/);
      process.kill(-p.child.pid!, 'SIGINT');
      await stopped(p, 'Herald after Ctrl-C');
      expect(p.output()).toMatch(/Herald is stopping \(SIGINT\)/);
      await expectStoppedCleanly(base, dataDir);
    },
    SLOW,
  );
});

describe('npm start', () => {
  it(
    "without Electron's binary says so in one line, serves the same API headless, and stops on SIGTERM",
    async () => {
      const dataDir = newDir();
      // Looked up the way npm start does (require('electron') would download a missing binary since
      // Electron 42). On CI the binary is never installed; where it is, HERALD_HEADLESS takes the same path.
      const electron = installedElectron(import.meta.url);
      const p = launch('npm', ['start'], {
        HERALD_DATA_DIR: dataDir,
        HERALD_PORT: '0',
        HERALD_SECRET_STORE: 'file',
        ...(electron ? { HERALD_HEADLESS: '1' } : {}),
      });
      const [, port] = await p.waitFor(LISTENING);
      if (!electron)
        expect(p.output()).toMatch(
          new RegExp(
            [
              /^Electron is not installed here, so Herald runs headless/.source,
              /install Electron's binary once \(npx --no install-electron\).*$/.source,
            ].join('.*'),
            'm',
          ),
        );
      const base = `http://127.0.0.1:${port}/api/v1`;
      expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
      // One Node process serves the app (npm's own wrapper and its shell aside), with no TypeScript
      // loader: the compiled server runs inside the start script.
      const tree = processTree(p.child.pid!).map((x) => x.cmd);
      const nodes = tree.filter((c) => /(^|\/)node(\s|$)/.test(c) && !/npm-cli\.js|(^|\/)npm(\s|$)/.test(c));
      expect(nodes, tree.join('\n')).toHaveLength(1);
      expect(nodes[0]).toMatch(/scripts\/start\.mjs/);
      expect(
        tree.filter((c) => /tsx/.test(c)),
        tree.join('\n'),
      ).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${port}/`)).headers.get('content-type')).toMatch(/text\/html/);
      process.kill(-p.child.pid!, 'SIGTERM');
      await stopped(p, 'npm start after SIGTERM');
      expect(p.output()).toMatch(/Herald is stopping/);
      await expectStoppedCleanly(base, dataDir);
    },
    SLOW,
  );
});

describe('installation without Electron or keytar', () => {
  it('package.json lists electron and keytar as optional dependencies only', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const name of ['electron', 'keytar']) {
      expect(pkg.optionalDependencies?.[name], name).toBeTruthy();
      expect(pkg.dependencies?.[name], name).toBeUndefined();
      expect(pkg.devDependencies?.[name], name).toBeUndefined();
    }
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].optionalDependencies).toMatchObject({
      electron: expect.any(String),
      keytar: expect.any(String),
    });
    for (const name of ['electron', 'keytar']) expect(lock.packages[`node_modules/${name}`].optional, name).toBe(true);
    // Nothing the server or the CLI loads imports either one eagerly.
    const walk = (d: string): string[] =>
      fs
        .readdirSync(path.join(root, d), { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ts') ? [path.join(d, e.name)] : [],
        );
    const sources = ['server', 'cli', 'client'].flatMap(walk);
    for (const f of sources) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      expect(text, f).not.toMatch(/^\s*import\s[^;]*from\s+['"](electron|keytar)['"]/m);
      expect(text, f).not.toMatch(/require\(['"](electron|keytar)['"]\)/);
    }
  });

  it(
    'the server starts when keytar cannot be loaded; tokens wait for a keychain or HERALD_SECRET_STORE=file',
    async () => {
      for (const store of [undefined, 'file'] as const) {
        const dataDir = newDir();
        const p = launch(
          process.execPath,
          ['--import', './test/helpers/no-keytar.mjs', '--import', 'tsx', 'server/main.ts'],
          {
            HERALD_DATA_DIR: dataDir,
            HERALD_PORT: '0',
            HERALD_OWNER_EMAIL: OWNER.email,
            HERALD_OWNER_PASSWORD: OWNER.password,
            ...(store ? { HERALD_SECRET_STORE: store } : {}),
          },
        );
        const [, port] = await p.waitFor(LISTENING);
        const base = `http://127.0.0.1:${port}/api/v1`;
        const key = await login(base);
        const settings = (await (await fetch(`${base}/settings`, { headers: { 'svc-key': key } })).json()) as {
          settings: { secretStore: string };
        };
        if (store === 'file') {
          expect(settings.settings.secretStore).toBe('file');
          expect(p.output()).not.toMatch(/No OS keychain/);
        } else {
          expect(settings.settings.secretStore).toBe('unavailable');
          expect(p.output()).toMatch(
            /No OS keychain is available \(Cannot find package 'keytar'.*HERALD_SECRET_STORE=file/,
          );
        }
        p.child.kill('SIGTERM');
        expect((await stopped(p, 'Herald without keytar after SIGTERM')).code).toBe(0);
        await expectStoppedCleanly(base, dataDir);
      }
    },
    SLOW,
  );
});

describe('SQLite', () => {
  it(
    'a new data folder is created private, with WAL, synchronous=FULL, foreign keys, a busy timeout and every ' +
      'migration applied',
    async () => {
      const dataDir = path.join(newDir(), 'nested', 'Herald');
      const t = await startServer({ dataDir, scheduler: false });
      try {
        expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
        const sqlite = t.server.sqlite;
        expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
        expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
        expect(sqlite.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
        const journal = JSON.parse(fs.readFileSync(path.join(root, 'migrations', 'meta', '_journal.json'), 'utf8')) as {
          entries: { when: number }[];
        };
        const applied = sqlite
          .prepare('SELECT created_at AS c FROM __drizzle_migrations ORDER BY created_at')
          .all() as {
          c: number;
        }[];
        expect(applied.map((r) => Number(r.c))).toEqual(journal.entries.map((e) => e.when));
      } finally {
        await t.close();
      }
    },
  );
});

describe('a data folder from a newer Herald', () => {
  function snapshot(dir: string) {
    return Object.fromEntries(
      fs
        .readdirSync(dir)
        .sort()
        .map((name) => {
          const file = path.join(dir, name);
          const st = fs.statSync(file);
          return [
            name,
            {
              sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
              size: st.size,
              mtimeMs: st.mtimeMs,
              mode: st.mode,
            },
          ];
        }),
    );
  }

  /** A folder as Herald leaves it, then stamped with a migration this version does not know. */
  async function newerFolder(journal: 'wal' | 'delete') {
    const dataDir = newDir();
    const t = await startServer({ dataDir, scheduler: false });
    const key = await t.login();
    await t.call('POST', '/templates', { key, body: { name: 'kept' } });
    await t.server.close();
    const db = new Database(path.join(dataDir, 'herald.db'));
    const latest = (db.prepare('SELECT MAX(created_at) AS n FROM __drizzle_migrations').get() as { n: number }).n;
    db.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run(
      'from-a-newer-herald',
      Number(latest) + 86_400_000,
    );
    if (journal === 'delete') db.pragma('journal_mode = DELETE');
    db.close();
    expect(fs.existsSync(path.join(dataDir, 'herald.db-wal'))).toBe(false);
    return dataDir;
  }

  for (const journal of ['wal', 'delete'] as const) {
    it(
      `is refused in process and by npm run serve, and not written to (journal mode ${journal})`,
      async () => {
        const dataDir = await newerFolder(journal);
        const before = snapshot(dataDir);
        await expect(
          createServer({
            config: loadConfig(
              {},
              { HERALD_DATA_DIR: dataDir, HERALD_PORT: '0', HERALD_SECRET_STORE: 'file', HERALD_LOG_LEVEL: 'silent' },
            ),
            scheduler: false,
          }),
        ).rejects.toBeInstanceOf(SchemaTooNewError);
        expect(snapshot(dataDir)).toEqual(before);
        if (journal === 'wal') {
          const p = launch('npm', ['run', 'serve'], {
            HERALD_DATA_DIR: dataDir,
            HERALD_PORT: '0',
            HERALD_SECRET_STORE: 'file',
          });
          const { code } = await stopped(p, 'Herald on a newer folder');
          expect(code).not.toBe(0);
          expect(p.output()).toMatch(
            /Herald cannot start: The database .*herald\.db was written by a newer version of Herald/,
          );
          expect(p.output()).not.toMatch(LISTENING);
          expect(snapshot(dataDir)).toEqual(before);
        }
      },
      SLOW,
    );
  }
});
