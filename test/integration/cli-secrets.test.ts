/**
 * The first run for people who script (issue #21 item 7), as the real binary against a real
 * server: `herald init` creates the owner, chooses the encrypted secret store (the passphrase from
 * a file) and the language of new posts; `herald secrets status` says when the store is locked and
 * how to unlock it; `herald secrets unlock` takes the passphrase from a pipe, a file, or a
 * terminal prompt that never echoes it; a wrong passphrase is an auth error (exit 3) that names it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { EncryptedFileSecretStore } from '../../server/secrets/encrypted-file.store.js';
import { BIN, cliEnv, herald } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

vi.setConfig({ testTimeout: 180_000 });

const PASSPHRASE = 'a script passphrase 7';
const home = tempDir('herald-cli-secrets-');
const passFile = path.join(home, 'passphrase');
let t: TestServer;
const env = () => cliEnv(home, { HERALD_BASE_URL: t.base });
const cli = (args: string[], stdin?: string) => herald(args, { env: env(), stdin });
const lock = () => (t.server.deps.secrets.inner as EncryptedFileSecretStore).lock();

/** `herald …` on a pseudo-terminal: types `input` once `prompt` shows, and answers what the terminal showed. */
function onTty(args: string[], prompt: RegExp, input: string): Promise<{ code: number; out: string }> {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', [process.execPath, BIN, ...args].map(q).join(' '), '/dev/null'], {
      env: env() as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let typed = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (!typed && prompt.test(out)) {
        typed = true;
        child.stdin.write(input);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code: code ?? -1, out });
    });
  });
}

beforeAll(async () => {
  t = await startServer({ owner: false, settings: { HERALD_SECRET_STORE: 'encrypted' } });
  fs.writeFileSync(passFile, `${PASSPHRASE}\n`, { mode: 0o600 });
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

it('herald init creates the owner, chooses the encrypted store and the language', async () => {
  const r = await cli(
    [
      'init',
      '--email',
      'cli-owner@example.test',
      '--password-stdin',
      '--secret-store',
      'encrypted',
      '--passphrase-file',
      passFile,
      '--language',
      'de',
    ],
    'a long owner password\n',
  );
  expect(r.code, r.err).toBe(0);
  expect(r.out).toMatch(/Created the owner cli-owner@example\.test/);
  expect(r.out).toMatch(/Secrets: Tokens are kept in an encrypted file/);
  expect(r.out).toMatch(/New posts are in de/);
  expect(r.out + r.err).not.toContain(PASSPHRASE);
  expect(t.server.deps.secrets).toMatchObject({ kind: 'encrypted', locked: false });
  const key = await t.login('cli-owner@example.test', 'a long owner password');
  expect((await t.call('GET', '/settings', { key })).body.settings.defaultLanguage).toBe('de');
  // The password on standard input leaves no room for the passphrase there.
  const clash = await cli(
    ['init', '--email', 'x@example.test', '--password-stdin', '--secret-store', 'encrypted'],
    'pw\n',
  );
  expect(clash.code).toBe(2);
  expect(clash.err).toMatch(/--passphrase-file/);
});

it('herald secrets status says the store is locked and how to unlock it', async () => {
  lock();
  const r = await cli(['secrets', 'status']);
  expect(r.code, r.err).toBe(0);
  expect(r.out).toMatch(/locked\s+yes/);
  expect(r.out).toMatch(/herald secrets unlock/);
  const json = await cli(['secrets', 'status', '-o', 'json']);
  expect(JSON.parse(json.out).current).toMatchObject({ kind: 'encrypted', locked: true });
});

it(
  'herald secrets unlock refuses a wrong passphrase (exit 3) and ' + 'opens with the right one from a pipe or a file',
  async () => {
    const wrong = await cli(['secrets', 'unlock'], 'not the passphrase\n');
    expect(wrong.code).toBe(3);
    expect(wrong.err).toMatch(/INVALID_CREDENTIALS: That passphrase does not open the secret store/);
    expect(t.server.deps.secrets.locked).toBe(true);
    const piped = await cli(['secrets', 'unlock'], `${PASSPHRASE}\n`);
    expect(piped.code, piped.err).toBe(0);
    expect(piped.out).toMatch(/unlocked/);
    expect(t.server.deps.secrets.locked).toBe(false);
    lock();
    const fromFile = await cli(['secrets', 'unlock', '--passphrase-file', passFile]);
    expect(fromFile.code, fromFile.err).toBe(0);
    expect(t.server.deps.secrets.locked).toBe(false);
    const missing = await cli(['secrets', 'unlock', '--passphrase-file', path.join(home, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/Cannot read the passphrase file: ENOENT/);
  },
);

it('on a terminal it asks for the passphrase and never shows what is typed', async () => {
  lock();
  const r = await onTty(['secrets', 'unlock'], /Passphrase: /, `${PASSPHRASE}\r`);
  expect(r.code, r.out).toBe(0);
  expect(r.out).toMatch(/unlocked/);
  expect(r.out).not.toContain(PASSPHRASE);
  expect(t.server.deps.secrets.locked).toBe(false);
});
