import type { Command } from 'commander';
import { action, examples, idList } from './action.js';
import { clientFor, EXIT, globals, paint, useColor, writeOptions } from './context.js';
import { print, safe } from './output.js';

const DONE = new Set(['published', 'failed', 'needs_review', 'missed', 'cancelled']);
const POLL_MS = 300;

export function registerPublish(program: Command): void {
  program.command('publish <draft-id>')
    .description('Publish a draft now, showing each account\'s progress live (on stderr)')
    .option('--accounts <ids>', 'comma-separated account ids (default: the draft\'s accounts)', idList)
    .option('--force', 'publish again to accounts that already have it')
    .addHelpText('after', examples('herald publish 9b1c…', 'herald publish 9b1c… --accounts a1,b2 --output json', 'herald publish 9b1c… -q -o minimal') + '\nExits 1 when any account failed, 6 when credits are short.\n')
    .action(action(async (draftId: string, opts: { accounts?: string[]; force?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const client = clientFor(cmd);
      const started = await client.publishAsync(draftId, { accountIds: opts.accounts, force: opts.force }, writeOptions(cmd));
      // Progress goes to stderr, so stdout stays the result alone; one line per change of state.
      const live = !g.quiet && g.output !== 'json';
      const tty = useColor(process.stderr);
      const seen = new Map<string, string>();
      let progress = await client.publishProgress({ jobId: started.jobId });
      if (live) process.stderr.write(`Publishing ${draftId} to ${progress.entries.length} account(s)…\n`);
      for (;;) {
        for (const e of progress.entries) {
          if (live && seen.get(e.id) !== e.status) {
            const mark = e.status === 'published' ? paint('✓', 32, process.stderr) : DONE.has(e.status) ? paint('✗', 31, process.stderr) : tty ? paint('…', 33, process.stderr) : '…';
            const detail = e.url ? `  ${e.url}` : e.error ? `  ${safe(e.error)}` : '';
            process.stderr.write(`${mark} ${e.platform.padEnd(10)} ${e.accountUuid}  ${e.status}${detail}\n`);
          }
          seen.set(e.id, e.status);
        }
        if (progress.entries.every((e) => DONE.has(e.status))) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
        progress = await client.publishProgress({ jobId: started.jobId });
      }
      if (live) {
        const s = progress.summary;
        process.stderr.write(`Done: ${s.completed} published, ${s.failed} failed of ${s.total}.\n`);
      }
      print(g.output, { ...progress, jobId: started.jobId, draftId }, {
        ids: progress.entries.map((e) => e.id), rows: progress.entries,
        columns: [
          { header: 'network', value: (e) => e.platform }, { header: 'account', value: (e) => e.accountUuid }, { header: 'status', value: (e) => e.status },
          { header: 'url / error', value: (e) => e.url ?? e.error, max: 70 },
        ],
      });
      if (progress.summary.failed > 0 || progress.entries.some((e) => e.status !== 'published')) process.exitCode = EXIT.error;
    }));
}
