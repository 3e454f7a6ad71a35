#!/usr/bin/env node
// The `herald` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../cli/herald.ts');
process.exitCode = await run(process.argv.slice(2));
