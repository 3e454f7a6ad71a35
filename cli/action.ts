import { InvalidArgumentError, type Command } from 'commander';
import { failure } from './context.js';

/** Wraps a command action: failures become one stderr line and the matching exit code. */
export function action<A extends unknown[]>(fn: (...args: [...A, Command]) => Promise<void>) {
  return async (...args: unknown[]) => {
    try {
      await fn(...(args as [...A, Command]));
    } catch (err) {
      process.exitCode = failure(err);
    }
  };
}

export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** Option parser for whole numbers in [min, max]; anything else is a usage error (exit 2). */
export const int =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };

/** Splits a comma-separated list of ids. */
export const idList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
