import type { Command } from 'commander';
import { failure } from './context.js';

/** Wraps a command action: failures become one stderr line and the matching exit code. */
export function action<A extends unknown[]>(fn: (...args: [...A, Command]) => Promise<void>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    try {
      await fn(...(args as [...A, Command]));
    } catch (err) {
      process.exitCode = failure(err);
      cmd.setOptionValue('__failed', true);
    }
  };
}

export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
