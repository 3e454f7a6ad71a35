/**
 * What every command shares: global options, the saved key, the client, output and exit codes.
 * The CLI reaches Herald only through the client library.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { HeraldClient, HeraldError, newIdempotencyKey, type WriteOptions } from '../client/herald-client.js';

export type OutputFormat = 'json' | 'table' | 'minimal';

export interface GlobalOptions {
  output: OutputFormat;
  apiKey?: string;
  baseUrl?: string;
  quiet?: boolean;
  idempotencyKey?: string;
}

/** Exit codes: distinct per kind of failure so scripts can branch on them. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  network: 5,
  credits: 6,
  rateLimited: 7,
} as const;

export function configDir(env = process.env): string {
  if (process.platform === 'win32')
    return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'herald');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'herald');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'herald');
}

const credentialsFile = () => path.join(configDir(), 'credentials.json');

interface Saved {
  apiKey: string;
  baseUrl?: string;
}

export function readSaved(): Saved | undefined {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(), 'utf8')) as Saved;
  } catch {
    return undefined;
  }
}

/** Saves the key readable by this user only (0600, in a 0700 folder). */
export function saveCredentials(saved: Saved): string {
  const file = credentialsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(saved, null, 2), { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

export function forgetCredentials(): boolean {
  try {
    fs.unlinkSync(credentialsFile());
    return true;
  } catch {
    return false;
  }
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/** Key and base URL: flags, then the environment, then the saved login. */
export function clientFor(cmd: Command): HeraldClient {
  const g = globals(cmd);
  const saved = readSaved();
  return new HeraldClient({
    apiKey: g.apiKey ?? process.env.HERALD_API_KEY ?? saved?.apiKey,
    baseUrl: g.baseUrl ?? process.env.HERALD_BASE_URL ?? saved?.baseUrl,
    headers: { 'user-agent': 'herald-cli/0.1.0' },
  });
}

/**
 * The Idempotency-Key of a command that creates or publishes: `--idempotency-key`, else a new one
 * for this run. The command sends it with its write, and every resend of that write (the client's
 * retries) carries the same one, so Herald applies it once; a script that reruns a command after
 * a lost answer passes the same `--idempotency-key` to get the first answer instead of a duplicate.
 */
export function writeOptions(cmd: Command): WriteOptions {
  return { idempotencyKey: globals(cmd).idempotencyKey ?? newIdempotencyKey() };
}

/** All of standard input, as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A mistake in how the command was called (exit 2), found before anything is sent. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Colour only on a terminal, and never when NO_COLOR is set (no-color.org) or TERM is dumb. */
export const useColor = (stream: NodeJS.WriteStream = process.stdout) =>
  Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';

export function paint(text: string, code: number, stream?: NodeJS.WriteStream): string {
  return useColor(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;
}

const AUTH_CODES = new Set([
  'ALREADY_SET_UP',
  'INVALID_API_KEY',
  'TOKEN_EXPIRED',
  'INVALID_CREDENTIALS',
  'UNAUTHORIZED',
]);
const NOT_FOUND_CODES = new Set(['NOT_FOUND', 'USER_NOT_FOUND']);

/** The exit code for an API error: by the API's code first, then by HTTP status. */
export function exitCodeFor(err: HeraldError): number {
  if (err.code === 'NETWORK_ERROR') return EXIT.network;
  if (AUTH_CODES.has(err.code) || err.status === 401 || err.status === 403) return EXIT.auth;
  if (NOT_FOUND_CODES.has(err.code) || err.status === 404) return EXIT.notFound;
  if (err.code === 'INSUFFICIENT_CREDITS' || err.status === 402) return EXIT.credits;
  if (err.code === 'RATE_LIMITED' || err.status === 429) return EXIT.rateLimited;
  if (err.code === 'INVALID_INPUT' || err.status === 413 || err.status === 415) return EXIT.usage;
  return EXIT.error;
}

/** Turns any failure into one line on stderr and an exit code. */
export function failure(err: unknown): number {
  const label = paint('error', 31, process.stderr);
  if (err instanceof HeraldError) {
    // Details the message does not already say, on the same line.
    const extra = (err.details ?? []).filter((d) => !err.message.includes(d.message));
    const details = extra.length ? ` (${extra.map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
    const wait = err.retryAfter !== undefined ? ` Retry after ${err.retryAfter} s.` : '';
    process.stderr.write(`${label} ${oneLine(`${err.code}: ${err.message}${details}${wait}`)}\n`);
    return exitCodeFor(err);
  }
  process.stderr.write(`${label} ${oneLine((err as Error).message)}\n`);
  return err instanceof UsageError ? EXIT.usage : EXIT.error;
}

/** One line, without control characters (a network's error text never reaches the terminal raw). */
const oneLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
