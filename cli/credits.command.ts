import { Option, type Command } from 'commander';
import { action, examples, int } from './action.js';
import { clientFor, globals } from './context.js';
import { keyValues, print } from './output.js';
import { formatLocal } from '../time/index.js';

export function registerCredits(program: Command): void {
  const credits = program
    .command('credits')
    .description('Credit balance (your posting budget), what scheduled posts reserve, when the month ends, X spend')
    .addHelpText(
      'after',
      examples('herald credits', 'herald credits -o json', 'herald credits adjust 500 --note "launch"'),
    )
    .action(action(async (_opts: unknown, cmd: Command) => showCredits(cmd, await clientFor(cmd).credits())));
  credits
    .command('adjust')
    .description('Add credits, or remove them with a negative amount (owner only; the balance cannot go below 0)')
    .argument('<amount>', 'credits to add; negative to remove', int(-1_000_000, 1_000_000))
    .option('--note <text>', 'why, kept in the credit history')
    .addHelpText('after', examples('herald credits adjust 500', 'herald credits adjust -200 --note "keep me in check"'))
    .action(
      action(async (amount: number, opts: { note?: string }, cmd: Command) => {
        const body = { amount, ...(opts.note !== undefined ? { note: opts.note } : {}) };
        showCredits(cmd, await clientFor(cmd).adjustCredits(body));
      }),
    );
  program
    .command('credits-usage')
    .description('Credit history, newest first')
    .option('--page <n>', 'page number', int(1, 1_000_000), 1)
    .option('--limit <n>', 'records per page (1-100)', int(1, 100), 20)
    .addOption(
      new Option('--type <type>', 'only this kind of record').choices(['grant', 'publish', 'refund', 'adjustment']),
    )
    .option('--from <date>', 'start date (ISO 8601)')
    .option('--to <date>', 'end date (ISO 8601, inclusive)')
    .addHelpText(
      'after',
      examples('herald credits-usage --limit 5', 'herald credits-usage --type refund --from 2026-11-01'),
    )
    .action(
      action(
        async (opts: { page: number; limit: number; type?: 'grant'; from?: string; to?: string }, cmd: Command) => {
          const r = await clientFor(cmd).creditsUsage({
            page: opts.page,
            limit: opts.limit,
            trans_type: opts.type,
            start_date: opts.from,
            end_date: opts.to,
          });
          const g = globals(cmd);
          print(g.output, r, {
            ids: r.records.map((x) => x.trans_no),
            rows: r.records,
            columns: [
              { header: 'date', value: (x) => x.created_at },
              { header: 'type', value: (x) => x.trans_type },
              { header: 'credits', value: (x) => (x.credits > 0 ? `+${x.credits}` : x.credits) },
              { header: 'source', value: (x) => x.source_type },
              { header: 'detail', value: (x) => x.source_detail, max: 40 },
            ],
          });
          if (r.pagination.hasMore && g.output === 'table' && !g.quiet)
            process.stderr.write(
              `Page ${r.pagination.page} of ${Math.ceil(r.pagination.total / r.pagination.limit)}: --page ` +
                `${r.pagination.page + 1} for more\n`,
            );
        },
      ),
    );
}

/** The month's end as the user's wall clock shows it (the ISO instant stays in -o json). */
function monthEnd(iso: string, zone: string): string {
  const { local, offset } = formatLocal(zone, Date.parse(iso));
  return `${local.replace('T', ' ')} ${zone} (UTC${offset})`;
}

type CreditsAnswer = Awaited<ReturnType<ReturnType<typeof clientFor>['credits']>>;

function showCredits(cmd: Command, r: CreditsAnswer): void {
  const x = r.xSpend;
  const cap = x.capUsd === null ? 'none' : `${x.capUsd} USD`;
  const spend = `${x.monthUsd} USD spent, ${x.scheduledUsd} scheduled, cap ${cap}`;
  print(globals(cmd).output, r, {
    ids: [String(r.balance)],
    text: keyValues([
      ['balance', r.balance],
      ['reserved', `${r.reserved} by posts scheduled this month`],
      ['monthly', r.monthlyCredits],
      ['expires', monthEnd(r.expiresAt, r.timeZone)],
      ['x-spend', spend],
    ]),
  });
}
