import type { Command } from 'commander';
import { action, examples } from './action.js';
import type { HeraldClient } from '../client/herald-client.js';
import { clientFor, globals, UsageError } from './context.js';
import { keyValues, print } from './output.js';
import { readPassphrase } from './passphrase.js';

const KIND_TEXT: Record<string, string> = {
  keychain: 'the OS keychain',
  encrypted: 'an encrypted file (passphrase)',
  file: 'a plain 0600 file',
  unavailable: 'nowhere (no store chosen)',
};

/**
 * `herald secrets`: where Herald keeps account tokens and app secrets, as the first-run wizard and
 * the app's lock banner show it: status, unlock (the encrypted store after each start), use (choose
 * the store). Owner only. The passphrase is asked with echo off, or read from a file or a pipe.
 */
export function registerSecrets(program: Command): void {
  const secrets = program
    .command('secrets')
    .description('Where Herald keeps tokens and secrets: status, unlock, choose the store (owner only)')
    .addHelpText(
      'after',
      examples(
        'herald secrets status',
        'herald secrets unlock',
        'herald secrets unlock --passphrase-file ~/.config/herald/passphrase',
        'pass show herald-store | herald secrets unlock',
      ),
    );

  secrets
    .command('status')
    .description(
      'The store in force, whether it is locked, and whether the OS keychain works here (checked by a round trip)',
    )
    .addHelpText('after', examples('herald secrets status', 'herald secrets status -o json'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).secretStore();
        const c = r.current;
        const next = c.locked
          ? '\nUnlock it with: herald secrets unlock'
          : c.kind === 'unavailable'
            ? '\nChoose one with: herald secrets use encrypted (or keychain, file)'
            : '';
        print(globals(cmd).output, r, {
          ids: [c.locked ? 'locked' : c.kind],
          text: `${keyValues([
            ['store', KIND_TEXT[c.kind] ?? c.kind],
            ['locked', c.locked ? 'yes' : 'no'],
            ['problem', c.problem ?? '-'],
            ['OS keychain', r.keychain.available ? 'works here' : 'not available'],
          ])}\n${r.keychain.message}${next}`,
        });
      }),
    );

  secrets
    .command('unlock')
    .description(
      'Give the encrypted store its passphrase (after each start of Herald); scheduled posts waiting for it go out',
    )
    .option(
      '--passphrase-file <file>',
      'read the passphrase from the first line of this file (else from a pipe, else asked with echo off)',
    )
    .addHelpText(
      'after',
      examples(
        'herald secrets unlock',
        'herald secrets unlock --passphrase-file ~/.config/herald/passphrase',
        'pass show herald-store | herald secrets unlock',
      ),
    )
    .action(
      action(async (opts: { passphraseFile?: string }, cmd: Command) => {
        const passphrase = await readPassphrase(opts.passphraseFile);
        const r = await clientFor(cmd).unlockSecretStore({ passphrase });
        print(globals(cmd).output, r, { ids: ['unlocked'], text: r.message });
      }),
    );

  secrets
    .command('use')
    .description(
      'Choose where secrets live: keychain, encrypted (asks a passphrase), file (plain 0600) or none; saved ' +
        'secrets move across',
    )
    .argument('<store>', 'keychain, encrypted, file or none')
    .option(
      '--passphrase-file <file>',
      'for "encrypted": the passphrase from the first line of this file (else from a pipe, else asked twice ' +
        'with echo off)',
    )
    .addHelpText(
      'after',
      examples(
        'herald secrets use keychain',
        'herald secrets use encrypted',
        'herald secrets use encrypted --passphrase-file pass.txt',
      ),
    )
    .action(
      action(async (store: string, opts: { passphraseFile?: string }, cmd: Command) => {
        const r = await chooseStore(clientFor(cmd), store, opts.passphraseFile);
        print(globals(cmd).output, r, {
          ids: [r.kind],
          text: `${r.message}${r.moved ? ` (${r.moved} secret${r.moved === 1 ? '' : 's'} moved across)` : ''}`,
        });
      }),
    );
}

/** Chooses the store (`herald secrets use`, `herald init --secret-store`); asks the passphrase for "encrypted". */
export async function chooseStore(client: HeraldClient, store: string, passphraseFile: string | undefined) {
  if (!['keychain', 'encrypted', 'file', 'none'].includes(store))
    throw new UsageError(`Unknown store "${store}": use keychain, encrypted, file or none`);
  let passphrase: string | undefined;
  if (store === 'encrypted') {
    passphrase = await readPassphrase(passphraseFile, 'New passphrase (at least 8 characters): ');
    if (
      passphraseFile === undefined &&
      process.stdin.isTTY &&
      (await readPassphrase(undefined, 'The same passphrase again: ')) !== passphrase
    )
      throw new UsageError('The two passphrases differ: nothing was changed');
  }
  return client.chooseSecretStore({ store: store as 'keychain', ...(passphrase ? { passphrase } : {}) });
}
