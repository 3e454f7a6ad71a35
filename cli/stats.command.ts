/**
 * `herald stats`: published posts' counts as Herald last read them (or as CSV), and a refresh.
 */
import type { Command } from 'commander';
import { action, examples, int } from './action.js';
import { clientFor, globals } from './context.js';
import { print } from './output.js';
import { networkName } from './names.js';

const n = (v: number | null) => (v === null ? '–' : String(v));

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description("Published posts' likes, reposts, replies, quotes and impressions, newest first")
    .option('--network <name>', 'only this network (microblog, skyblog, fedblog, threadblog, problog)')
    .option('--account <id>', 'only this account')
    .option('--from <instant>', 'published at or after (ISO 8601)')
    .option('--to <instant>', 'published before (ISO 8601)')
    .option('--limit <n>', 'at most this many posts', int(1, 10_000), 50)
    .option('--csv', 'print CSV (every read of each post with --history)')
    .option('--history', 'with --csv: one row per read, not per post')
    .option('--refresh', 'ask Herald to read the counts again now (they arrive in the background)')
    .addHelpText(
      'after',
      examples('herald stats', 'herald stats --network skyblog --csv > bluesky.csv', 'herald stats --refresh'),
    )
    .action(
      action(
        async (
          o: {
            network?: string;
            account?: string;
            from?: string;
            to?: string;
            limit: number;
            csv?: boolean;
            history?: boolean;
            refresh?: boolean;
          },
          cmd: Command,
        ) => {
          const client = clientFor(cmd);
          const filter = { platform: o.network as never, accountId: o.account, from: o.from, to: o.to, limit: o.limit };
          if (o.refresh) {
            const r = await client.refreshAnalytics();
            process.stderr.write(`${r.message}\n`);
          }
          if (o.csv) {
            process.stdout.write(await client.analyticsCsv({ ...filter, history: o.history ? 'true' : undefined }));
            return;
          }
          const r = await client.analyticsPosts(filter);
          print(globals(cmd).output, r, {
            ids: r.posts.map((p) => p.publicationId),
            rows: r.posts,
            columns: [
              { header: 'network', value: (p) => networkName(p.platform) },
              { header: 'published', value: (p) => p.publishedAt.slice(0, 16).replace('T', ' ') },
              { header: 'likes', value: (p) => n(p.metrics.likes) },
              { header: 'reposts', value: (p) => n(p.metrics.reposts) },
              { header: 'replies', value: (p) => n(p.metrics.replies) },
              { header: 'quotes', value: (p) => n(p.metrics.quotes) },
              { header: 'views', value: (p) => n(p.metrics.impressions) },
              {
                header: 'state',
                value: (p) => (p.tracking === 'unavailable' ? `unavailable: ${p.reason}` : p.tracking),
                max: 50,
              },
              { header: 'title', value: (p) => p.draftTitle ?? p.url ?? '', max: 40 },
            ],
          });
        },
      ),
    );
}
