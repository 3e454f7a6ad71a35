import type { Command } from 'commander';
import { action, examples, int } from './action.js';
import { clientFor, globals, UsageError, writeOptions } from './context.js';
import { keyValues, print } from './output.js';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** "mon-fri 09:00 17:30; sat 10:00" → [{day, time}] (days by name or ISO number, Monday = 1). */
export function parseSlots(spec: string): { day: number; time: string }[] {
  const day = (d: string): number => {
    const n = /^[1-7]$/.test(d) ? Number(d) : DAYS.indexOf(d.slice(0, 3).toLowerCase()) + 1;
    if (n < 1) throw new UsageError(`Cannot read the day "${d}": use mon … sun or 1 … 7`);
    return n;
  };
  return spec
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((group) => {
      const [days, ...times] = group.split(/\s+/);
      const [from, to = from] = days.split('-');
      const list: number[] = [];
      for (let d = day(from); ; d = d === 7 ? 1 : d + 1) {
        list.push(d);
        if (d === day(to) || list.length === 7) break;
      }
      if (times.length === 0) throw new UsageError(`No times after "${days}": e.g. "mon-fri 09:00 17:30"`);
      return list.flatMap((d) => times.map((time) => ({ day: d, time })));
    });
}

/** `herald queue`: a social set's weekly slots and the drafts waiting in them, shown in the set's zone. */
export function registerQueue(program: Command): void {
  const queue = program
    .command('queue')
    .description("The queue: drafts placed in a social set's weekly time slots")
    .addHelpText(
      'after',
      examples(
        'herald queue add 9b1c…',
        'herald queue list',
        'herald queue move 9b1c… --to 2',
        'herald queue slots --put "mon-fri 09:00 17:30"',
      ),
    );
  queue
    .command('add <draft-id>')
    .description('Schedule a draft in the next free slot of its social set (it goes out at the slot)')
    .option('--set <id>', "social set (default: the draft's, else the default set)")
    .option('--jitter', "spread each account's post within ±3 min of the slot")
    .option('--no-jitter', "fire at exactly the slot's time (the default)")
    .option('--force', 'post again to accounts the draft was already published to')
    .addHelpText('after', examples('herald queue add 9b1c…', 'herald queue add 9b1c… --set 4f2a… --jitter'))
    .action(
      action(async (draftId: string, opts: { set?: string; jitter?: boolean; force?: boolean }, cmd: Command) => {
        const body = { draftId, socialSetId: opts.set, applyJitter: opts.jitter, force: opts.force };
        const r = await clientFor(cmd).addToQueue(body, writeOptions(cmd));
        const g = globals(cmd);
        print(g.output, r, {
          ids: r.queueIds,
          text: g.quiet
            ? r.slot.at
            : `Queued for ${r.slot.local.replace('T', ' ')} ${r.slot.timeZone} (${r.slot.offset}) on ` +
              `${r.accountCount} account(s).`,
        });
        for (const w of r.warnings ?? []) process.stderr.write(`Warning: ${w}\n`);
      }),
    );
  queue
    .command('list')
    .description('The coming slots of a social set, each with its draft or "(free)", in the set\'s time zone')
    .option('--set <id>', 'social set (default: the default set)')
    .option('--count <n>', 'how many coming slots (every later slot holding a draft is listed too)', int(1, 200), 14)
    .addHelpText('after', examples('herald queue list', 'herald queue list --set 4f2a… --count 30 --output json'))
    .action(
      action(async (opts: { set?: string; count: number }, cmd: Command) => {
        const r = await clientFor(cmd).listQueue({ socialSetId: opts.set, count: opts.count });
        const rows = r.items.map((item, i) => ({ ...item, n: i + 1 }));
        print(globals(cmd).output, r, {
          ids: r.items.flatMap((i) => (i.draft ? [i.draft.id] : [])),
          rows,
          columns: [
            { header: '#', value: (s) => s.n },
            { header: 'when', value: (s) => `${s.local.replace('T', ' ')}${s.inSlots ? '' : ' *'}` },
            { header: 'zone', value: (s) => `${s.timeZone} ${s.offset}` },
            { header: 'draft', value: (s) => s.draft?.title ?? '(free)', max: 40 },
            { header: 'id', value: (s) => s.draft?.id ?? '' },
          ],
        });
      }),
    );
  queue
    .command('move <draft-id>')
    .description('Move a queued draft to another slot; a draft already there takes its old slot')
    .requiredOption(
      '--to <slot>',
      'the slot: its # in `herald queue list`, its local time ("2026-12-01 09:00") or its ISO instant',
    )
    .option('--set <id>', "social set (default: the draft's)")
    .addHelpText('after', examples('herald queue move 9b1c… --to 1', 'herald queue move 9b1c… --to "2026-12-01 09:00"'))
    .action(
      action(async (draftId: string, opts: { to: string; set?: string }, cmd: Command) => {
        const client = clientFor(cmd);
        const list = await client.listQueue({ socialSetId: opts.set, count: 200 });
        const want = opts.to.trim().replace(' ', 'T');
        const item = /^\d+$/.test(want)
          ? list.items[Number(want) - 1]
          : list.items.find((i) => i.local === want || i.at === want || Date.parse(i.at) === Date.parse(want));
        if (!item) throw new UsageError(`No coming slot "${opts.to}" in the queue (see herald queue list)`);
        const r = await client.moveInQueue({ draftId, toSlot: item.at, socialSetId: list.socialSetId });
        const g = globals(cmd);
        print(g.output, r, {
          ids: r.moved.map((m) => m.draftId),
          text: r.moved.map((m) => `${m.draftId} → ${m.slot.local.replace('T', ' ')} ${m.slot.timeZone}`).join('\n'),
        });
      }),
    );
  queue
    .command('slots')
    .description("Show (or with --put, replace) a social set's weekly slots, in its time zone")
    .option('--set <id>', 'social set (default: the default set)')
    .option('--put <spec>', 'replace the slots, e.g. "mon-fri 09:00 17:30; sat 10:00"')
    .addHelpText(
      'after',
      examples('herald queue slots', 'herald queue slots --set 4f2a… --put "mon-fri 09:00 17:30; sat 10:00"'),
    )
    .action(
      action(async (opts: { set?: string; put?: string }, cmd: Command) => {
        const client = clientFor(cmd);
        const setId = opts.set ?? (await client.listSocialSets()).socialSets.find((s) => s.isDefault)?.id;
        if (!setId) throw new UsageError('No social set: pass --set (see herald social-set list)');
        const r =
          opts.put !== undefined
            ? await client.setSlots(setId, { slots: parseSlots(opts.put) })
            : await client.getSlots(setId);
        const byDay = DAYS.map(
          (d, i) =>
            [
              d,
              r.slots
                .filter((s) => s.day === i + 1)
                .map((s) => s.time)
                .join(' '),
            ] as [string, unknown],
        ).filter(([, t]) => t !== '');
        print(globals(cmd).output, r, {
          ids: [r.socialSetId],
          text: `${r.timeZone}\n${byDay.length ? keyValues(byDay) : '(no slots)'}`,
        });
      }),
    );
}
