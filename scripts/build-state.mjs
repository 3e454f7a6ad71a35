/**
 * What is built and whether it is up to date, apart from how it is built (build.mjs): the start
 * scripts (`npm start`, `npm run serve`, `herald`) check at every start, and load build.mjs, with
 * its esbuild plugins, only when something is missing or older than its sources.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each output, the folders whose sources it is built from, and the file that stands for it. */
export const PARTS = {
  server: { from: ['server', 'client', 'text', 'time'], output: 'dist/server/main.mjs' },
  cli: { from: ['cli', 'client', 'server', 'text', 'time'], output: 'dist/cli/herald.mjs' },
  desktop: { from: ['main', 'server', 'client', 'text', 'time'], output: 'dist/main/main.cjs' },
  ui: { from: ['renderer', 'client', 'server/contracts', 'text', 'time'], output: 'renderer/dist/index.html' },
};
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|css|html|svg|json)$/;

/**
 * The newest modification time among the sources under `dir` (0 when there are none); each
 * folder is walked once per check however many parts share it (`seen`). Synchronous on purpose:
 * a few hundred stat calls cost several times more as promises (figures: README, Performance).
 */
function newestIn(dir, seen) {
  if (seen.has(dir)) return seen.get(dir);
  let newest = 0;
  const walk = (d) => {
    let entries;
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      const p = `${d}${path.sep}${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (SOURCE.test(e.name)) {
        const st = fs.statSync(p, { throwIfNoEntry: false });
        if (st && st.mtimeMs > newest) newest = st.mtimeMs;
      }
    }
  };
  walk(dir);
  seen.set(dir, newest);
  return newest;
}

/** Whether `part` is missing, or older than a source it is built from. */
export function isStale(part, root = ROOT, seen = new Map()) {
  const { from, output } = PARTS[part];
  const built = fs.statSync(path.join(root, output), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return true;
  const times = [
    ...from.map((d) => newestIn(path.join(root, d), seen)),
    ...['package.json', 'package-lock.json'].map(
      (f) => fs.statSync(path.join(root, f), { throwIfNoEntry: false })?.mtimeMs ?? 0,
    ),
  ];
  return Math.max(...times) > built;
}

const LABELS = { server: 'the server', cli: 'the command line', desktop: 'the desktop main process', ui: 'the UI' };

/**
 * Builds each of `parts` that is missing or older than its sources, saying so on stderr, and
 * answers the parts it built. Where the build tools are absent (an install without dev
 * dependencies), what is built is used as is.
 */
export async function ensureBuilt(parts, { root = ROOT, log = (m) => process.stderr.write(`${m}\n`) } = {}) {
  const seen = new Map();
  const stale = parts.filter((p) => isStale(p, root, seen));
  if (stale.length === 0) return [];
  if (!fs.existsSync(path.join(root, 'node_modules/esbuild'))) {
    const missing = stale.filter((p) => !fs.existsSync(path.join(root, PARTS[p].output)));
    if (missing.length > 0)
      throw new Error(
        `${missing.map((p) => LABELS[p]).join(', ')} not built, and the build tools are not installed: run npm install`,
      );
    return [];
  }
  const started = Date.now();
  log(`Building ${stale.map((p) => LABELS[p]).join(', ')} (sources changed since the last build)…`);
  const { BUILDERS } = await import('./build.mjs');
  for (const p of stale) await BUILDERS[p](root);
  const { stop } = await import('esbuild');
  await stop(); // esbuild's helper process would otherwise stay beside Herald
  log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return stale;
}
