import type { Command } from 'commander';
import { HeraldClient } from '../client/index.js';
import { action, examples } from './action.js';
import { clientFor, forgetCredentials, globals, saveCredentials } from './context.js';
import { keyValues, print } from './output.js';

export function registerAuth(program: Command): void {
  program.command('login')
    .description('Save an API key (checked against the server first) for later commands')
    .requiredOption('--api-key <key>', 'an API key from POST /auth/login or the app')
    .addHelpText('after', examples('herald login --api-key hk_…', 'herald login --api-key "$KEY" --base-url http://127.0.0.1:4780/api/v1'))
    .action(action(async (opts: { apiKey: string }, cmd: Command) => {
      const g = globals(cmd);
      const client = new HeraldClient({ apiKey: opts.apiKey, baseUrl: g.baseUrl ?? process.env.HERALD_BASE_URL });
      const me = await client.me();
      const file = saveCredentials({ apiKey: opts.apiKey, baseUrl: g.baseUrl ?? process.env.HERALD_BASE_URL });
      print(g.output, { success: true, email: me.email, savedTo: file }, { ids: [me.uuid], text: g.quiet ? undefined : `Signed in as ${me.email}; key saved to ${file}` });
    }));

  program.command('whoami')
    .description('Show the signed-in user')
    .addHelpText('after', examples('herald whoami', 'herald whoami --output json'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const me = await clientFor(cmd).me();
      print(globals(cmd).output, me, {
        ids: [me.uuid],
        text: keyValues([['uuid', me.uuid], ['email', me.email], ['nickname', me.nickname], ['timezone', me.timezone], ['credits', me.credits_balance], ['created', me.created_at]]),
      });
    }));

  program.command('logout')
    .description('Forget the saved API key (the key itself keeps working until deleted)')
    .addHelpText('after', examples('herald logout'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const removed = forgetCredentials();
      const g = globals(cmd);
      print(g.output, { success: true, removed }, { ids: [], text: g.quiet ? undefined : removed ? 'Signed out.' : 'No saved key.' });
    }));
}
