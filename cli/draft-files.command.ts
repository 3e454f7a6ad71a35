/**
 * `herald draft export|import|import-csv|watch`: drafts as files (issue #24 item 5). The server
 * reads and writes the formats (GET …/export, POST …/import, POST …/import-csv); the CLI only
 * moves files and uploads the media files a draft names by path, which the server never reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { HeraldClient } from '../client/index.js';
import { action, examples } from './action.js';
import { clientFor, globals, UsageError } from './context.js';
import { print } from './output.js';

const readFile = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `Cannot read ${file}: ` +
        `${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
};

const formatOf = (file: string): 'md' | 'json' => (/\.json$/i.test(file) ? 'json' : 'md');

/**
 * Creates the drafts of one file. The server reads it first (dry run); media named by path are
 * uploaded (relative to the file's folder) and the drafts are then sent as JSON with their ids.
 */
async function importFile(client: HeraldClient, file: string, how: { schedule: boolean; applyJitter?: boolean }) {
  const data = readFile(file);
  const format = formatOf(file);
  const { parsed } = await client.importDrafts(data, format, { dryRun: true });
  const paths = parsed.flatMap((d) => (d.media ?? []).filter((m) => m.id === undefined && m.path !== undefined));
  const query = { schedule: how.schedule, applyJitter: how.applyJitter };
  let result;
  if (paths.length === 0) result = await client.importDrafts(data, format, query);
  else {
    for (const m of paths) {
      const where = path.resolve(path.dirname(file), m.path!);
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(where);
      } catch {
        throw new UsageError(`${file}: cannot read the media file ${m.path} (${where})`);
      }
      process.stderr.write(`Uploading ${m.path}…\n`);
      const up = await client.uploadMedia([{ name: path.basename(where), data: new Blob([new Uint8Array(bytes)]) }]);
      const mediaId = up.data.uploads[0].mediaId;
      m.id = mediaId;
      delete m.path;
      if (m.alt !== undefined) await client.setMediaAltText(mediaId, m.alt);
    }
    result = await client.importDrafts(JSON.stringify({ drafts: parsed }), 'json', query);
  }
  return result.drafts;
}

export function registerDraftFiles(draft: Command): void {
  draft
    .command('export [id]')
    .description('Write a draft (or --all) as Markdown with YAML front matter, or JSON')
    .option('--all', 'every draft')
    .addOption(new Option('--format <format>', 'file format').choices(['md', 'json']).default('md'))
    .option('--out <dir>', 'write one file per draft into this folder (default: print to standard output)')
    .option('--time-zone <zone>', 'write times in this IANA zone (default UTC)')
    .addHelpText(
      'after',
      examples(
        'herald draft export 3f2a… > launch.md',
        'herald draft export --all --out drafts/',
        'herald draft export 3f2a… --format json --time-zone Europe/Paris',
      ),
    )
    .action(
      action(
        async (
          id: string | undefined,
          opts: { all?: boolean; format: 'md' | 'json'; out?: string; timeZone?: string },
          cmd: Command,
        ) => {
          if (Boolean(id) === Boolean(opts.all)) throw new UsageError('Give a draft id or --all');
          const client = clientFor(cmd);
          const ids = opts.all ? (await client.listDrafts()).drafts.map((d) => d.id) : [id!];
          if (opts.out) fs.mkdirSync(opts.out, { recursive: true });
          const written: string[] = [];
          for (const one of ids) {
            const text = await client.exportDraft(one, { format: opts.format, timeZone: opts.timeZone });
            if (opts.out) {
              const file = path.join(opts.out, `${one}.${opts.format}`);
              fs.writeFileSync(file, text);
              written.push(file);
            } else process.stdout.write(text);
          }
          if (opts.out)
            print(
              globals(cmd).output,
              { success: true, files: written },
              { ids: written, text: `Wrote ${written.length} file(s) to ${opts.out}` },
            );
        },
      ),
    );

  draft
    .command('import <files...>')
    .description('Create drafts from Markdown (.md) or JSON (.json) files; media named by path are uploaded first')
    .option('--schedule', 'schedule each draft that has scheduledFor (on its accounts)')
    .option('--jitter', "with --schedule: spread each account's post within ±3 min of its time")
    .addHelpText(
      'after',
      examples(
        'herald draft import launch.md',
        'herald draft import drafts/*.md --schedule',
        'herald draft import backup.json',
      ),
    )
    .action(
      action(async (files: string[], opts: { schedule?: boolean; jitter?: boolean }, cmd: Command) => {
        const client = clientFor(cmd);
        const drafts = [];
        for (const f of files)
          drafts.push(...(await importFile(client, f, { schedule: Boolean(opts.schedule), applyJitter: opts.jitter })));
        const g = globals(cmd);
        print(
          g.output,
          { success: true, drafts },
          {
            ids: drafts.map((d) => d.id),
            text: g.quiet
              ? drafts.map((d) => d.id).join('\n')
              : `Imported ${drafts.length} draft(s): ${drafts.map((d) => d.id).join(', ')}`,
          },
        );
      }),
    );

  draft
    .command('import-csv <file>')
    .description(
      'One draft per row: columns text, networks, scheduledFor, timeZone, media (media ids); rows with a ' +
        'time are scheduled',
    )
    .option('--dry-run', 'check every row and create nothing')
    .option('--partial', 'import the good rows even when some are wrong (default: nothing when any row is wrong)')
    .option('--schedule', 'schedule each row that has scheduledFor (the default)')
    .option('--no-schedule', 'only create drafts; their times stay on them')
    .option('--jitter', "spread each account's post within ±3 min of its row's time")
    .addHelpText(
      'after',
      examples(
        'herald draft import-csv posts.csv --dry-run',
        'herald draft import-csv posts.csv --partial',
        'herald draft import-csv posts.csv --no-schedule',
      ),
    )
    .action(
      action(
        async (
          file: string,
          opts: { dryRun?: boolean; partial?: boolean; schedule?: boolean; jitter?: boolean },
          cmd: Command,
        ) => {
          const client = clientFor(cmd);
          const query = {
            dryRun: Boolean(opts.dryRun),
            partial: Boolean(opts.partial),
            schedule: opts.schedule,
            applyJitter: opts.jitter,
          };
          const r = await client.importDraftsCsv(readFile(file), query);
          const g = globals(cmd);
          const lines = r.errors.map((e) => `row ${e.row}, ${e.column}: ${e.message}`);
          const scheduled = r.drafts.filter((d) => d.queueIds.length > 0).length;
          const head = r.dryRun
            ? `Dry run: ${r.imported} row(s) would be imported`
            : `Imported ${r.imported} draft(s)${scheduled > 0 ? `; scheduled ${scheduled} of them` : ''}`;
          const hint =
            r.errors.length > 0 && !opts.partial
              ? '\nNothing was imported because of the rows above; fix them, or add --partial to import the others.'
              : '';
          print(g.output, r, {
            ids: r.drafts.map((d) => d.id ?? `row ${d.row}`),
            text: [head, ...lines].join('\n') + hint,
          });
          if (r.errors.length > 0) process.exitCode = 1;
        },
      ),
    );

  draft
    .command('watch <folder>')
    .description('Turn each new .md file in a folder into a draft, once (remembered in <folder>/.herald-imported.json)')
    .option('--once', 'import what is there now and stop')
    .addHelpText('after', examples('herald draft watch ~/Drafts', 'herald draft watch ~/Drafts --once'))
    .action(
      action(async (folder: string, opts: { once?: boolean }, cmd: Command) => {
        const client = clientFor(cmd);
        if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
          throw new UsageError(`${folder} is not a folder`);
        const stateFile = path.join(folder, '.herald-imported.json');
        const seen: Record<string, string> = fs.existsSync(stateFile)
          ? (JSON.parse(readFile(stateFile)) as Record<string, string>)
          : {};
        let busy = Promise.resolve();
        const scan = () =>
          (busy = busy.then(async () => {
            for (const name of fs
              .readdirSync(folder)
              .filter((n) => n.endsWith('.md'))
              .sort()) {
              if (seen[name]) continue;
              const file = path.join(folder, name);
              try {
                const [d] = await importFile(client, file, { schedule: false });
                seen[name] = d.id;
                fs.writeFileSync(stateFile, JSON.stringify(seen, null, 2));
                process.stdout.write(`${name} → draft ${d.id}\n`);
              } catch (err) {
                // Kept unseen: a file still being written (or fixed later) is tried again on its next change.
                process.stderr.write(`${name}: ${(err as Error).message}\n`);
              }
            }
          }));
        await scan();
        if (opts.once) return;
        process.stderr.write(`Watching ${folder} for new .md files (Ctrl-C stops)\n`);
        let timer: NodeJS.Timeout | undefined;
        fs.watch(folder, () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            void scan();
          }, 300);
        });
        await new Promise(() => {});
      }),
    );
}
