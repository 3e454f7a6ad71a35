import type { Command } from 'commander';
import { action, examples } from './action.js';
import { clientFor, globals } from './context.js';
import { keyValues, print } from './output.js';

export function registerCredits(program: Command): void {
  program.command('credits')
    .description('Credit balance and when this month\'s credits expire')
    .addHelpText('after', examples('herald credits', 'herald credits --output json'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const r = await clientFor(cmd).credits();
      print(globals(cmd).output, r, { ids: [String(r.balance)], text: keyValues([['balance', r.balance], ['expires', r.expiresAt]]) });
    }));
  program.command('credits-usage')
    .description('Credit history, newest first')
    .option('--page <n>', 'page number', '1')
    .option('--limit <n>', 'records per page (1-100)', '20')
    .option('--type <type>', 'grant, publish, refund or adjustment')
    .option('--from <date>', 'start date (ISO 8601)')
    .option('--to <date>', 'end date (ISO 8601, inclusive)')
    .addHelpText('after', examples('herald credits-usage --limit 5', 'herald credits-usage --type refund --from 2026-11-01'))
    .action(action(async (opts: { page: string; limit: string; type?: string; from?: string; to?: string }, cmd: Command) => {
      const r = await clientFor(cmd).creditsUsage({
        page: Number(opts.page), limit: Number(opts.limit), trans_type: opts.type as 'grant' | undefined, start_date: opts.from, end_date: opts.to,
      });
      print(globals(cmd).output, r, {
        ids: r.records.map((x) => x.trans_no), rows: r.records,
        columns: [
          { header: 'date', value: (x) => x.created_at }, { header: 'type', value: (x) => x.trans_type }, { header: 'credits', value: (x) => (x.credits > 0 ? `+${x.credits}` : x.credits) },
          { header: 'source', value: (x) => x.source_type }, { header: 'detail', value: (x) => x.source_detail, max: 40 },
        ],
      });
    }));
}
