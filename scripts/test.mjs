#!/usr/bin/env node
/**
 * `npm test`: checks the system packages the suite needs, starts a private D-Bus session with an
 * unlocked gnome-keyring (the real OS keychain), runs vitest inside it, and prints
 * `N passed, M failed` as the last line. A missing package fails the run and says which: no test
 * passes by being skipped.
 */
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sweepForCanaries } from './canary-sweep.mjs';
import { ensureTestPeers } from './test-peers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APT_LINE =
  'apt-get install -y chromium libsecret-1-dev gnome-keyring dbus dbus-x11 libfaketime faketime fonts-noto-color-emoji';

const needs = [
  ['dbus-run-session', 'dbus'],
  ['gnome-keyring-daemon', 'gnome-keyring'],
  ['chromium', 'chromium'],
  ['faketime', 'faketime'],
];
const missing = needs.filter(([bin]) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0);
// Without an emoji font Chromium lays emoji out slower and screenshots show boxes: the composer's
// timings and pictures would not be what users see.
if (!fs.existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf')) missing.push(['', 'fonts-noto-color-emoji']);
if (missing.length > 0) {
  console.error(`The test suite needs these system packages: ${missing.map(([, pkg]) => pkg).join(', ')}.`);
  console.error(`Install them with: ${APT_LINE}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
try {
  await import('keytar');
} catch (err) {
  console.error(
    `keytar (the OS keychain binding) did not build: install libsecret-1-dev, then run npm ci again. (${err.message})`,
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const peersProblem = ensureTestPeers();
if (peersProblem) {
  console.error(peersProblem);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-test-home-'));
// Temp files and data folders of the run stay inside `home` until the canary sweep has read them.
const tmp = path.join(home, 'tmp');
fs.mkdirSync(tmp);
const report = path.join(home, 'vitest-report.json');
const args = process.argv.slice(2);
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const inner = [
  'echo -n herald-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1',
  `exec "${process.execPath}" "${vitest}" run --reporter=default --reporter=json --outputFile.json="` +
    `${report}" --reporter=./test/reliability/quality-reporter.ts ` +
    `${args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')}`,
].join('; ');

// HOME is a fresh folder; npm keeps using the person's cache (tests that install read it, offline first).
const npmCache = process.env.npm_config_cache || path.join(os.homedir(), '.npm');
const child = spawn('dbus-run-session', ['--', 'sh', '-c', inner], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: path.join(home, 'share'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    HERALD_TEST_KEYCHAIN: '1',
    TMPDIR: tmp,
    HERALD_TEST_KEEP_DATA: '1',
    npm_config_cache: npmCache,
  },
});
child.on('exit', (code) => {
  let passed = 0,
    failed = 0,
    skipped = 0;
  try {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed = r.numPassedTests;
    // Failed tests, plus files that failed without running a test (a broken import, a hook).
    const brokenFiles = (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
    ).length;
    failed = r.numFailedTests + brokenFiles;
    skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    // Each failure again, one line each, so the tail of a long log says what failed.
    for (const f of r.testResults ?? []) {
      const file = path.relative(root, f.name);
      const bad = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
      if (f.status === 'failed' && bad.length === 0) {
        console.log(
          `FAILED ${file}: ${String(f.message ?? '')
            .split('\n')[0]
            .slice(0, 200)}`,
        );
      }
      for (const a of bad) {
        const why = String(a.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 200);
        console.log(`FAILED ${file} > ${a.fullName}: ${why}`);
      }
    }
  } catch {
    failed = Math.max(1, failed);
  }
  if (code !== 0 && failed === 0) failed = 1;
  if (skipped > 0) {
    console.error(`${skipped} tests were skipped; skipped tests count as failures here.`);
    failed += skipped;
  }
  // A whole run (no file arguments) ends with the canary sweep, counted as one more test.
  if (args.length === 0) {
    const started = Date.now();
    const sweep = sweepForCanaries(home, [report]);
    const where = sweep.hits
      .slice(0, 10)
      .map((h) => `  ${path.relative(home, h.file)}: ${h.token.slice(0, 24)}…`)
      .join('\n');
    console.log(
      `canary sweep: ${sweep.files} files (${(sweep.bytes / 1e6).toFixed(0)} MB) left by the suite searched ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s; tokens outside the secret store: ` +
        `${sweep.hits.length}${where ? `\n${where}` : ''}`,
    );
    if (sweep.hits.length === 0) passed += 1;
    else failed += 1;
  }
  fs.rmSync(home, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
});
