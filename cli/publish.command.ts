import type { Command } from 'commander';
import { action, examples } from './action.js';
import { clientFor, EXIT, globals, paint } from './context.js';
import { print } from './output.js';

const DONE = new Set(['published', 'failed', 'needs_review', 'missed', 'cancelled']);

export function registerPublish(program: Command): void {
  program.command('publish <draft-id>')
    .description('Publish a draft now, showing each account\'s progress live')
    .option('--accounts <ids>', 'comma-separated account ids (default: the draft\'s accounts)')
    .option('--force', 'publish again to accounts that already have it')
    .addHelpText('after', examples('herald publish 9b1c…', 'herald publish 9b1c… --accounts a1,b2 --output json'))
    .action(action(async (draftId: string, opts: { accounts?: string; force?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const client = clientFor(cmd);
      const accountIds = opts.accounts?.split(',').map((x) => x.trim()).filter(Boolean);
      const started = await client.publishAsync(draftId, { accountIds, force: opts.force });
      const live = !g.quiet && g.output !== 'json';
      const seen = new Map<string, string>();
      let progress = await client.publishProgress({ jobId: started.jobId });
      for (;;) {
        for (const e of progress.entries) {
          if (live && seen.get(e.id) !== e.status) {
            const mark = e.status === 'published' ? paint('✓', 32, process.stderr) : DONE.has(e.status) ? paint('✗', 31, process.stderr) : '…';
            process.stderr.write(`${mark} ${e.platform.padEnd(10)} ${e.status}${e.url ? `  ${e.url}` : ''}${e.error ? `  ${e.error}` : ''}\n`);
          }
          seen.set(e.id, e.status);
        }
        if (progress.entries.every((e) => DONE.has(e.status))) break;
        await new Promise((r) => setTimeout(r, 300));
        progress = await client.publishProgress({ jobId: started.jobId });
      }
      print(g.output, { jobId: started.jobId, draftId, ...progress }, {
        ids: progress.entries.map((e) => e.id), rows: progress.entries,
        columns: [
          { header: 'network', value: (e) => e.platform }, { header: 'account', value: (e) => e.accountUuid }, { header: 'status', value: (e) => e.status },
          { header: 'url / error', value: (e) => e.url ?? e.error, max: 70 },
        ],
      });
      if (progress.summary.failed > 0) process.exitCode = EXIT.error;
    }));
}
