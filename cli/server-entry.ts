/**
 * The few commands that work on the server's own files (serve, backup, restore) load the
 * compiled server (dist/server/*.mjs) at run time, by address: the CLI imports no server source,
 * and its own bundle stays small for every other command. In a checkout whose server sources
 * changed, the server is rebuilt first, as `npm run serve` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The install's root: the nearest folder above this file with Herald's package.json. */
function installRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).bin?.herald) return dir;
    } catch {
      /* not here */
    }
    if (path.dirname(dir) === dir) throw new Error('herald cannot find its install folder');
  }
}

const load = (file: string) => import(pathToFileURL(file).href);

/** The server entry `name` (main, database-commands) of this install, built if need be. */
export async function serverEntry<T>(name: 'main' | 'database-commands'): Promise<T> {
  const root = installRoot();
  const { ensureBuilt } = await load(path.join(root, 'scripts', 'build-state.mjs'));
  await ensureBuilt(['server'], { root });
  return load(path.join(root, 'dist', 'server', `${name}.mjs`)) as Promise<T>;
}
