/**
 * How `herald` behaves as a command, run as the real binary: one line on stderr and a distinct
 * exit code per kind of failure (usage 2, auth 3, not found 4, Herald down 5, credits 6, rate
 * limited 7, anything else 1); colour only on a terminal (a real pseudo-terminal through
 * `script`) and never with NO_COLOR or TERM=dumb; the saved key's file mode whatever the umask;
 * `herald serve` with init, whoami and backup against it; the bin entry as npm installs it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, cliEnv, herald, heraldOnTty, limit, ok } from '../helpers/cli.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { addUser, closedPort, OWNER, startServer, tempDir, TestClock, type TestServer } from '../helpers/server.js';

// Each test runs several CLI children (about half a second each, more on a loaded machine).
vi.setConfig({ testTimeout: 180_000 });

const clock = new TestClock();
let t: TestServer;
let key: string;
const dirs: string[] = [];
const dir = (p = 'herald-cli-b-') => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
const run = limit(3);
let home: string;
const env = (extra: Record<string, string | undefined> = {}) =>
  cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base, ...extra });
const cli = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string) =>
  run(() => herald(args, { env: env(extra), stdin }));

/** A loopback port with nothing listening on it. */
beforeAll(async () => {
  t = await startServer({ clock, scheduler: false });
  key = await t.login();
  home = dir('herald-cli-home-');
});

afterAll(async () => {
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('failures', () => {
  it(
    "each kind prints one line on stderr with the API's code, " + 'nothing on stdout, and exits with its own code',
    async () => {
      // A user with a set and a draft but no credits left; a free key that has used its hour.
      const poorKey = await addUser(t, 'poor@example.test');
      const poorId = userIdOf(t, 'poor@example.test');
      addAccount(t, poorId, 'skyblog');
      const { balance } = t.server.services.credits.balance(poorId);
      t.server.services.credits.adjust(poorId, -balance, 'test: nothing left');
      const poorDraft = (
        await t.call('POST', '/microblog/drafts', {
          key: poorKey,
          body: { title: 'x', tweets: [{ content: 'x', position: 0 }] },
        })
      ).body.draft.id;
      const free = (await t.call('POST', '/auth/api-keys', { key, body: { name: 'free', tier: 'free' } })).body.apiKey
        .key;
      for (let i = 0; i < 100; i++) expect((await t.call('GET', '/me', { key: free })).status).toBe(200);
      const noSetKey = await addUser(t, 'noset@example.test');
      const down = `http://127.0.0.1:${await closedPort()}/api/v1`;

      const cases: [string, string[], Record<string, string>, number, RegExp][] = [
        [
          'wrong key',
          ['whoami'],
          { HERALD_API_KEY: 'hk_not_a_real_key_at_all_000000000000' },
          3,
          /^error INVALID_API_KEY: .+\n$/,
        ],
        [
          'unknown draft',
          ['draft', 'get', '00000000-0000-4000-8000-000000000000'],
          {},
          4,
          /^error NOT_FOUND: Draft not found\n$/,
        ],
        ['unknown template', ['template', 'get', 'nope'], {}, 4, /^error NOT_FOUND: .+\n$/],
        [
          'server down',
          ['draft', 'list'],
          { HERALD_BASE_URL: down },
          5,
          new RegExp(
            `^error NETWORK_ERROR: Herald is not reachable at ${down.replace(/[.]/g, '\\.')} ` +
              `\\(.*ECONNREFUSED.*\\); is it running\\?\\n$`,
          ),
        ],
        [
          'no credits',
          ['publish', poorDraft],
          { HERALD_API_KEY: poorKey },
          6,
          /^error INSUFFICIENT_CREDITS: .*10 credits.*\n$/,
        ],
        ['rate limited', ['whoami'], { HERALD_API_KEY: free }, 7, /^error RATE_LIMITED: .+ Retry after \d+ s\.\n$/],
        [
          'invalid input from the API',
          ['draft', 'create', '--content', 'x', '--title', 'T'.repeat(501)],
          {},
          2,
          /^error INVALID_INPUT: .*title.*500.*\n$/,
        ],
        [
          'bad --at',
          ['schedule', 'create', poorDraft, '--at', 'next tuesday'],
          {},
          2,
          /^error Cannot read the time "next tuesday": use ISO 8601/,
        ],
        [
          'bad base URL',
          ['whoami'],
          { HERALD_BASE_URL: 'localhost:4780' },
          2,
          /^error INVALID_INPUT: The base URL "localhost:4780" is not an http\(s\) URL/,
        ],
        [
          'no social set',
          ['draft', 'create', '--content', 'x'],
          { HERALD_API_KEY: noSetKey },
          1,
          /^error NO_SOCIAL_SET: .+\n$/,
        ],
      ];
      const results = await Promise.all(cases.map(([, args, extra]) => cli(args, extra)));
      cases.forEach(([name, , , code, line], i) => {
        const r = results[i];
        expect({ name, code: r.code, out: r.out }).toEqual({ name, code, out: '' });
        expect(r.err, name).toMatch(line);
        expect(r.err.trimEnd().split('\n'), name).toHaveLength(1);
      });
      expect((await t.call('GET', '/microblog/drafts', { key: noSetKey })).body.drafts).toEqual([]);
    },
  );

  it('mistakes in the command line exit 2 at every depth: the error, then a pointer to --help', async () => {
    const cases = [
      ['draft', 'list', '--bogus'],
      ['draft', 'create', '--content', 'x', '--split', 'myspace'],
      ['draft', 'list', '--limit', 'ten'],
      ['template', 'create'],
      ['schedule', 'create', 'd1'],
      ['frobnicate'],
      ['--output', 'yaml', 'whoami'],
      ['credits-usage', '--limit', '101'],
    ];
    const results = await Promise.all(cases.map((args) => cli(args)));
    results.forEach((r, i) => {
      expect({ args: cases[i], code: r.code, out: r.out }).toEqual({ args: cases[i], code: 2, out: '' });
      expect(r.err, cases[i].join(' ')).toMatch(/^error: .+\n\(add --help for usage and examples\)\n$/);
    });
    // Bare `herald` and a bare group show their help on stderr, as a usage error.
    const [bare, group] = await Promise.all([cli([]), cli(['schedule'])]);
    expect([bare.code, bare.out, group.code, group.out]).toEqual([2, '', 2, '']);
    expect(bare.err).toMatch(/^Usage: herald \[options\] \[command\]/);
    expect(group.err).toMatch(/^Usage: herald schedule \[options\] \[command\]/);
  });
});

describe('colour', () => {
  it('is used on a terminal only, and never with NO_COLOR or TERM=dumb', async () => {
    const args = ['--api-key', 'hk_wrong_key_000000000000000000000000', 'whoami'];
    const [tty, noColor, emptyNoColor, dumb, piped] = await Promise.all([
      run(() => heraldOnTty(args, { env: env() })),
      run(() => heraldOnTty(args, { env: env({ NO_COLOR: '1' }) })),
      run(() => heraldOnTty(args, { env: env({ NO_COLOR: '' }) })),
      run(() => heraldOnTty(args, { env: env({ TERM: 'dumb' }) })),
      cli(args),
    ]);
    for (const r of [tty, noColor, emptyNoColor, dumb, piped]) expect(r.code).toBe(3);
    expect(tty.out).toContain('\u001b[31merror\u001b[0m INVALID_API_KEY: ');
    expect(emptyNoColor.out).toContain('\u001b[31merror\u001b[0m'); // no-color.org: an empty NO_COLOR is unset
    for (const r of [noColor, dumb]) {
      expect(r.out).toMatch(/^error INVALID_API_KEY: .+\r\n$/);
      expect(r.out).not.toContain('\u001b');
    }
    expect(piped.err).toMatch(/^error INVALID_API_KEY: /); // herald() already refuses any escape sequence on a pipe
  });
});

describe('the saved key', () => {
  it(
    'is written 0600 in a 0700 folder even with umask 000, replaces an older readable file, and a refused key ' +
      'saves nothing',
    async () => {
      const h = dir('herald-cli-umask-');
      const sh = (cmd: string, configHome: string) =>
        run(
          () =>
            new Promise<{ code: number; err: string }>((resolve) => {
              const child = spawn('sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" ${cmd}`], {
                env: cliEnv(configHome, { HERALD_BASE_URL: t.base }) as NodeJS.ProcessEnv,
              });
              let err = '';
              child.stderr.on('data', (c) => {
                err += c;
              });
              child.on('close', (code) => resolve({ code: code ?? -1, err }));
            }),
        );
      const fresh = await sh(`login --api-key ${key}`, h);
      expect(fresh.code, fresh.err).toBe(0);
      expect(fs.statSync(path.join(h, 'herald')).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(h, 'herald', 'credentials.json')).mode & 0o777).toBe(0o600);

      const old = dir('herald-cli-old-');
      fs.mkdirSync(path.join(old, 'herald'), { mode: 0o755 });
      fs.writeFileSync(path.join(old, 'herald', 'credentials.json'), '{"apiKey":"hk_old"}', { mode: 0o644 });
      const replaced = await sh(`login --api-key ${key}`, old);
      expect(replaced.code, replaced.err).toBe(0);
      const file = path.join(old, 'herald', 'credentials.json');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).apiKey).toBe(key);
      expect(fs.readdirSync(path.join(old, 'herald'))).toEqual(['credentials.json']);

      const refused = dir('herald-cli-refused-');
      const bad = await run(() =>
        herald(['login', '--api-key', 'hk_wrong_key_000000000000000000000000', '--base-url', t.base], {
          env: cliEnv(refused),
        }),
      );
      expect(bad.code).toBe(3);
      expect(fs.existsSync(path.join(refused, 'herald'))).toBe(false);
    },
  );
});

describe('herald serve', () => {
  it(
    'runs the API headless; init signs in against it, whoami uses the saved key, backup copies its database ' +
      'while it runs; SIGTERM stops it',
    async () => {
      const data = dir('herald-cli-serve-');
      const h = dir('herald-cli-serve-home-');
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', data], {
        env: cliEnv(h, { HERALD_SECRET_STORE: 'file', HERALD_LOG_LEVEL: 'info' }) as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
      });
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        out += c;
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      try {
        const base = await new Promise<string>((resolve, reject) => {
          const timer = setInterval(() => {
            const m = /Herald API listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out);
            if (m) {
              clearInterval(timer);
              resolve(m[1]);
            }
          }, 50);
          void exited.then((code) => {
            clearInterval(timer);
            reject(new Error(`serve exited ${code}: ${out}`));
          });
        });
        const e = cliEnv(h, { HERALD_BASE_URL: base });
        const init = await herald(['init', '--email', 'served@example.test', '--password-stdin'], {
          env: e,
          stdin: 'a long passphrase\n',
        });
        const said = [
          /^Created the owner served@example\.test at .*; signed in, key saved to .*\.\n/,
          /Next: set up the network apps .*`herald network set <name> .*Networks page\.\n$/,
        ];
        expect(ok(init)).toMatch(new RegExp(said.map((r) => r.source).join('')));
        const copy = path.join(dir(), 'copy.db');
        const [who, backup] = await Promise.all([
          herald(['whoami', '-o', 'json'], { env: e }),
          herald(['backup', copy, '--data-dir', data, '-o', 'minimal'], { env: e }),
        ]);
        expect(JSON.parse(ok(who)).email).toBe('served@example.test');
        expect(ok(backup)).toBe(`${copy}\n`);
        expect(fs.statSync(copy).size).toBeGreaterThan(0);
        // The password given on stdin is the one that signs in.
        expect(
          (
            await fetch(`${base}/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: 'served@example.test', password: 'a long passphrase' }),
            })
          ).status,
        ).toBe(200);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      expect(out).toContain('Herald is stopping (SIGTERM)');
    },
  );
});

describe('pipes', () => {
  it('a reader that stops early (`| head -1`) ends the command quietly with 0, no EPIPE stack', async () => {
    // The reader takes one chunk and closes its end, as `head -1` does, while herald is still writing.
    const r = await run(
      () =>
        new Promise<{ code: number | null; err: string; first: string }>((resolve) => {
          const child = spawn(process.execPath, [BIN, 'draft', '--help'], { env: env() as NodeJS.ProcessEnv });
          let err = '';
          let first = '';
          child.stderr.on('data', (c) => {
            err += c;
          });
          child.stdout.once('data', (c) => {
            first = String(c).split('\n')[0];
            child.stdout.destroy();
          });
          child.on('close', (code) => resolve({ code, err, first }));
        }),
    );
    expect(r.first).toBe('Usage: herald draft [options] [command]');
    expect(r.err).not.toMatch(/EPIPE|Unhandled/);
    expect(r.code).toBe(0);
  });
});

describe('installing', () => {
  it('package.json names bin/herald.mjs, which runs through a global-install symlink and through npx', async () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
    expect(pkg.bin).toEqual({ herald: 'bin/herald.mjs' });
    // The command runs compiled JavaScript (dist/cli, built at install and rebuilt when its
    // sources change): no TypeScript loader at run time.
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(fs.readFileSync(BIN, 'utf8')).not.toMatch(/tsx/);
    expect(fs.readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(fs.statSync(BIN).mode & 0o111).toBe(0o111);

    // What `npm install -g` makes: <prefix>/bin/herald -> …/bin/herald.mjs, run by its shebang.
    const prefix = dir('herald-cli-global-');
    fs.mkdirSync(path.join(prefix, 'bin'));
    fs.symlinkSync(BIN, path.join(prefix, 'bin', 'herald'));
    const PATH = `${path.join(prefix, 'bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
    const viaLink = await run(
      () =>
        new Promise<{ code: number; out: string }>((resolve) => {
          const child = spawn('herald', ['--version'], {
            cwd: prefix,
            env: cliEnv(prefix, { PATH }) as NodeJS.ProcessEnv,
          });
          let o = '';
          child.stdout.on('data', (c) => {
            o += c;
          });
          child.on('close', (code) => resolve({ code: code ?? -1, out: o }));
        }),
    );
    expect(viaLink).toEqual({ code: 0, out: `${pkg.version}\n` });

    const viaNpx = await run(
      () =>
        new Promise<{ code: number; out: string }>((resolve) => {
          const child = spawn('npx', ['--no-install', 'herald', 'draft', '--help'], {
            env: cliEnv(home) as NodeJS.ProcessEnv,
          });
          let o = '';
          child.stdout.on('data', (c) => {
            o += c;
          });
          child.on('close', (code) => resolve({ code: code ?? -1, out: o }));
        }),
    );
    expect(viaNpx.code).toBe(0);
    expect(viaNpx.out).toMatch(/^Usage: herald draft \[options\] \[command\]/);
  });
});
