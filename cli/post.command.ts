/**
 * `herald post`: published posts after the fact: list them, delete one on its network (after a
 * confirmation that says what goes) or edit its text where the network allows.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { action, examples, int } from './action.js';
import { clientFor, EXIT, globals, UsageError } from './context.js';
import { keyValues, print, safe } from './output.js';
import { networkName } from './names.js';

async function confirmed(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function registerPost(program: Command): void {
  const post = program
    .command('post')
    .description('Published posts: list, delete on their network, edit')
    .addHelpText(
      'after',
      examples('herald post list', 'herald post delete 4f2a…', 'herald post edit 4f2a… "Fixed text"'),
    );

  post
    .command('list')
    .description('Published posts and other publications, newest first (with ids for delete and edit)')
    .option('--limit <n>', 'at most this many', int(1, 500), 50)
    .option('--status <status>', 'only this status (published, failed, ...)')
    .addHelpText('after', examples('herald post list', 'herald post list --status published -o json'))
    .action(
      action(async (opts: { limit: number; status?: string }, cmd: Command) => {
        const r = await clientFor(cmd).publications({ limit: opts.limit, status: opts.status as never });
        print(globals(cmd).output, r, {
          ids: r.publications.map((p) => p.id),
          rows: r.publications,
          columns: [
            { header: 'id', value: (p) => p.id, max: 40 },
            { header: 'network', value: (p) => networkName(p.platform) },
            {
              header: 'status',
              value: (p) => (p.deletedAt ? 'deleted' : p.editedAt ? `${p.status} (edited)` : p.status),
            },
            { header: 'published', value: (p) => p.publishedAt ?? '' },
            { header: 'url', value: (p) => p.url ?? '', max: 70 },
          ],
        });
      }),
    );

  post
    .command('delete <publication-id>')
    .description('Delete a published post on its network, with the later parts of its thread Herald sent')
    .option('--yes', 'do not ask for confirmation')
    .addHelpText('after', examples('herald post delete 4f2a…', 'herald post delete 4f2a… --yes'))
    .action(
      action(async (id: string, opts: { yes?: boolean }, cmd: Command) => {
        const client = clientFor(cmd);
        if (!opts.yes) {
          const list = await client.publications({ limit: 500 });
          const p = list.publications.find((x) => x.id === id);
          const what = p
            ? `the ${networkName(p.platform)} post ${p.url ?? id}${p.draftTitle ? ` ("${safe(p.draftTitle)}")` : ''}` +
              ' and the later parts of its thread'
            : `publication ${id}`;
          if (!(await confirmed(`Delete ${what}? This cannot be undone.`))) {
            if (!process.stdin.isTTY) throw new UsageError('Not a terminal: pass --yes to delete without asking');
            process.stderr.write('Nothing was deleted.\n');
            process.exitCode = EXIT.usage;
            return;
          }
        }
        const r = await client.deletePublication(id);
        print(globals(cmd).output, r, {
          ids: [r.id],
          text: `${r.message}\n${keyValues(r.parts.map((x) => [`part ${x.position + 1}`, x.outcome]))}`,
        });
      }),
    );

  post
    .command('edit <publication-id> <text>')
    .description("Replace a published post's text on its network (Mastodon, LinkedIn)")
    .addHelpText('after', examples('herald post edit 4f2a… "The corrected text"'))
    .action(
      action(async (id: string, text: string, _opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).editPublication(id, { text });
        print(globals(cmd).output, r, { ids: [r.id], text: r.message });
      }),
    );
}
