import fs from 'node:fs';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { Platform } from '../text/index.js';
import { PLATFORMS } from '../text/networks.js';
import { action, examples, idList, int } from './action.js';
import { clientFor, globals, readStdin, UsageError, writeOptions } from './context.js';
import { registerDraftFiles } from './draft-files.command.js';
import { optionsFromFlags, postOptionFlags, type OptionFlags } from './draft-options.js';
import { keyValues, print, safe } from './output.js';
import { networkChoices, networkName, networkParser } from './names.js';

/** The networks --split knows (text/networks.ts: a leaf, so --help still loads no text rules). */
export const SPLIT_NETWORKS = PLATFORMS;

interface ContentOptions {
  content?: string;
  file?: string;
  stdin?: boolean;
  split?: Platform;
  html?: boolean;
}

async function readText(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Reading the text from standard input; end it with Ctrl-D.\n');
  return readStdin();
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `Cannot read ${file}: ` +
        `${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
}

/** A template's head and tail as plain text, for --split to leave them room. */
type Frame = () => Promise<{ head: string; tail: string }>;

/**
 * The posts of a draft from --content, --file or --stdin: a line holding only `---` separates
 * posts; with --split, each post that is too long for that network becomes several. With a
 * template (`frame`), the server puts its head on a line before the first post and its tail on
 * one after the last, so the split is made with them in place and they are taken off again:
 * the framed first and last posts are then exactly parts the splitter made to fit.
 */
async function readPosts(opts: ContentOptions, frame?: Frame): Promise<string[] | undefined> {
  const given = [opts.content !== undefined, opts.file !== undefined, Boolean(opts.stdin)].filter(Boolean).length;
  if (given > 1) throw new UsageError('Give the content one way: --content, --file or --stdin');
  if (opts.html && opts.split) throw new UsageError('--split works on plain text, not with --html');
  if (given === 0) {
    if (opts.split) throw new UsageError('--split needs the text: --content, --file or --stdin');
    return undefined;
  }
  const text = opts.content ?? (opts.file !== undefined ? readFile(opts.file) : await readText());
  // Loaded only here: the text rules (twitter-text) are the heaviest import of the CLI.
  const { splitForPlatform, splitThreadText } = await import('../text/index.js');
  let posts = splitThreadText(text);
  if (opts.split && posts.length > 0) {
    const { head, tail } = frame ? await frame() : { head: '', tail: '' };
    const last = posts.length - 1;
    const framed = posts.map((p, i) => [i === 0 ? head : '', p, i === last ? tail : ''].filter(Boolean).join('\n'));
    posts = framed.flatMap((p) => splitForPlatform(p, opts.split!));
    if (head && posts[0].startsWith(head)) posts[0] = posts[0].slice(head.length).trimStart();
    if (tail && posts[posts.length - 1].endsWith(tail))
      posts[posts.length - 1] = posts[posts.length - 1].slice(0, -tail.length).trimEnd();
    // A head or tail that filled a post alone leaves it empty: the server frames the next one.
    posts = posts.filter((p) => p !== '');
  }
  if (posts.length === 0) throw new UsageError('The content is empty');
  return posts;
}

/**
 * The posts as tweet `content`, which the API reads as HTML: plain text (the default) is
 * escaped so every character stays, "x<y" and "Press <Enter>" included; --html sends it as is.
 */
async function asContent(opts: ContentOptions, posts: string[]): Promise<{ content: string; position: number }[]> {
  const { plainToHtml } = await import('../text/html.js');
  return posts.map((p, position) => ({ content: opts.html ? p : plainToHtml(p), position }));
}

const contentOptions = (cmd: Command) =>
  cmd
    .option('--content <text>', 'post text; a line holding only --- separates posts of a thread')
    .option('--file <path>', 'read the text from a file (- for standard input)')
    .option('--stdin', 'read the text from standard input')
    .option(
      '--html',
      'the text is HTML (p, br, a, strong, em…); by default it is plain text, kept character for character',
    )
    .addOption(
      new Option(
        '--split <network>',
        `split posts too long for this network into a thread: ${networkChoices(SPLIT_NETWORKS)}`,
      ).argParser(networkParser(SPLIT_NETWORKS)),
    );

/** The template's head and tail, fetched only when --split needs them. */
const templateFrame = (cmd: Command, id: string | undefined): Frame | undefined =>
  id === undefined
    ? undefined
    : async () => {
        const { template } = await clientFor(cmd).getTemplate(id);
        return { head: template.head_content_plain.trim(), tail: template.tail_content_plain.trim() };
      };

interface CardOptions {
  language?: string;
  linkCard?: string | boolean;
}

/** --link-card <url> → {url}; --no-link-card → false; neither → left as it is (undefined). */
const cardChoice = (opts: CardOptions) =>
  typeof opts.linkCard === 'string' ? { url: opts.linkCard } : opts.linkCard === false ? (false as const) : undefined;

const firstLine = (text: string) => {
  const line = text.split('\n')[0].trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

export function registerDraft(program: Command): void {
  const draft = program
    .command('draft')
    .description('Write and manage drafts (a draft is a post or a thread)')
    .addHelpText(
      'after',
      examples(
        'herald draft create --content "Hello world"',
        'herald draft list',
        'herald draft get 3f2a…',
        'herald draft update 3f2a… --title "Launch day"',
        'herald draft delete 3f2a…',
      ),
    );

  draft
    .command('list')
    .description('List drafts, newest first')
    .addOption(
      new Option('--status <status>', 'only drafts in this status').choices([
        'draft',
        'scheduled',
        'publishing',
        'published',
        'partially_published',
        'failed',
      ]),
    )
    .option('--set <id>', 'only drafts of this social set')
    .option('--limit <n>', 'at most this many (then --cursor pages on)', int(1, 500))
    .option('--cursor <cursor>', "the next page, from the previous page's nextCursor")
    .addHelpText(
      'after',
      examples(
        'herald draft list',
        'herald draft list --status scheduled -o json',
        'herald draft list --limit 20 -o minimal',
      ),
    )
    .action(
      action(async (opts: { status?: string; set?: string; limit?: number; cursor?: string }, cmd: Command) => {
        const r = await clientFor(cmd).listDrafts({
          status: opts.status as 'draft' | undefined,
          socialSetId: opts.set,
          limit: opts.limit,
          cursor: opts.cursor,
        });
        const g = globals(cmd);
        print(g.output, r, {
          ids: r.drafts.map((d) => d.id),
          rows: r.drafts,
          columns: [
            { header: 'id', value: (d) => d.id },
            { header: 'title', value: (d) => d.title, max: 30 },
            { header: 'status', value: (d) => d.status },
            { header: 'posts', value: (d) => d.tweets.length },
            { header: 'valid', value: (d) => (d.tweets.every((t) => t.isValid) ? 'yes' : 'no') },
            { header: 'created', value: (d) => d.createdAt },
          ],
        });
        if (r.nextCursor && g.output === 'table' && !g.quiet)
          process.stderr.write(`More: herald draft list --limit ${opts.limit} --cursor ${r.nextCursor}\n`);
      }),
    );

  postOptionFlags(
    contentOptions(
      draft
        .command('create')
        .description('Create a draft from text')
        .option('--title <title>', 'title (default: the first line of the text)')
        .option('--set <id>', 'social set (default: your default set)')
        .option('--accounts <ids>', "comma-separated account ids to publish to (default: the set's accounts)", idList)
        .option('--template <id>', 'template whose head and tail frame the thread')
        .option('--language <tag>', 'BCP 47 language of the posts (default: the setting defaultLanguage)')
        .option('--link-card <url>', 'make the link card of this page')
        .option('--no-link-card', 'send no link card (default: a card for the first link of the first post)'),
    ),
  )
    .addHelpText(
      'after',
      examples(
        'herald draft create --content "Hello world"',
        'herald draft create --file thread.txt --split x',
        'cat notes.md | herald draft create --stdin --title Notes',
        'herald draft create --content "Which?" --poll "A,B,C" --poll-minutes 1440 --reply-control following',
      ),
    )
    .action(
      action(
        async (
          opts: ContentOptions &
            CardOptions &
            OptionFlags & { title?: string; set?: string; accounts?: string[]; template?: string },
          cmd: Command,
        ) => {
          const posts = await readPosts(opts, templateFrame(cmd, opts.template));
          if (!posts) throw new UsageError('Give the text with --content, --file or --stdin');
          const r = await clientFor(cmd).createDraft(
            {
              title: opts.title ?? firstLine(opts.html ? posts[0].replace(/<[^>]*>/g, '') : posts[0]),
              tweets: await asContent(opts, posts),
              socialSetId: opts.set,
              selectedAccountIds: opts.accounts,
              templateId: opts.template,
              language: opts.language,
              linkCard: cardChoice(opts),
              options: optionsFromFlags(opts),
            },
            writeOptions(cmd),
          );
          const g = globals(cmd);
          const invalid = r.draft.tweets.filter((t) => !t.isValid).length;
          print(g.output, r, {
            ids: [r.draft.id],
            text: g.quiet
              ? r.draft.id
              : `Created draft ${r.draft.id} with ${r.draft.tweets.length} post(s)` +
                `${invalid ? `; ${invalid} do not fit every network (herald draft get ${r.draft.id})` : ''}`,
          });
        },
      ),
    );

  draft
    .command('get <id>')
    .description('Show a draft and how each post counts on each network')
    .addHelpText('after', examples('herald draft get 3f2a…', 'herald draft get 3f2a… -o json | jq .draft.tweets'))
    .action(
      action(async (id: string, _o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).getDraft(id);
        const d = r.draft;
        const posts = d.tweets
          .map((t) => {
            const counts = Object.entries(t.validation)
              .map(([p, v]) => `${networkName(p)} ${v.count}/${v.limit}${v.valid ? '' : ' ✗'}`)
              .join(', ');
            return `\n[${t.position + 1}] ${counts}\n${safe(t.plainText)}`;
          })
          .join('\n');
        print(globals(cmd).output, r, {
          ids: [d.id],
          text:
            keyValues([
              ['id', d.id],
              ['title', d.title],
              ['status', d.status],
              ['scheduled', d.scheduledFor],
              ['set', d.socialSetId],
              ['updated', d.updatedAt],
            ]) +
            '\n' +
            posts,
        });
      }),
    );

  postOptionFlags(
    contentOptions(
      draft
        .command('update <id>')
        .description('Change a draft (new text replaces every post)')
        .option('--title <title>', 'new title')
        .option('--set <id>', 'move it to this social set')
        .option('--accounts <ids>', 'comma-separated account ids to publish to', idList)
        .option('--template <id>', 'template whose head and tail frame the thread ("none" removes it)')
        .option('--language <tag>', 'BCP 47 language of the posts ("default": the setting defaultLanguage)')
        .option('--link-card <url>', 'make the link card of this page ("first": the first link of the first post)')
        .option('--no-link-card', 'send no link card')
        .option('--no-options', 'clear every post option'),
    ),
  )
    .addHelpText(
      'after',
      examples(
        'herald draft update 3f2a… --title "Launch day"',
        'herald draft update 3f2a… --file thread.txt --split bluesky',
        'herald draft update 3f2a… --template none',
      ),
    )
    .action(
      action(
        async (
          id: string,
          opts: ContentOptions &
            CardOptions &
            OptionFlags & { title?: string; set?: string; accounts?: string[]; template?: string; options?: boolean },
          cmd: Command,
        ) => {
          const posts = await readPosts(opts, opts.template === 'none' ? undefined : templateFrame(cmd, opts.template));
          const body = {
            title: opts.title,
            tweets: posts && (await asContent(opts, posts)),
            socialSetId: opts.set,
            selectedAccountIds: opts.accounts,
            templateId: opts.template === 'none' ? null : opts.template,
            language: opts.language === 'default' ? null : opts.language,
            linkCard: opts.linkCard === 'first' ? null : cardChoice(opts),
            options: opts.options === false ? null : optionsFromFlags(opts),
          };
          if (Object.values(body).every((v) => v === undefined))
            throw new UsageError(
              'Nothing to change: give --title, --content/--file/--stdin, --set, --accounts, --template, ' +
                '--language, --link-card or a post option (--poll, --cw, ...)',
            );
          const r = await clientFor(cmd).updateDraft(id, body);
          const g = globals(cmd);
          print(g.output, r, {
            ids: [r.draft.id],
            text: g.quiet ? r.draft.id : `Updated draft ${r.draft.id} (${r.draft.tweets.length} post(s))`,
          });
        },
      ),
    );

  draft
    .command('link-preview <url>')
    .description('Show the link card Herald makes of a page (what Bluesky and LinkedIn posts carry)')
    .addHelpText(
      'after',
      examples(
        'herald draft link-preview https://example.com/post',
        'herald draft link-preview https://example.com -o json',
      ),
    )
    .action(
      action(async (url: string, _o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).linkPreview(url);
        const c = r.card;
        print(globals(cmd).output, r, {
          ids: c ? [c.url] : [],
          text: c
            ? keyValues([
                ['url', c.url],
                ['title', safe(c.title)],
                ['description', safe(c.description)],
                ['image', c.imageUrl],
                ['site', c.siteName ? safe(c.siteName) : null],
              ])
            : 'No card: the page cannot be read',
        });
      }),
    );

  draft
    .command('delete <id>')
    .description('Delete a draft')
    .addHelpText(
      'after',
      examples(
        'herald draft delete 3f2a…',
        'herald draft list --status failed -o minimal | xargs -n1 herald draft delete',
      ),
    )
    .action(
      action(async (id: string, _o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).deleteDraft(id);
        const g = globals(cmd);
        print(g.output, { ...r, id }, { ids: [id], text: g.quiet ? id : r.message });
      }),
    );

  registerDraftFiles(draft);
}
