import type { Command } from 'commander';
import { action, examples } from './action.js';
import { clientFor, globals } from './context.js';
import { print } from './output.js';
import { registerAccountConnect } from './account-connect.js';

export function registerAccount(program: Command): void {
  const account = program.command('account').description('Connected network accounts: list, connect')
    .addHelpText('after', examples('herald account list', 'herald account list -o minimal'));
  account.command('list')
    .description('List connected accounts')
    .addHelpText('after', examples('herald account list', 'herald account list --output minimal'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const r = await clientFor(cmd).listAccounts();
      print(globals(cmd).output, r, {
        ids: r.accounts.map((a) => a.uuid), rows: r.accounts,
        columns: [
          { header: 'id', value: (a) => a.uuid }, { header: 'network', value: (a) => a.platform }, { header: 'username', value: (a) => a.username },
          { header: 'status', value: (a) => a.status }, { header: 'followers', value: (a) => a.followers_count },
        ],
      });
    }));
  registerAccountConnect(account);
}

export function registerSocialSet(program: Command): void {
  const set = program.command('social-set').description('Named groups of accounts')
    .addHelpText('after', examples('herald social-set list'));
  set.command('list')
    .description('List social sets with their accounts')
    .addHelpText('after', examples('herald social-set list', 'herald social-set list --output json'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const r = await clientFor(cmd).listSocialSets();
      print(globals(cmd).output, r, {
        ids: r.socialSets.map((s) => s.id), rows: r.socialSets,
        columns: [
          { header: 'id', value: (s) => s.id }, { header: 'name', value: (s) => s.name }, { header: 'default', value: (s) => (s.isDefault ? 'yes' : '') },
          { header: 'accounts', value: (s) => s.accounts.map((a) => `${a.platform}:${a.username}`) },
        ],
      });
    }));
}
