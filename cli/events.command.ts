import type { Command } from 'commander';
import { HeraldError, type HeraldEvent } from '../client/herald-client.js';
import { action, examples, int } from './action.js';
import { clientFor } from './context.js';

/** One JSON line per event: its id, its type and its data. */
export const eventLine = (e: HeraldEvent) => JSON.stringify({ id: e.id, type: e.type, ...e.data });

export function registerEvents(program: Command): void {
  program
    .command('events')
    .description('Print your events as they happen, one JSON line each (post.*, account.needs_reauth, credits.changed)')
    .option(
      '--since <id>',
      'start after this event id (0: every event kept, up to 7 days)',
      int(0, Number.MAX_SAFE_INTEGER),
    )
    .addHelpText(
      'after',
      examples('herald events', 'herald events --since 0 | jq .type') +
        '\nRuns until interrupted; reconnects after the last id it printed.\n',
    )
    .action(
      action(async (opts: { since?: number }, cmd: Command) => {
        const client = clientFor(cmd);
        let last = opts.since;
        const ac = new AbortController();
        process.once('SIGINT', () => ac.abort());
        while (!ac.signal.aborted) {
          try {
            for await (const e of client.events({ lastEventId: last, signal: ac.signal })) {
              if (e.type === 'stream.dropped') continue;
              process.stdout.write(`${eventLine(e)}\n`);
              last = e.id;
            }
          } catch (err) {
            // Refused (a bad key): no point retrying. Unreachable: try again in a moment.
            if (!(err instanceof HeraldError) || err.code !== 'NETWORK_ERROR') throw err;
          }
          if (!ac.signal.aborted) await new Promise((r) => setTimeout(r, 1000));
        }
      }),
    );
}
