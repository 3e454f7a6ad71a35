import type { Command } from 'commander';
import { HeraldError } from '../client/herald-client.js';
import { action, examples, idList, int } from './action.js';
import { clientFor, globals, UsageError, writeOptions } from './context.js';
import { print } from './output.js';
import { printPlan } from './publish.command.js';
import type { HeraldClient } from '../client/herald-client.js';
import { canonicalTimeZone, formatLocal, readLocal } from '../time/index.js';
import { accountsById, resolveAccounts, withNames } from './names.js';

/** What --at meant: the instant, and for a local time the zone it was read in and the DST rule in words. */
export interface When {
  at: Date;
  zone?: string;
  words?: string;
}

/**
 * ISO 8601 with a zone as given; a date-time without one is local time in `zone` (the target
 * set's), read by the one DST rule; "09:00" alone is the next 09:00 there.
 */
export function parseWhen(input: string, zone: string, now = new Date()): When {
  const s = input.trim();
  if (/([zZ]|[+-]\d{2}:?\d{2})$/.test(s)) {
    const t = Date.parse(s);
    if (!Number.isNaN(t)) return { at: new Date(t) };
  }
  const padded = s.replace(/([T ])(\d):/, (_m, sep: string, h: string) => `${sep}0${h}:`);
  const local = readLocal(zone, /^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s} 00:00` : padded);
  if (local) return { at: new Date(local.instant), zone, words: local.words };
  const hm = /^(\d{1,2}):(\d{2})$/.exec(s);
  if (hm && Number(hm[1]) < 24 && Number(hm[2]) < 60) {
    const today = formatLocal(zone, now.getTime()).local.slice(0, 10);
    for (const date of [today, formatLocal(zone, now.getTime() + 86_400_000).local.slice(0, 10)]) {
      const r = readLocal(zone, `${date} ${hm[1].padStart(2, '0')}:${hm[2]}`)!;
      if (r.instant > now.getTime()) return { at: new Date(r.instant), zone, words: r.words };
    }
  }
  throw new UsageError(
    `Cannot read the time "${input}": use ISO 8601 (2026-12-01T09:00:00Z) or local time (2026-12-01 09:00, ` +
      `or 09:00 for the next one)`,
  );
}

/** "2026-12-01 09:00 Europe/Berlin (UTC+01:00)". */
export function inZone(instant: Date | string, zone: string): string {
  const { local, offset } = formatLocal(zone, typeof instant === 'string' ? Date.parse(instant) : instant.getTime());
  return `${local.replace('T', ' ')} ${zone} (UTC${offset})`;
}

/** The zone a local --at is read in: --zone, else the draft's set's, else the default set's, else the user's. */
async function targetZone(client: HeraldClient, draftId: string, given?: string): Promise<string> {
  if (given !== undefined) {
    const zone = canonicalTimeZone(given);
    if (!zone) throw new UsageError(`Unknown time zone "${given}" for --zone: use an IANA name such as Europe/Berlin`);
    return zone;
  }
  const [draft, sets] = await Promise.all([client.getDraft(draftId), client.listSocialSets()]);
  const set = sets.socialSets.find((x) => x.id === draft.draft.socialSetId) ?? sets.socialSets.find((x) => x.isDefault);
  return set?.timeZone ?? (await client.me()).timezone;
}

export function registerSchedule(program: Command): void {
  const schedule = program
    .command('schedule')
    .description('Schedule drafts to publish later')
    .addHelpText(
      'after',
      examples(
        'herald schedule create 9b1c… --at "2026-12-01 09:00"',
        'herald schedule list',
        'herald schedule cancel 9b1c…',
      ),
    );
  schedule
    .command('create <draft-id>')
    .description('Schedule a draft (one entry per account; each gets its own ±3 min jitter)')
    .requiredOption('--at <time>', 'ISO 8601, or local time like "2026-12-01 09:00" in the draft\'s social set\'s zone')
    .option('--zone <zone>', 'read a local --at in this IANA zone instead, e.g. Europe/Berlin')
    .option(
      '--accounts <ids>',
      "comma-separated account ids or handles as `herald account list` shows them (default: the draft's accounts)",
      idList,
    )
    .option('--priority <n>', 'higher fires first among entries due together (-1000 to 1000)', int(-1000, 1000), 0)
    .option('--no-jitter', 'fire at exactly --at')
    .option('--dry-run', 'show what each account would receive and what it would cost; schedule nothing')
    .option('--force', 'post again to accounts the draft was already published to')
    .addHelpText(
      'after',
      examples(
        'herald schedule create 9b1c… --at "2026-12-01 09:00"',
        'herald schedule create 9b1c… --at "2026-12-01 09:00" --zone America/New_York',
        'herald schedule create 9b1c… --at 2026-12-01T08:00:00Z --accounts a1,b2 --no-jitter',
      ),
    )
    .action(
      action(
        async (
          draftId: string,
          opts: {
            at: string;
            zone?: string;
            accounts?: string[];
            priority: number;
            jitter: boolean;
            dryRun?: boolean;
            force?: boolean;
          },
          cmd: Command,
        ) => {
          const client = clientFor(cmd);
          // A time that cannot be read is refused before anything is asked of the server.
          const absolute = parseWhen(opts.at, 'UTC');
          const zone = absolute.zone ? await targetZone(client, draftId, opts.zone) : 'UTC';
          const parsed = absolute.zone ? parseWhen(opts.at, zone) : absolute;
          const when = parsed.at;
          // The DST rule, when it moved or chose the time, is said before anything else.
          if (parsed.words && !globals(cmd).quiet) process.stderr.write(`Note: ${parsed.words}.\n`);
          let targetAccounts: { accountId: string; platform: 'microblog' }[] | undefined;
          const accounts = await accountsById(client);
          if (opts.accounts) {
            targetAccounts = resolveAccounts(opts.accounts, [...accounts.values()]).map((id) => {
              const a = accounts.get(id);
              if (!a) throw new HeraldError('NOT_FOUND', 404, `No account ${id} (see herald account list)`);
              return { accountId: id, platform: a.platform as 'microblog' };
            });
          }
          if (opts.dryRun) {
            printPlan(
              globals(cmd).output,
              await client.scheduleDryRun({
                draftId,
                scheduledFor: when.toISOString(),
                targetAccounts,
                priority: opts.priority,
                applyJitter: opts.jitter,
              }),
              accounts,
            );
            return;
          }
          const body = {
            draftId,
            scheduledFor: when.toISOString(),
            targetAccounts,
            priority: opts.priority,
            applyJitter: opts.jitter,
            force: opts.force,
          };
          const r = await client.schedule(body, writeOptions(cmd));
          const g = globals(cmd);
          for (const w of r.warnings ?? []) process.stderr.write(`Warning: ${w}\n`);
          print(g.output, r, {
            ids: r.queueIds,
            text: g.quiet
              ? r.queueIds.join('\n')
              : `Scheduled for ${parsed.zone ? inZone(when, zone) : when.toISOString()} on ${r.accountCount} ` +
                `account(s).`,
          });
        },
      ),
    );
  schedule
    .command('list')
    .description("Pending scheduled posts, soonest first, each in its social set's zone (ISO instants with -o json)")
    .addHelpText('after', examples('herald schedule list', 'herald schedule list --output json'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const client = clientFor(cmd);
        const [r, accounts] = await Promise.all([client.listSchedules(), accountsById(client)]);
        const output = globals(cmd).output;
        // A draft with no set is shown in the user's zone.
        const noSet = output === 'table' && r.schedules.some((s) => !s.timeZone);
        const userZone = noSet ? (await client.me()).timezone : 'UTC';
        const rows = r.schedules.map((s) => {
          const zone = s.timeZone ?? userZone;
          return {
            ...withNames(s, accounts.get(s.accountUuid)),
            zone,
            local: formatLocal(zone, Date.parse(s.scheduledFor)),
          };
        });
        print(
          output,
          { ...r, schedules: r.schedules.map((s) => withNames(s, accounts.get(s.accountUuid))) },
          {
            ids: r.schedules.map((s) => s.id),
            rows,
            columns: [
              { header: 'when', value: (s) => s.local.local.replace('T', ' ') },
              { header: 'zone', value: (s) => `${s.zone} ${s.local.offset}` },
              { header: 'draft', value: (s) => s.draftTitle, max: 30 },
              { header: 'network', value: (s) => s.platformName },
              { header: 'account', value: (s) => s.accountHandle ?? s.accountUuid, max: 40 },
              { header: 'attempts', value: (s) => s.attempts },
              { header: 'id', value: (s) => s.id },
            ],
          },
        );
      }),
    );
  schedule
    .command('cancel <draft-id>')
    .description("Cancel a draft's pending scheduled posts (or only one account's with --account)")
    .option(
      '--account <account>',
      "cancel only this account's post (its id or handle); the draft stays scheduled on the others",
    )
    .addHelpText('after', examples('herald schedule cancel 9b1c…', 'herald schedule cancel 9b1c… --account 4f2a…'))
    .action(
      action(async (draftId: string, opts: { account?: string }, cmd: Command) => {
        const client = clientFor(cmd);
        const account = opts.account && resolveAccounts([opts.account], [...(await accountsById(client)).values()])[0];
        const r = await client.cancelSchedule(draftId, account);
        const g = globals(cmd);
        print(
          g.output,
          { ...r, draftId },
          { ids: r.cancelled > 0 ? [draftId] : [], text: g.quiet ? String(r.cancelled) : r.message },
        );
      }),
    );
}
