/**
 * `herald alert` (destinations away from the desk) and `herald evergreen` (a draft's repeats):
 * one file for what runs after publishing, over the client's upkeep methods.
 */
import type { Command } from 'commander';
import { action, examples, int } from './action.js';
import { clientFor, globals } from './context.js';
import { keyValues, print } from './output.js';

const EVENTS = [
  'post.failed',
  'post.missed',
  'account.needs_reauth',
  'account.expiring',
  'credits.low',
  'xspend.near_cap',
  'network.version_expiring',
] as const;
type Event = (typeof EVENTS)[number];

type Alert = Awaited<ReturnType<ReturnType<typeof clientFor>['alerts']>>['alerts'][number];

function showAlerts(cmd: Command, data: unknown, alerts: Alert[]): void {
  print(globals(cmd).output, data, {
    ids: alerts.map((a) => a.id),
    rows: alerts,
    columns: [
      { header: 'id', value: (a) => a.id },
      { header: 'url', value: (a) => a.url },
      { header: 'events', value: (a) => a.events.join(',') },
      {
        header: 'last delivery',
        value: (a) =>
          a.lastDelivery
            ? `${a.lastDelivery.status} ${a.lastDelivery.at}${a.lastDelivery.error ? ` ${a.lastDelivery.error}` : ''}`
            : '-',
      },
    ],
  });
}

export function registerAlert(program: Command): void {
  const alert = program
    .command('alert')
    .description(
      'Alert destinations (ntfy, Gotify, Telegram, Discord, Matrix, a signed webhook) and their last delivery',
    )
    .addHelpText('after', examples('herald alert', 'herald alert add ntfys://ntfy.sh/my-topic --events post.failed'))
    .action(
      action(async (_o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).alerts();
        showAlerts(cmd, r, r.alerts);
      }),
    );
  alert
    .command('add')
    .description('Add a destination by URL (its credentials go to the secret store)')
    .argument('<url>', 'ntfy://, ntfys://, gotify://, telegram://, discord://, matrix:// or generic+https:// URL')
    .option('--events <list>', `comma-separated: ${EVENTS.join(', ')}`, 'post.failed,post.missed,account.needs_reauth')
    .option('--secret <key>', 'generic+https only: the HMAC-SHA256 key of X-Herald-Signature')
    .addHelpText(
      'after',
      examples(
        'herald alert add "telegram://123:ABC@telegram?chats=4242" --events post.failed,credits.low',
        'herald alert add generic+https://hooks.example/herald --secret s3cret',
      ),
    )
    .action(
      action(async (url: string, opts: { events: string; secret?: string }, cmd: Command) => {
        const events = opts.events.split(',').map((e) => e.trim()) as Event[];
        const r = await clientFor(cmd).addAlert({ url, events, ...(opts.secret ? { secret: opts.secret } : {}) });
        showAlerts(cmd, r, [r.alert]);
      }),
    );
  alert
    .command('test')
    .description('Send a test message now and show the result')
    .argument('<id>', 'alert id')
    .addHelpText('after', examples('herald alert test 0b6c…'))
    .action(
      action(async (id: string, _o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).testAlert(id);
        showAlerts(cmd, r, [r.alert]);
      }),
    );
  alert
    .command('delete')
    .description('Remove a destination and its secret')
    .argument('<id>', 'alert id')
    .addHelpText('after', examples('herald alert delete 0b6c…'))
    .action(
      action(async (id: string, _o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).deleteAlert(id);
        print(globals(cmd).output, r, { ids: [id], text: r.message });
      }),
    );

  program
    .command('evergreen')
    .description("Show or change a draft's evergreen repeats (free queue slots take it again when due)")
    .argument('<draftId>', 'draft id')
    .option('--on', 'repeat it')
    .option('--off', 'stop repeating it')
    .option('--min-days <n>', 'days between repeats (default 30)', int(1, 3650))
    .option('--max-repeats <n>', 'stop after this many repeats', int(1, 1000))
    .option('--variant <text...>', 'texts X gets in turn')
    .addHelpText('after', examples('herald evergreen 0b6c… --on --min-days 45', 'herald evergreen 0b6c… --off'))
    .action(
      action(
        async (
          draftId: string,
          o: { on?: boolean; off?: boolean; minDays?: number; maxRepeats?: number; variant?: string[] },
          cmd: Command,
        ) => {
          const c = clientFor(cmd);
          const r =
            o.on || o.off
              ? await c.setEvergreen(draftId, {
                  enabled: !!o.on && !o.off,
                  ...(o.minDays ? { minDaysBetween: o.minDays } : {}),
                  ...(o.maxRepeats ? { maxRepeats: o.maxRepeats } : {}),
                  ...(o.variant ? { variants: o.variant } : {}),
                })
              : await c.evergreen(draftId);
          const e = r.evergreen;
          print(globals(cmd).output, r, {
            ids: [draftId],
            text: keyValues([
              ['enabled', e.enabled],
              ['minDaysBetween', e.minDaysBetween],
              ['maxRepeats', e.maxRepeats ?? 'no end'],
              ['repeats', e.repeats],
              ['lastPublishedAt', e.lastPublishedAt ?? '-'],
              ['variants', e.variants.length],
              ['stalled', e.stalled ?? '-'],
            ]),
          });
        },
      ),
    );
}
