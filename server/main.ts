/**
 * `npm run serve`: the headless app. Same server as the desktop app, without Electron.
 *
 * This entry stays small: it turns on Node's compile cache, then loads the server
 * (server/headless.ts, a chunk of its own in the build), so V8 reads the server's compiled code
 * from the cache instead of compiling it on every start.
 */
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Node's module compile cache (Node 22.1+) in `node_modules/.cache/herald-compile` of this
 * install: beside the code it caches, private to the install and kept across reboots, where
 * Node's default (a folder in os.tmpdir()) is shared by every user of the machine and emptied
 * with /tmp. NODE_COMPILE_CACHE picks another folder and NODE_DISABLE_COMPILE_CACHE=1 turns it
 * off, as for any Node program. Best effort: with no node_modules folder, or one that cannot be
 * written, Herald starts as it would without the cache.
 */
export function enableCompileCache(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  // Not in @types/node 20; present from Node 22.1.
  const enable = (module as unknown as { enableCompileCache?: (dir: string) => { directory?: string } })
    .enableCompileCache;
  try {
    if (process.env.NODE_COMPILE_CACHE || typeof enable !== 'function') return undefined;
    for (let dir = from, i = 0; i < 4; i++, dir = path.dirname(dir)) {
      const modules = path.join(dir, 'node_modules');
      if (!fs.existsSync(modules)) continue;
      return enable(path.join(modules, '.cache', 'herald-compile')).directory;
    }
  } catch {
    /* no cache: only slower */
  }
  return undefined;
}

export async function runHeadless(): Promise<void> {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    console.error(
      `Herald cannot start: it needs Node.js 22.12 or newer (the 22 or 24 LTS line); this is Node.js ` +
        `${process.versions.node}.`,
    );
    process.exit(1);
  }
  enableCompileCache();
  const headless = await import('./headless.js');
  await headless.runHeadless();
}

const isEntry = process.argv[1] && /server[\\/]main\.(ts|js|mjs|cjs)$/.test(process.argv[1]);
if (isEntry) void runHeadless();
