import type { Command } from 'commander';
import { action, examples } from './action.js';
import { clientFor, globals } from './context.js';
import { print } from './output.js';
import { accountHandle, accountLabel, networkName, withNames } from './names.js';
import { registerAccountConnect } from './account-connect.js';

export function registerAccount(program: Command): void {
  const account = program
    .command('account')
    .description('Connected network accounts: list, connect')
    .addHelpText('after', examples('herald account list', 'herald account list -o minimal'));
  account
    .command('list')
    .description('List connected accounts')
    .addHelpText('after', examples('herald account list', 'herald account list --output minimal'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).listAccounts();
        print(
          globals(cmd).output,
          { ...r, accounts: r.accounts.map((a) => withNames(a, a)) },
          {
            ids: r.accounts.map((a) => a.uuid),
            rows: r.accounts,
            columns: [
              { header: 'network', value: (a) => networkName(a.platform) },
              { header: 'account', value: (a) => accountHandle(a), max: 40 },
              { header: 'name', value: (a) => a.display_name, max: 30 },
              { header: 'status', value: (a) => a.status },
              { header: 'followers', value: (a) => a.followers_count },
              { header: 'id', value: (a) => a.uuid },
            ],
          },
        );
      }),
    );
  registerAccountConnect(account);
}

export function registerSocialSet(program: Command): void {
  const set = program
    .command('social-set')
    .description('Named groups of accounts')
    .addHelpText('after', examples('herald social-set list'));
  set
    .command('list')
    .description('List social sets with their accounts')
    .addHelpText('after', examples('herald social-set list', 'herald social-set list --output json'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const client = clientFor(cmd);
        const [r, all] = await Promise.all([client.listSocialSets(), client.listAccounts()]);
        // The set's own list has no instance or display name: the full account gives the handle.
        const full = new Map(all.accounts.map((a) => [a.uuid, a]));
        const named = r.socialSets.map((s) => ({
          ...s,
          accounts: s.accounts.map((a) => withNames(a, full.get(a.accountId) ?? a)),
        }));
        print(
          globals(cmd).output,
          { ...r, socialSets: named },
          {
            ids: r.socialSets.map((s) => s.id),
            rows: named,
            columns: [
              { header: 'name', value: (s) => s.name },
              { header: 'default', value: (s) => (s.isDefault ? 'yes' : '') },
              {
                header: 'accounts',
                value: (s) => s.accounts.map((a) => accountLabel(full.get(a.accountId) ?? a)),
                max: 120,
              },
              { header: 'id', value: (s) => s.id },
            ],
          },
        );
      }),
    );
}
