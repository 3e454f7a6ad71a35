import type { Command } from 'commander';
import { HeraldClient } from '../client/herald-client.js';
import { action, examples } from './action.js';
import { clientFor, forgetCredentials, globals, readStdin, saveCredentials, UsageError } from './context.js';
import { keyValues, print } from './output.js';

export function registerAuth(program: Command): void {
  program
    .command('login')
    .description('Save an API key (checked against the server first) for later commands')
    .option('--stdin', 'read the key from standard input (keeps it out of the process list and shell history)')
    .addHelpText(
      'after',
      examples(
        'herald login --api-key hk_…',
        'herald login --api-key "$KEY" --base-url http://127.0.0.1:4780/api/v1',
        'pass show herald-key | herald login --stdin',
      ) +
        '\nThe key comes from herald init, POST /auth/login or the app; it is saved readable by you only ' +
        '(mode 0600).\n',
    )
    .action(
      action(async (opts: { stdin?: boolean }, cmd: Command) => {
        const g = globals(cmd);
        if (Boolean(g.apiKey) === Boolean(opts.stdin))
          throw new UsageError('Give the key with --api-key <key> or --stdin');
        const apiKey = g.apiKey ?? (await readStdin()).trim();
        if (!apiKey) throw new UsageError('No key on standard input');
        const baseUrl = g.baseUrl ?? process.env.HERALD_BASE_URL;
        const client = new HeraldClient({ apiKey, baseUrl });
        const me = await client.me();
        const file = saveCredentials({ apiKey, baseUrl });
        print(
          g.output,
          { ...me, baseUrl: client.baseUrl, savedTo: file },
          {
            ids: [me.uuid],
            text: g.quiet ? undefined : `Signed in as ${me.email} at ${client.baseUrl}; key saved to ${file}`,
          },
        );
      }),
    );

  program
    .command('whoami')
    .description('Show the signed-in user')
    .addHelpText('after', examples('herald whoami', 'herald whoami --output json'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const me = await clientFor(cmd).me();
        print(globals(cmd).output, me, {
          ids: [me.uuid],
          text: keyValues([
            ['uuid', me.uuid],
            ['email', me.email],
            ['nickname', me.nickname],
            ['timezone', me.timezone],
            ['locale', me.locale],
            ['credits', me.credits_balance],
            ['created', me.created_at],
          ]),
        });
      }),
    );

  program
    .command('logout')
    .description(
      'Forget the saved API key; with --revoke, revoke it on the server first (else it keeps working until deleted)',
    )
    .option('--revoke', 'revoke the key on the server (POST /auth/logout) before forgetting it')
    .addHelpText('after', examples('herald logout', 'herald logout --revoke'))
    .action(
      action(async (opts: { revoke?: boolean }, cmd: Command) => {
        if (opts.revoke) await clientFor(cmd).logout();
        const removed = forgetCredentials();
        const g = globals(cmd);
        const text = opts.revoke
          ? 'Signed out: the key is revoked and no longer saved.'
          : removed
            ? 'Signed out: the saved key is gone.'
            : 'No saved key.';
        print(
          g.output,
          { success: true, removed, ...(opts.revoke ? { revoked: true } : {}) },
          { ids: [], text: g.quiet ? undefined : text },
        );
      }),
    );
}
