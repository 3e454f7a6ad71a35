import type { Command } from 'commander';
import type { HeraldClient } from '../client/herald-client.js';
import { action, examples, idList } from './action.js';
import { clientFor, EXIT, globals, paint, useColor, writeOptions } from './context.js';
import { print, safe } from './output.js';
import { accountHandle, accountsById, networkName, resolveAccounts, withNames } from './names.js';
import { threadPartsText } from '../text/status-text.js';

const DONE = new Set(['published', 'failed', 'needs_review', 'missed', 'cancelled', 'skipped']);
/** Only for a server without GET /events (older Herald): progress is then polled. */
const POLL_MS = 300;
/** While a thread goes out: how often its parts are read. */
const PARTS_MS = 1000;

type Progress = Awaited<ReturnType<HeraldClient['publishProgress']>>;
type Accounts = Awaited<ReturnType<typeof accountsById>>;

/** "Mastodon  @ada@example.social": the network's name and the account's handle (its id when unknown). */
export const whereTo = (platform: string, accountId: string, accounts: Accounts) => {
  const a = accounts.get(accountId);
  return `${networkName(platform).padEnd(8)}  ${a ? accountHandle(a) : accountId}`;
};

/** Prints the plan of a dry run: per account, what would be sent and what it would cost. */
export function printPlan(
  output: ReturnType<typeof globals>['output'],
  dryRun: Awaited<ReturnType<HeraldClient['publishDryRun']>>,
  accounts: Accounts,
): void {
  const plan = { ...dryRun, plan: dryRun.plan.map((p) => withNames(p, accounts.get(p.accountId))) };
  const post = (x: (typeof plan.plan)[number]['posts'][number], i: number) =>
    `\n  ${i + 1}. ${x.sentAs === 'comment' ? '(comment) ' : ''}${safe(x.text).slice(0, 200)}` +
    `${x.media.length ? ` [${x.media.length} media]` : ''}`;
  const lines = plan.plan.map(
    (p) =>
      `${whereTo(p.platform, p.accountId, accounts)}  ` +
      `${p.skipped ? 'already published (skipped)' : `${p.posts.length} post(s), ${p.credits} credits`}` +
      p.posts.map(post).join(''),
  );
  print(output, plan, {
    ids: plan.plan.map((p) => p.accountId),
    text:
      `${lines.join('\n')}\nDry run: nothing was sent or charged. Needs ${plan.credits.needed} credits (` +
      `${plan.credits.balance} left); X cost about $${plan.xCostUsd.toFixed(3)}.`,
  });
}

export function registerPublish(program: Command): void {
  program
    .command('publish <draft-id>')
    .description("Publish a draft now, showing each account's progress live (on stderr) from the event stream")
    .option(
      '--accounts <ids>',
      "comma-separated account ids or handles as `herald account list` shows them (default: the draft's accounts)",
      idList,
    )
    .option('--force', 'publish again to accounts that already have it')
    .option('--wait', 'wait for every account, showing progress (the default)')
    .option('--dry-run', 'show what each account would receive and what it would cost; send and charge nothing')
    .addHelpText(
      'after',
      examples(
        'herald publish 9b1c…',
        'herald publish 9b1c… --dry-run',
        'herald publish 9b1c… --accounts a1,b2 --output json',
        'herald publish 9b1c… -q -o minimal',
      ) + '\nExits 1 when any account failed, 6 when credits are short.\n',
    )
    .action(
      action(
        async (draftId: string, opts: { accounts?: string[]; force?: boolean; dryRun?: boolean }, cmd: Command) => {
          const g = globals(cmd);
          const client = clientFor(cmd);
          const accounts = await accountsById(client);
          const accountIds = opts.accounts && resolveAccounts(opts.accounts, [...accounts.values()]);
          if (opts.dryRun) {
            printPlan(g.output, await client.publishDryRun(draftId, { accountIds, force: opts.force }), accounts);
            return;
          }
          const started = await client.publishAsync(draftId, { accountIds, force: opts.force }, writeOptions(cmd));
          for (const w of started.warnings ?? []) process.stderr.write(`Warning: ${w}\n`);
          // Progress goes to stderr, so stdout stays the result alone; one line per change of state.
          const live = !g.quiet && g.output !== 'json';
          const tty = useColor(process.stderr);
          const seen = new Map<string, string>();
          let announced = false;
          const show = (progress: Progress) => {
            if (live && !announced)
              process.stderr.write(`Publishing ${draftId} to ${progress.entries.length} account(s)…\n`);
            announced = true;
            for (const e of progress.entries) {
              // A thread's parts count as a change too: "publishing (part 4 of 5)" as each goes out.
              const parts = threadPartsText(e.status, e.parts);
              const state = parts ? `${e.status} (${parts})` : e.status;
              if (live && seen.get(e.id) !== state) {
                const mark =
                  e.status === 'published'
                    ? paint('✓', 32, process.stderr)
                    : DONE.has(e.status)
                      ? paint('✗', 31, process.stderr)
                      : tty
                        ? paint('…', 33, process.stderr)
                        : '…';
                const detail = e.url ? `  ${e.url}` : e.error ? `  ${safe(e.error)}` : '';
                process.stderr.write(`${mark} ${whereTo(e.platform, e.accountUuid, accounts)}  ${state}${detail}\n`);
              }
              seen.set(e.id, state);
            }
            return progress.entries.every((e) => DONE.has(e.status));
          };
          const progress = await follow(client, started.jobId, draftId, show);
          if (live) {
            const s = progress.summary;
            process.stderr.write(`Done: ${s.completed} published, ${s.failed} failed of ${s.total}.\n`);
          }
          const entries = progress.entries.map((e) => withNames(e, accounts.get(e.accountUuid)));
          print(
            g.output,
            { ...progress, entries, jobId: started.jobId, draftId },
            {
              ids: progress.entries.map((e) => e.id),
              rows: entries,
              columns: [
                { header: 'network', value: (e) => e.platformName },
                { header: 'account', value: (e) => e.accountHandle ?? e.accountUuid, max: 40 },
                {
                  header: 'status',
                  // A thread says how much of it went out: "failed (2 of 5 parts sent)".
                  value: (e) => {
                    const parts = threadPartsText(e.status, e.parts);
                    return parts ? `${e.status} (${parts})` : e.status;
                  },
                },
                { header: 'url / error', value: (e) => e.url ?? e.error, max: 70 },
                { header: 'account id', value: (e) => e.accountUuid },
              ],
            },
          );
          if (progress.summary.failed > 0 || progress.entries.some((e) => e.status !== 'published'))
            process.exitCode = EXIT.error;
        },
      ),
    );
}

/**
 * Follows a publish until every account is done: the progress is read once when the event stream
 * opens (catching up on what happened before), then again on each event of this draft. A thread's
 * parts go out without events of their own, so while one is going out its progress is also read
 * once a second (as the composer does). A server without GET /events is polled instead.
 */
async function follow(
  client: HeraldClient,
  jobId: string,
  draftId: string,
  show: (p: Progress) => boolean,
): Promise<Progress> {
  const ac = new AbortController();
  let latest: Progress | undefined;
  let queue = Promise.resolve();
  const refresh = () => {
    queue = queue.then(async () => {
      if (ac.signal.aborted) return;
      latest = await client.publishProgress({ jobId });
      if (show(latest)) ac.abort();
    });
    return queue;
  };
  const threads = setInterval(() => {
    if (latest?.entries.some((e) => !DONE.has(e.status) && (e.parts?.length ?? 0) > 1)) void refresh();
  }, PARTS_MS);
  try {
    for await (const e of client.events({ signal: ac.signal, onOpen: () => void refresh() })) {
      if (e.type.startsWith('post.') && e.data.draftId === draftId) void refresh();
    }
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
    for (;;) {
      latest = await client.publishProgress({ jobId });
      if (show(latest)) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    clearInterval(threads);
  }
  await queue;
  // The stream ended before the publish did (the server closing): one last look.
  while (!latest || !latest.entries.every((e) => DONE.has(e.status))) {
    if (latest) await new Promise((r) => setTimeout(r, POLL_MS));
    latest = await client.publishProgress({ jobId });
    if (show(latest)) break;
  }
  return latest;
}
