/**
 * What every command shares: global options, the saved key, the client, output and exit codes.
 * The CLI reaches Herald only through the client library.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { HeraldClient, HeraldError } from '../client/index.js';

export type OutputFormat = 'json' | 'table' | 'minimal';

export interface GlobalOptions {
  output: OutputFormat;
  apiKey?: string;
  baseUrl?: string;
  quiet?: boolean;
}

/** Exit codes: distinct per kind of failure so scripts can branch on them. */
export const EXIT = { ok: 0, error: 1, usage: 2, auth: 3, notFound: 4, network: 5, credits: 6, rateLimited: 7 } as const;

export function configDir(env = process.env): string {
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'herald');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'herald');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'herald');
}

const credentialsFile = () => path.join(configDir(), 'credentials.json');

interface Saved { apiKey: string; baseUrl?: string }

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

export const useColor = (stream: NodeJS.WriteStream = process.stdout) => Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';

export function paint(text: string, code: number, stream?: NodeJS.WriteStream): string {
  return useColor(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** Turns any failure into one line on stderr and an exit code. */
export function failure(err: unknown): number {
  if (err instanceof HeraldError) {
    const code = err.code === 'NETWORK_ERROR' ? EXIT.network
      : err.status === 401 ? EXIT.auth
      : err.status === 404 ? EXIT.notFound
      : err.status === 402 ? EXIT.credits
      : err.status === 429 ? EXIT.rateLimited
      : err.status === 400 || err.status === 413 || err.status === 415 ? EXIT.usage
      : EXIT.error;
    const details = err.details?.length ? ` (${err.details.map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
    process.stderr.write(`${paint('error', 31, process.stderr)} ${err.code}: ${err.message}${details}\n`);
    return code;
  }
  process.stderr.write(`${paint('error', 31, process.stderr)} ${(err as Error).message}\n`);
  return EXIT.error;
}
