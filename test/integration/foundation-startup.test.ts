/**
 * Foundation (issue 2): Herald as people start it, in child processes.
 * - `npm run serve` prints the line of docs/decisions.md §9, serves the API, takes the environment over
 *   `<data dir>/config.json`, and stops gracefully (database closed, port released) on SIGTERM
 *   sent to npm alone (what a supervisor does) and on Ctrl-C (SIGINT to the process group);
 * - `npm start` without Electron's binary says so and runs the same server headless;
 * - without keytar (not built where libsecret is missing) the server still starts, refuses to
 *   keep tokens until HERALD_SECRET_STORE=file is chosen, and Electron and keytar are optional
 *   dependencies only.
 * The data folder itself (a new one, one from a newer Herald): foundation-data-folder.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedElectron } from '../../scripts/electron-binary.mjs';
import {
  expectStoppedCleanly,
  launch,
  LISTENING,
  login,
  newDir,
  OWNER,
  SLOW,
  stopped,
  useLaunches,
} from '../helpers/herald-process.js';
import { processTree } from '../helpers/proc.js';
import { ROOT } from '../helpers/child-server.js';

useLaunches();

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
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    for (const name of ['electron', 'keytar']) {
      expect(pkg.optionalDependencies?.[name], name).toBeTruthy();
      expect(pkg.dependencies?.[name], name).toBeUndefined();
      expect(pkg.devDependencies?.[name], name).toBeUndefined();
    }
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].optionalDependencies).toMatchObject({
      electron: expect.any(String),
      keytar: expect.any(String),
    });
    for (const name of ['electron', 'keytar']) expect(lock.packages[`node_modules/${name}`].optional, name).toBe(true);
    // Nothing the server or the CLI loads imports either one eagerly.
    const walk = (d: string): string[] =>
      fs
        .readdirSync(path.join(ROOT, d), { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ts') ? [path.join(d, e.name)] : [],
        );
    const sources = ['server', 'cli', 'client'].flatMap(walk);
    for (const f of sources) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
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
