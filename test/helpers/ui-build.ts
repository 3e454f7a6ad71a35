/**
 * The built UI for browser tests, on a clean clone too: `vite build` of renderer/ (the same
 * config as `npm run build:ui`) into a temp folder named after a hash of every input, so it runs
 * once per change of the sources and test files running in parallel share one build. The build
 * runs in a child process without vitest's NODE_ENV, so React's production build is what is
 * tested.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INPUTS = [
  'renderer/index.html',
  'renderer/vite.config.ts',
  'renderer/src',
  'renderer/public',
  'client',
  'package-lock.json',
];

function files(p: string): string[] {
  const abs = path.join(root, p);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [p];
  return fs
    .readdirSync(abs)
    .sort()
    .flatMap((name) => files(path.join(p, name)));
}

/** A hash of everything the build reads. */
export function uiSourceHash(): string {
  const h = crypto.createHash('sha256');
  for (const f of INPUTS.flatMap(files)) {
    h.update(f)
      .update('\0')
      .update(fs.readFileSync(path.join(root, f)))
      .update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

function viteBuild(outDir: string): Promise<void> {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k === 'NODE_ENV' || k.startsWith('VITEST') || k === 'TEST') delete env[k];
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [vite, 'build', '--config', 'renderer/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${out}`))));
  });
}

let pending: Promise<string> | undefined;

/** The folder of the built UI (index.html + assets), building it first when the sources changed. */
export function builtUi(): Promise<string> {
  return (pending ??= (async () => {
    const dir = path.join(os.tmpdir(), `herald-ui-${uiSourceHash()}`);
    if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
    // Builds of older sources, untouched for a day, are cleared away.
    for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('herald-ui-'))) {
      const old = path.join(os.tmpdir(), name);
      try {
        if (Date.now() - fs.statSync(old).mtimeMs > 86_400_000) fs.rmSync(old, { recursive: true, force: true });
      } catch {
        /* another run's */
      }
    }
    const tmp = `${dir}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    await viteBuild(tmp);
    try {
      fs.renameSync(tmp, dir);
    } catch {
      // Another test file finished the same build first: use it.
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`UI build missing in ${dir}`);
    }
    return dir;
  })());
}
