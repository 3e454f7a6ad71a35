#!/usr/bin/env node
// The `herald` command: the CLI compiled to dist/cli (scripts/build.mjs; rebuilt here first when
// its sources changed in a checkout: scripts/build-state.mjs), run with no TypeScript loader.
import { checkNodeVersion } from '../scripts/node-version.mjs';

checkNodeVersion('The herald command');
const cli = new URL('../dist/cli/herald.mjs', import.meta.url);
const { ensureBuilt } = await import('../scripts/build-state.mjs');
try {
  await ensureBuilt(['cli']);
} catch (err) {
  process.stderr.write(`herald: ${err.message}\n`);
  process.exit(1);
}
const { run } = await import(cli.href);
process.exitCode = await run(process.argv.slice(2));
