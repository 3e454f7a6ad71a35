import fs from 'node:fs';
import type { Command } from 'commander';
import { Option } from 'commander';
import { PLATFORMS, splitForPlatform, splitThreadText, type Platform } from '../client/text/index.js';
import { action, examples } from './action.js';
import { clientFor, globals } from './context.js';
import { keyValues, print } from './output.js';

interface ContentOptions {
  content?: string;
  file?: string;
  stdin?: boolean;
  split?: Platform;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The posts of a draft from --content, --file or --stdin: a line holding only `---` separates
 * posts; with --split, each post that is too long for that network becomes several.
 */
async function readPosts(opts: ContentOptions): Promise<string[] | undefined> {
  const given = [opts.content !== undefined, opts.file !== undefined, Boolean(opts.stdin)].filter(Boolean).length;
  if (given > 1) throw new Error('Give the content one way: --content, --file or --stdin');
  if (given === 0) return undefined;
  const text = opts.content ?? (opts.file !== undefined ? fs.readFileSync(opts.file, 'utf8') : await readStdin());
  let posts = splitThreadText(text);
  if (opts.split) posts = posts.flatMap((p) => splitForPlatform(p, opts.split!));
  if (posts.length === 0) throw new Error('The content is empty');
  return posts;
}

const contentOptions = (cmd: Command) => cmd
  .option('--content <text>', 'post text; a line holding only --- separates posts of a thread')
  .option('--file <path>', 'read the text from a file')
  .option('--stdin', 'read the text from standard input')
  .addOption(new Option('--split <network>', 'split posts too long for this network into a thread').choices([...PLATFORMS]));

const firstLine = (text: string) => {
  const line = text.split('\n')[0].trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

export function registerDraft(program: Command): void {
  const draft = program.command('draft').description('Write and manage drafts (a draft is a post or a thread)');

  draft.command('list')
    .description('List drafts, newest first')
    .option('--status <status>', 'only drafts in this status (draft, scheduled, publishing, published, partially_published, failed)')
    .option('--set <id>', 'only drafts of this social set')
    .option('--limit <n>', 'at most this many')
    .addHelpText('after', examples('herald draft list', 'herald draft list --status scheduled -o json'))
    .action(action(async (opts: { status?: string; set?: string; limit?: string }, cmd: Command) => {
      const r = await clientFor(cmd).listDrafts({ status: opts.status, socialSetId: opts.set, limit: opts.limit ? Number(opts.limit) : undefined });
      print(globals(cmd).output, r, {
        ids: r.drafts.map((d) => d.id), rows: r.drafts,
        columns: [
          { header: 'id', value: (d) => d.id }, { header: 'title', value: (d) => d.title, max: 30 }, { header: 'status', value: (d) => d.status },
          { header: 'posts', value: (d) => d.tweets.length }, { header: 'valid', value: (d) => (d.tweets.every((t) => t.isValid) ? 'yes' : 'no') },
          { header: 'created', value: (d) => d.createdAt },
        ],
      });
    }));

  contentOptions(draft.command('create')
    .description('Create a draft from text')
    .option('--title <title>', 'title (default: the first line of the text)')
    .option('--set <id>', 'social set (default: your default set)')
    .option('--accounts <ids>', 'comma-separated account ids to publish to (default: the set\'s accounts)')
    .option('--template <id>', 'template whose head and tail frame the thread'))
    .addHelpText('after', examples('herald draft create --content "Hello world"', 'herald draft create --file thread.txt --split microblog', 'cat notes.md | herald draft create --stdin --title Notes'))
    .action(action(async (opts: ContentOptions & { title?: string; set?: string; accounts?: string; template?: string }, cmd: Command) => {
      const posts = await readPosts(opts);
      if (!posts) throw new Error('Give the text with --content, --file or --stdin');
      const r = await clientFor(cmd).createDraft({
        title: opts.title ?? firstLine(posts[0]), tweets: posts.map((content, position) => ({ content, position })),
        socialSetId: opts.set, selectedAccountIds: opts.accounts?.split(',').map((s) => s.trim()).filter(Boolean), templateId: opts.template,
      });
      const g = globals(cmd);
      const invalid = r.draft.tweets.filter((t) => !t.isValid).length;
      print(g.output, r, { ids: [r.draft.id], text: g.quiet ? r.draft.id : `Created draft ${r.draft.id} with ${r.draft.tweets.length} post(s)${invalid ? `; ${invalid} do not fit every network (herald draft get ${r.draft.id})` : ''}` });
    }));

  draft.command('get <id>')
    .description('Show a draft and how each post counts on each network')
    .addHelpText('after', examples('herald draft get 3f2a…'))
    .action(action(async (id: string, _o: unknown, cmd: Command) => {
      const r = await clientFor(cmd).getDraft(id);
      const d = r.draft;
      const posts = d.tweets.map((t) => {
        const counts = Object.entries(t.validation).map(([p, v]) => `${p} ${v.count}/${v.limit}${v.valid ? '' : ' ✗'}`).join(', ');
        return `\n[${t.position + 1}] ${counts}\n${t.plainText}`;
      }).join('\n');
      print(globals(cmd).output, r, { ids: [d.id], text: keyValues([['id', d.id], ['title', d.title], ['status', d.status], ['scheduled', d.scheduledFor], ['set', d.socialSetId], ['updated', d.updatedAt]]) + '\n' + posts });
    }));

  contentOptions(draft.command('update <id>')
    .description('Change a draft (new text replaces every post)')
    .option('--title <title>', 'new title'))
    .addHelpText('after', examples('herald draft update 3f2a… --title "Launch day"', 'herald draft update 3f2a… --file thread.txt --split skyblog'))
    .action(action(async (id: string, opts: ContentOptions & { title?: string }, cmd: Command) => {
      const posts = await readPosts(opts);
      const r = await clientFor(cmd).updateDraft(id, { title: opts.title, tweets: posts?.map((content, position) => ({ content, position })) });
      const g = globals(cmd);
      print(g.output, r, { ids: [r.draft.id], text: g.quiet ? r.draft.id : `Updated draft ${r.draft.id}` });
    }));

  draft.command('delete <id>')
    .description('Delete a draft')
    .addHelpText('after', examples('herald draft delete 3f2a…'))
    .action(action(async (id: string, _o: unknown, cmd: Command) => {
      const r = await clientFor(cmd).deleteDraft(id);
      const g = globals(cmd);
      print(g.output, r, { ids: [id], text: g.quiet ? id : r.message });
    }));
}
