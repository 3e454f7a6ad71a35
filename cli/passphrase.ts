/**
 * Reading a passphrase without it showing: from a file (`--passphrase-file`), from standard input
 * when it is not a terminal (a script's pipe), or asked on the terminal with echo off. Never from
 * an option's value, which other local users see in the process list.
 */
import fs from 'node:fs';
import { readStdin, UsageError } from './context.js';

const firstLine = (text: string) => text.replace(/\r?\n[\s\S]*$/, '');

/** Asks on the terminal with echo off: what is typed never reaches the screen. */
export function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  // Echo off before the question shows: what is typed the moment it appears is not echoed either.
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          done();
          resolve(typed);
          return;
        }
        if (ch === '\u0003') {
          done();
          reject(new UsageError('Cancelled: nothing was sent'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else if (ch >= ' ') typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The passphrase from `file`, else piped standard input, else the terminal (echo off). */
export async function readPassphrase(file: string | undefined, question = 'Passphrase: '): Promise<string> {
  let value: string;
  if (file !== undefined) {
    try {
      value = firstLine(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UsageError(
        `Cannot read the passphrase file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  } else if (process.stdin.isTTY) {
    value = await promptHidden(question);
  } else {
    value = firstLine(await readStdin());
  }
  if (!value)
    throw new UsageError(
      'No passphrase was given (type it when asked, pipe it on standard input, or use --passphrase-file)',
    );
  return value;
}
