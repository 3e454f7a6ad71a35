import type { Command } from 'commander';
import { HeraldClient } from '../client/herald-client.js';
import { action, examples } from './action.js';
import { globals, readStdin, saveCredentials, UsageError } from './context.js';
import { print } from './output.js';

/**
 * `herald init`: creates the owner of a new install through the running server (POST
 * /auth/setup, refused once any user exists) and saves the key it answers with, as `login` does.
 */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create the owner of a new Herald install and sign in (first run; Herald must be running)')
    .requiredOption('--email <email>', 'the owner\'s e-mail address')
    .option('--password <password>', 'at least 8 characters (visible to other local users in the process list; prefer --password-stdin)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--nickname <name>', 'display name')
    .option('--timezone <zone>', 'IANA time zone for the monthly credits (default: this machine\'s)')
    .option('--no-save', 'do not save the new key (print it with --output json)')
    .addHelpText('after', examples('herald serve &   # or start the app', 'herald init --email me@example.com --password "a long passphrase"', 'pass show herald | herald init --email me@example.com --password-stdin'))
    .action(action(async (opts: { email: string; password?: string; passwordStdin?: boolean; nickname?: string; timezone?: string; save: boolean }, cmd: Command) => {
      const g = globals(cmd);
      if ((opts.password === undefined) === !opts.passwordStdin) throw new UsageError('Give the password with --password or --password-stdin');
      const password = opts.password ?? (await readStdin()).replace(/\r?\n$/, '');
      const baseUrl = g.baseUrl ?? process.env.HERALD_BASE_URL;
      const client = new HeraldClient({ baseUrl });
      const r = await client.setup({ email: opts.email, password, nickname: opts.nickname, timezone: opts.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone });
      const savedTo = opts.save ? saveCredentials({ apiKey: r.apiKey.key, baseUrl }) : undefined;
      print(g.output, { ...r, savedTo }, {
        ids: [r.user.uuid],
        text: g.quiet ? undefined : `Created the owner ${r.user.email} at ${client.baseUrl}${savedTo ? `; signed in, key saved to ${savedTo}` : '; the key was not saved'}.\nNext: set up the network apps for X, Threads and LinkedIn with \`herald network set <name> --client-id … --client-secret-stdin\` (\`herald network list\` shows the redirect URI each needs), or in the app under Settings → Networks.`,
      });
    }));
}
