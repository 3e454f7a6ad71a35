#!/usr/bin/env node
/**
 * The packages only the test suite, the benches and desktop packaging need (the Bluesky PDS and PLC
 * directory, the OpenID provider, the networks' client libraries, the browser driver, the load
 * generator, electron-builder) live in test/package.json with their own lockfile, so a person's
 * `npm install` stays small. `ensureTestPeers()` installs them into test/node_modules when they are
 * missing or test/package.json, its lockfile or test/.npmrc changed; test files and helpers find
 * them by Node's usual walk up from test/. Run directly (`node scripts/test-peers.mjs`), it does
 * the same and says what it did.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'test');
const modules = path.join(dir, 'node_modules');
const stampFile = path.join(modules, '.herald-test-peers');

function stamp() {
  const hash = crypto.createHash('sha256');
  for (const f of ['package.json', 'package-lock.json', '.npmrc']) hash.update(fs.readFileSync(path.join(dir, f)));
  return hash.digest('hex');
}

/** npm itself when run from an npm script, else the npm beside this Node, else the one on PATH. */
function npmCommand() {
  const cli = process.env.npm_execpath;
  if (cli && /npm-cli\.js$/.test(cli)) return [process.execPath, [cli]];
  const beside = path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
  if (fs.existsSync(beside)) return [process.execPath, [beside]];
  return ['npm', []];
}

/** Returns null when test/node_modules is current (or was brought up to date), else the reason it is not. */
export function ensureTestPeers({ log = console.error } = {}) {
  const want = stamp();
  try {
    if (fs.readFileSync(stampFile, 'utf8').trim() === want) return null;
  } catch {
    /* not installed yet */
  }
  log('Installing the test-only packages (test/package.json) into test/node_modules ...');
  const started = Date.now();
  const [cmd, pre] = npmCommand();
  // No install scripts: none of these packages needs one here (core-js prints an advert,
  // electron-winstaller picks a Windows 7-Zip), and better-sqlite3 is linked to the app's build below.
  const args = ['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  const r = spawnSync(cmd, [...pre, ...args], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (r.status !== 0) return `npm ci in test/ failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`;
  // The PDS wants better-sqlite3 too: the app's own compiled copy serves it (the versions are pinned
  // equal by test/package.json's override) instead of a second native build of a minute or more.
  const own = path.join(root, 'node_modules', 'better-sqlite3');
  const ownVersion = JSON.parse(fs.readFileSync(path.join(own, 'package.json'), 'utf8')).version;
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  for (const key of Object.keys(lock.packages).filter((k) => k.endsWith('node_modules/better-sqlite3'))) {
    const peer = path.join(dir, key);
    if (!fs.existsSync(peer)) continue;
    const version = JSON.parse(fs.readFileSync(path.join(peer, 'package.json'), 'utf8')).version;
    if (version !== ownVersion) {
      return `test/${key} is ${version} but the app has ${ownVersion}: make test/package.json's override match`;
    }
    fs.rmSync(peer, { recursive: true, force: true });
    fs.symlinkSync(path.relative(path.dirname(peer), own), peer, 'dir');
  }
  fs.writeFileSync(stampFile, `${want}\n`);
  log(`Test-only packages installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return null;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = ensureTestPeers({ log: console.log });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  console.log('test/node_modules is up to date.');
}
