import type { Command } from 'commander';
import { HeraldError } from '../client/herald-client.js';
import { action, examples, idList, int } from './action.js';
import { clientFor, globals, UsageError, writeOptions } from './context.js';
import { print } from './output.js';
import { printPlan } from './publish.command.js';

/** ISO 8601 with a zone as given; a date-time without a zone is local time. */
export function parseWhen(input: string, now = new Date()): Date {
  const s = input.trim();
  if (/([zZ]|[+-]\d{2}:?\d{2})$/.test(s)) {
    const t = Date.parse(s);
    if (!Number.isNaN(t)) return new Date(t);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', sec = '0'] = m;
    const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
    if (date.getMonth() === Number(mo) - 1) return date;
  }
  const hm = /^(\d{1,2}):(\d{2})$/.exec(s);
  if (hm) {
    const date = new Date(now);
    date.setHours(Number(hm[1]), Number(hm[2]), 0, 0);
    if (date <= now) date.setDate(date.getDate() + 1);
    return date;
  }
  throw new UsageError(`Cannot read the time "${input}": use ISO 8601 (2026-12-01T09:00:00Z) or local time (2026-12-01 09:00, or 09:00 for the next one)`);
}

export function registerSchedule(program: Command): void {
  const schedule = program.command('schedule').description('Schedule drafts to publish later')
    .addHelpText('after', examples('herald schedule create 9b1c… --at "2026-12-01 09:00"', 'herald schedule list', 'herald schedule cancel 9b1c…'));
  schedule.command('create <draft-id>')
    .description('Schedule a draft (one entry per account; each gets its own ±3 min jitter)')
    .requiredOption('--at <time>', 'ISO 8601, or local time like "2026-12-01 09:00"')
    .option('--accounts <ids>', 'comma-separated account ids (default: the draft\'s accounts)', idList)
    .option('--priority <n>', 'higher fires first among entries due together (-1000 to 1000)', int(-1000, 1000), 0)
    .option('--no-jitter', 'fire at exactly --at')
    .option('--dry-run', 'show what each account would receive and what it would cost; schedule nothing')
    .addHelpText('after', examples('herald schedule create 9b1c… --at "2026-12-01 09:00"', 'herald schedule create 9b1c… --at 2026-12-01T08:00:00Z --accounts a1,b2 --no-jitter'))
    .action(action(async (draftId: string, opts: { at: string; accounts?: string[]; priority: number; jitter: boolean; dryRun?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      const when = parseWhen(opts.at);
      let targetAccounts: { accountId: string; platform: 'microblog' }[] | undefined;
      if (opts.accounts) {
        const all = (await client.listAccounts()).accounts;
        targetAccounts = opts.accounts.map((id) => {
          const a = all.find((x) => x.uuid === id);
          if (!a) throw new HeraldError('NOT_FOUND', 404, `No account ${id} (see herald account list)`);
          return { accountId: id, platform: a.platform as 'microblog' };
        });
      }
      if (opts.dryRun) {
        printPlan(globals(cmd).output, await client.scheduleDryRun({ draftId, scheduledFor: when.toISOString(), targetAccounts, priority: opts.priority, applyJitter: opts.jitter }));
        return;
      }
      const r = await client.schedule({ draftId, scheduledFor: when.toISOString(), targetAccounts, priority: opts.priority, applyJitter: opts.jitter }, writeOptions(cmd));
      const g = globals(cmd);
      for (const w of r.warnings ?? []) process.stderr.write(`Warning: ${w}\n`);
      print(g.output, r, { ids: r.queueIds, text: g.quiet ? r.queueIds.join('\n') : `Scheduled for ${when.toLocaleString()} on ${r.accountCount} account(s).` });
    }));
  schedule.command('list')
    .description('Pending scheduled posts, soonest first')
    .addHelpText('after', examples('herald schedule list', 'herald schedule list --output json'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const r = await clientFor(cmd).listSchedules();
      print(globals(cmd).output, r, {
        ids: r.schedules.map((s) => s.id), rows: r.schedules,
        columns: [
          { header: 'when', value: (s) => s.scheduledFor }, { header: 'draft', value: (s) => s.draftTitle, max: 30 }, { header: 'network', value: (s) => s.platform },
          { header: 'account', value: (s) => s.accountUuid }, { header: 'attempts', value: (s) => s.attempts }, { header: 'id', value: (s) => s.id },
        ],
      });
    }));
  schedule.command('cancel <draft-id>')
    .description('Cancel a draft\'s pending scheduled posts (or only one account\'s with --account)')
    .option('--account <account-id>', 'cancel only this account\'s post; the draft stays scheduled on the others')
    .addHelpText('after', examples('herald schedule cancel 9b1c…', 'herald schedule cancel 9b1c… --account 4f2a…'))
    .action(action(async (draftId: string, opts: { account?: string }, cmd: Command) => {
      const r = await clientFor(cmd).cancelSchedule(draftId, opts.account);
      const g = globals(cmd);
      print(g.output, { ...r, draftId }, { ids: r.cancelled > 0 ? [draftId] : [], text: g.quiet ? String(r.cancelled) : r.message });
    }));
}
