/**
 * The `herald` command. One file per noun registers its sub-commands here.
 */
import { Command, CommanderError } from 'commander';
import { registerInit } from './init.command.js';
import { registerServe } from './serve.command.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('herald')
    .description('Write once, publish everywhere: the Herald command line')
    .version('0.1.0')
    .showHelpAfterError();
  registerInit(program);
  registerServe(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    console.error(`herald: ${(err as Error).message}`);
    return 1;
  }
}

const isEntry = process.argv[1] && /(cli[\\/]herald\.(ts|js)|bin[\\/]herald(\.mjs)?)$/.test(process.argv[1]);
if (isEntry) {
  run(process.argv.slice(2)).then((code) => { if (code !== 0) process.exitCode = code; });
}
