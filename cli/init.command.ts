import type { Command } from 'commander';
import { HeraldClient } from '../client/herald-client.js';
import { action, examples } from './action.js';
import { globals, readStdin, saveCredentials, UsageError } from './context.js';
import { print } from './output.js';
import { chooseStore } from './secrets.command.js';

/**
 * `herald init`: the first-run wizard for scripts. Creates the owner of a new install through the
 * running server (POST /auth/setup, refused once any user exists) and saves the key it answers
 * with, as `login` does; then, when asked, chooses where secrets live (POST /setup/secrets) and
 * the default language of new posts (PUT /settings). Network apps follow with `herald network set`.
 */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create the owner of a new Herald install and sign in (first run; Herald must be running)')
    .requiredOption('--email <email>', "the owner's e-mail address")
    .option(
      '--password <password>',
      'at least 8 characters (visible to other local users in the process list; prefer --password-stdin)',
    )
    .option('--password-stdin', 'read the password from standard input')
    .option('--nickname <name>', 'display name')
    .option('--timezone <zone>', "IANA time zone for the monthly credits (default: this machine's)")
    .option(
      '--secret-store <store>',
      'where tokens live: keychain, encrypted (asks a passphrase), file or none (default: leave as the ' +
        'server found it)',
    )
    .option(
      '--passphrase-file <file>',
      "for --secret-store encrypted: the passphrase from this file's first line (else from a pipe, else " +
        'asked with echo off)',
    )
    .option('--language <tag>', "BCP 47 language of new posts, e.g. en or de-AT (default: this machine's)")
    .option('--no-save', 'do not save the new key (print it with --output json)')
    .addHelpText(
      'after',
      examples(
        'herald serve &   # or start the app',
        'herald init --email me@example.com --password "a long passphrase"',
        'pass show herald | herald init --email me@example.com --password-stdin',
        'herald init --email me@example.com --password-stdin --secret-store encrypted --passphrase-file ' +
          '~/.herald-pass --language de < pw.txt',
      ),
    )
    .action(
      action(
        async (
          opts: {
            email: string;
            password?: string;
            passwordStdin?: boolean;
            nickname?: string;
            timezone?: string;
            save: boolean;
            secretStore?: string;
            passphraseFile?: string;
            language?: string;
          },
          cmd: Command,
        ) => {
          const g = globals(cmd);
          if ((opts.password === undefined) === !opts.passwordStdin)
            throw new UsageError('Give the password with --password or --password-stdin');
          if (opts.secretStore === 'encrypted' && opts.passwordStdin && !opts.passphraseFile)
            throw new UsageError('Standard input carries the password: give the passphrase with --passphrase-file');
          if (opts.secretStore !== undefined && !['keychain', 'encrypted', 'file', 'none'].includes(opts.secretStore))
            throw new UsageError(`Unknown store "${opts.secretStore}": use keychain, encrypted, file or none`);
          const password = opts.password ?? (await readStdin()).replace(/\r?\n$/, '');
          const baseUrl = g.baseUrl ?? process.env.HERALD_BASE_URL;
          const client = new HeraldClient({ baseUrl });
          const r = await client.setup({
            email: opts.email,
            password,
            nickname: opts.nickname,
            timezone: opts.timezone,
          });
          const savedTo = opts.save ? saveCredentials({ apiKey: r.apiKey.key, baseUrl }) : undefined;
          const owner = new HeraldClient({ baseUrl, apiKey: r.apiKey.key });
          // The owner exists from here on: a later step that fails says so, and can be done on its own.
          const after = async <T>(what: string, fix: string, step: () => Promise<T>): Promise<T> => {
            try {
              return await step();
            } catch (err) {
              process.stderr.write(
                `The owner ${r.user.email} was created${savedTo ? ' and signed in' : ''}, but ${what} ` +
                  `failed; fix it with \`${fix}\`.\n`,
              );
              throw err;
            }
          };
          const lines: string[] = [];
          const chosen = opts.secretStore;
          const store =
            chosen === undefined
              ? undefined
              : await after('choosing the secret store', `herald secrets use ${chosen}`, () =>
                  chooseStore(owner, chosen, opts.passphraseFile),
                );
          if (store) lines.push(`Secrets: ${store.message}`);
          const lang = opts.language;
          const settings =
            lang === undefined
              ? undefined
              : await after('setting the language', "the app's Settings", () =>
                  owner.updateSettings({ defaultLanguage: lang }),
                );
          if (settings) lines.push(`New posts are in ${settings.settings.defaultLanguage}.`);
          print(
            g.output,
            { ...r, savedTo, secretStore: store, settings: settings?.settings },
            {
              ids: [r.user.uuid],
              text: g.quiet
                ? undefined
                : `Created the owner ${r.user.email} at ${client.baseUrl}` +
                  `${savedTo ? `; signed in, key saved to ${savedTo}` : '; the key was not saved'}.` +
                  `${lines.length ? `\n${lines.join('\n')}` : ''}\nNext: set up the network apps for X, ` +
                  `Threads and LinkedIn with \`herald network set <name> --client-id … --client-secret-stdin\` ` +
                  `(\`herald network list\` shows the redirect URI each needs), or on the app's Networks page.`,
            },
          );
        },
      ),
    );
}
