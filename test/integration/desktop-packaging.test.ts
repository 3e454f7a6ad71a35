/**
 * Packaging without Electron's binary (it cannot be downloaded here; see docs/decisions.md §21):
 * electron-builder.yml is validated offline by electron-builder's own schema, then the app is
 * built (`scripts/build-desktop.mjs`) and packed for real (`electron-builder --dir --linux`) with
 * a stub Electron (`-c.electronDist`) whose binary carries a fuse wire, so the configured fuses
 * are flipped and read back. app.asar is listed (server bundle, preload, UI build, production
 * modules, no sources) and the migrations are checked beside it. Finally the packed app itself is
 * booted under Node with a stand-in 'electron' module: its bundled main process starts the
 * server from inside the package, finds the migrations in resources/, serves the packed UI with
 * its CSP, and shuts down cleanly on quit.
 *
 * Not proven here: that real Electron loads it (ABI of the native modules, which electron-builder
 * rebuilds for Electron only with npmRebuild and network), the installers (AppImage, deb, nsis,
 * dmg need tools fetched from the network), code signing and asar integrity at run time.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve('.');
const require = createRequire(import.meta.url);
// electron-builder's own modules sit in its folder (test/.npmrc installs test peers shallow).
const builderRequire = createRequire(
  createRequire(require.resolve('electron-builder/package.json')).resolve('app-builder-lib/package.json'),
);
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/**
 * Electron's default fuse wire (V1) as its binaries ship it since Electron 42 (build/fuses/fuses.json5):
 * 9 fuses, run-as-node, node-options, inspect, file protocol and (new in 42) Wasm trap handlers on.
 */
const DEFAULT_WIRE = '101100011';
/** Fuse 8, WasmTrapHandlers: newer than the @electron/fuses electron-builder 26 uses, so indexed by number. */
const WASM_TRAP_HANDLERS = 8;

const work = path.join(root, 'test-results', `pack-${process.pid}-${Date.now()}`);
const proj = path.join(work, 'project');
const unpacked = path.join(proj, 'out', 'linux-unpacked');
const resources = path.join(unpacked, 'resources');
const asarFile = path.join(resources, 'app.asar');
let entries: string[] = [];

function loadYaml(file: string): any {
  return builderRequire('js-yaml').load(fs.readFileSync(file, 'utf8'));
}

async function validate(cfg: unknown): Promise<void> {
  const { validateConfiguration } = builderRequire('./out/util/config/config');
  const { DebugLogger } = builderRequire('builder-util');
  await validateConfiguration(cfg, new DebugLogger(false));
}

function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    timeout: opts.timeout ?? 240_000,
  });
  if (r.status !== 0)
    throw new Error(
      `${path.basename(cmd)} ${args.join(' ')} failed (${r.status ?? r.signal}):\n` +
        `${(r.stdout ?? '').slice(-3000)}\n${(r.stderr ?? '').slice(-3000)}`,
    );
  return r.stdout;
}

describe('electron-builder.yml, offline', () => {
  const cfg = loadYaml(path.join(root, 'electron-builder.yml'));

  it("passes electron-builder's own schema, which does reject a broken config", async () => {
    await validate(cfg);
    await expect(validate({ ...cfg, notAnOption: true })).rejects.toThrow(/Invalid configuration object/);
    await expect(validate({ ...cfg, asar: 'yes please' })).rejects.toThrow(/Invalid configuration object/);
  });

  it('targets AppImage and deb, nsis and portable, dmg; asar; migrations as extra resources; fuses set', () => {
    expect(cfg.linux.target).toEqual(['AppImage', 'deb']);
    expect(cfg.win.target).toEqual(['nsis', 'portable']);
    expect(cfg.mac.target).toEqual(['dmg']);
    expect(cfg.asar).toBe(true);
    expect(cfg.extraResources).toEqual([expect.objectContaining({ from: 'migrations', to: 'migrations' })]);
    expect(cfg.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/main/main.cjs');
    expect(cfg.files).toEqual(expect.arrayContaining(['package.json', 'dist/main/**', 'renderer/dist/**']));
  });
});

describe('packed with a stub Electron', () => {
  beforeAll(() => {
    fs.mkdirSync(proj, { recursive: true });
    // The build, into the scratch project (the checkout's own dist/ is left alone).
    run(process.execPath, [path.join(root, 'scripts/build-desktop.mjs'), '--out', proj], { cwd: root });
    for (const f of ['package.json', 'package-lock.json', 'electron-builder.yml'])
      fs.copyFileSync(path.join(root, f), path.join(proj, f));
    fs.cpSync(path.join(root, 'migrations'), path.join(proj, 'migrations'), { recursive: true });
    // electron-builder collects production modules from a real node_modules tree (a symlink
    // loses the transitive ones): hard links, on the same disk, cost a second or two.
    run('cp', ['-al', path.join(root, 'node_modules'), path.join(proj, 'node_modules')], { cwd: root });

    // The stub Electron: a script that carries Electron's fuse wire, all fuses at their defaults.
    const stub = path.join(work, 'electron-dist');
    fs.mkdirSync(stub);
    fs.writeFileSync(
      path.join(stub, 'electron'),
      Buffer.concat([
        Buffer.from('#!/bin/sh\necho stub electron\n# '),
        Buffer.from(SENTINEL),
        Buffer.from([1, DEFAULT_WIRE.length]),
        Buffer.from(DEFAULT_WIRE),
        Buffer.from('\n'),
      ]),
      { mode: 0o755 },
    );

    // The Electron version the lockfile pins; with electronDist nothing is downloaded for it.
    const version: string = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages[
      'node_modules/electron'
    ].version;
    expect(Number(version.split('.')[0])).toBeGreaterThanOrEqual(45);
    run(
      path.join(root, 'test/node_modules/.bin/electron-builder'),
      [
        '--dir',
        '--linux',
        '--x64',
        `-c.electronDist=${stub}`,
        `-c.electronVersion=${version}`,
        '-c.npmRebuild=false',
        '--publish',
        'never',
      ],
      {
        cwd: proj,
        env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CI: 'true' },
      },
    );
    entries = builderRequire('@electron/asar').listPackage(asarFile, { isPack: false }) as string[];
  }, 300_000);

  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('app.asar holds the main process bundle, the preload and package.json pointing at them', () => {
    for (const f of ['/package.json', '/dist/main/main.cjs', '/dist/main/preload.cjs']) expect(entries).toContain(f);
    const pkg = JSON.parse(builderRequire('@electron/asar').extractFile(asarFile, 'package.json').toString());
    expect(entries).toContain(`/${pkg.main}`);
    // The bundle carries the server (its routes and migrations runner are in it).
    const bundle = builderRequire('@electron/asar').extractFile(asarFile, 'dist/main/main.cjs').toString();
    expect(bundle).toContain('Herald cannot find its database migrations folder');
    expect(bundle).toContain('/microblog/publish');
  });

  it('app.asar holds the UI build: index.html and every asset it loads', () => {
    expect(entries).toContain('/renderer/dist/index.html');
    const html = builderRequire('@electron/asar').extractFile(asarFile, 'renderer/dist/index.html').toString();
    const assets = [...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const a of assets) expect(entries).toContain(`/renderer/dist/${a}`);
  });

  it(
    "production modules are in, native ones unpacked; sources, tests, dev tools and Electron's npm package are " +
      'not',
    () => {
      for (const m of ['better-sqlite3', 'node-schedule', 'multer', 'sanitize-html', 'express'])
        expect(entries).toContain(`/node_modules/${m}/package.json`);
      // better-sqlite3 13 ships Node-API binaries for each platform (one ABI for every Node and Electron).
      const natives = fs
        .readdirSync(path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'prebuilds'))
        .filter((f) => f.endsWith('.node'));
      expect(natives).toContain(`${process.platform}-${process.arch}.node`);
      expect(
        entries.filter(
          (e) =>
            e.startsWith('/node_modules/better-sqlite3/deps/') || e.startsWith('/node_modules/better-sqlite3/src/'),
        ),
      ).toEqual([]);
      expect(
        entries.filter(
          (e) =>
            e.startsWith('/server/') ||
            e.startsWith('/test/') ||
            e.startsWith('/main/') ||
            (e.endsWith('.ts') && !e.endsWith('.d.ts')),
        ),
      ).toEqual([]);
      for (const m of ['electron', 'vitest', 'playwright-core', 'electron-builder', '@atproto/pds', 'vite'])
        expect(entries).not.toContain(`/node_modules/${m}/package.json`);
      // Nor what Electron's npm package needs to fetch its binary (since Electron 42 a native zip extractor too).
      const electronDeps = Object.keys(
        JSON.parse(fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')).dependencies ?? {},
      );
      expect(electronDeps.length).toBeGreaterThan(0);
      expect(entries.filter((e) => electronDeps.some((d) => e.startsWith(`/node_modules/${d}/`)))).toEqual([]);
      expect(fs.readdirSync(path.join(resources, 'app.asar.unpacked', 'node_modules'))).not.toContain(
        '@electron-internal',
      );
    },
  );

  it('the migrations are beside app.asar in resources/migrations', () => {
    const sql = fs.readdirSync(path.join(root, 'migrations')).filter((f) => f.endsWith('.sql'));
    expect(sql.length).toBeGreaterThan(0);
    for (const f of sql)
      expect(fs.readFileSync(path.join(resources, 'migrations', f))).toEqual(
        fs.readFileSync(path.join(root, 'migrations', f)),
      );
    expect(fs.existsSync(path.join(resources, 'migrations', 'meta', '_journal.json'))).toBe(true);
  });

  it('the fuses are flipped in the packed binary as configured', async () => {
    const { getCurrentFuseWire, FuseV1Options } = builderRequire('@electron/fuses');
    const FuseState = { DISABLE: '0'.charCodeAt(0), ENABLE: '1'.charCodeAt(0) };
    const wire = await getCurrentFuseWire(path.join(unpacked, 'herald'));
    const state = (o: number) => wire[o];
    expect(state(FuseV1Options.RunAsNode)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe(FuseState.DISABLE);
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe(FuseState.ENABLE);
    expect(state(FuseV1Options.LoadBrowserProcessSpecificV8Snapshot)).toBe(FuseState.DISABLE);
    // Left at Electron's default: Wasm out-of-bounds accesses trapped by V8's signal handlers.
    expect(Object.keys(wire).filter((k) => /^\d+$/.test(k))).toHaveLength(DEFAULT_WIRE.length);
    expect(state(WASM_TRAP_HANDLERS)).toBe(FuseState.ENABLE);
  });

  it(
    'the packed app boots from the package: server up, migrations from resources/, UI served with its CSP, ' +
      'clean quit',
    async () => {
      // app.asar as Electron would see it, extracted; 'electron' is a stand-in module.
      const appDir = path.join(work, 'app');
      builderRequire('@electron/asar').extractAll(asarFile, appDir);
      expect(fs.existsSync(path.join(appDir, 'migrations'))).toBe(false);
      // Where Electron's built-in module would win, the stand-in does.
      expect(fs.existsSync(path.join(appDir, 'node_modules', 'electron'))).toBe(false);
      fs.mkdirSync(path.join(appDir, 'node_modules', 'electron'), { recursive: true });
      fs.writeFileSync(path.join(appDir, 'node_modules', 'electron', 'index.js'), STUB_ELECTRON);
      const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-packed-'));
      const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-packed-cwd-'));
      const child = spawn(process.execPath, [path.join(appDir, 'dist/main/main.cjs')], {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          STUB_USER_DATA: userData,
          STUB_APP_PATH: appDir,
          STUB_RESOURCES: resources,
          HERALD_PORT: '0',
          HERALD_SECRET_STORE: 'file',
          HERALD_LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        await expect
          .poll(() => /LOADURL (\S+)/.exec(out)?.[1] ?? (child.exitCode !== null ? `exited: ${out}` : undefined), {
            timeout: 30_000,
          })
          .toMatch(/^http/);
        const url = /LOADURL (\S+)/.exec(out)![1];
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(await page.text()).toContain('<div id="root"></div>');
        const setup = await fetch(`${url}api/v1/auth/setup`).then((r) => r.json());
        expect(setup).toEqual({
          success: true,
          needsSetup: true,
          signIn: { identity: false, identityProvider: 'Google', microblog: false },
          wizardStep: null,
        });
        expect(out).toContain(`MIGRATIONS ${path.join(resources, 'migrations')}`);
        expect(
          fs.existsSync(path.join(userData, 'herald.db')) || fs.readdirSync(userData).some((f) => f.endsWith('.db')),
        ).toBe(true);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      } finally {
        child.kill('SIGKILL');
        fs.rmSync(userData, { recursive: true, force: true });
        fs.rmSync(cwd, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

/** A stand-in for Electron's main-process module, enough for main/desktop.ts to run under Node. */
const STUB_ELECTRON = `
const { EventEmitter } = require('node:events');
process.resourcesPath = process.env.STUB_RESOURCES;
const app = new EventEmitter();
Object.assign(app, {
  isPackaged: true,
  requestSingleInstanceLock: () => true,
  whenReady: () => Promise.resolve(),
  getPath: () => process.env.STUB_USER_DATA,
  getAppPath: () => process.env.STUB_APP_PATH,
  getLoginItemSettings: () => ({ openAtLogin: false }),
  setLoginItemSettings() {},
  quit() {
    app.emit('before-quit');
    const ev = { prevented: false, preventDefault() { this.prevented = true; } };
    app.emit('will-quit', ev);
    if (!ev.prevented) process.exit(0);
  },
  exit: (code) => process.exit(code),
});
process.on('SIGTERM', () => app.quit());
class WebContents extends EventEmitter { constructor() { super(); this.id = 1; } setWindowOpenHandler() {} }
class BrowserWindow extends EventEmitter {
  constructor() { super(); this.webContents = new WebContents(); }
  loadURL(url) {
    process.stdout.write('MIGRATIONS ' + process.env.HERALD_MIGRATIONS_DIR + '\\n');
    process.stdout.write('LOADURL ' + url + '\\n');
    return Promise.resolve();
  }
  show() {} hide() {} focus() {} isDestroyed() { return false; }
}
module.exports = {
  app, BrowserWindow,
  ipcMain: { on() {}, handle() {} },
  Menu: { buildFromTemplate: (t) => t },
  Notification: class { static isSupported() { return false; } show() {} },
  session: {
    defaultSession: {
      setPermissionRequestHandler() {}, setPermissionCheckHandler() {}, webRequest: { onHeadersReceived() {} },
    },
  },
  shell: { openExternal: async () => {} },
  Tray: class { setContextMenu() {} setToolTip() {} on() {} },
  nativeImage: { createFromBuffer: (b) => b },
};
`;
