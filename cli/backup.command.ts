import path from 'node:path';
import type { Command } from 'commander';
import { action, examples } from './action.js';
import { globals } from './context.js';
import { print } from './output.js';
import { serverEntry } from './server-entry.js';

const dataDirOption = ['--data-dir <dir>', 'data folder (default: HERALD_DATA_DIR or the OS app-data folder)'] as const;

/** dist/server/database-commands.mjs (server/database-commands.ts), as the CLI sees it. */
interface DatabaseCommands {
  backup(
    target: string,
    opts: { dataDir?: string },
  ): Promise<{ file: string; bytes: number; seconds: number; verified: true }>;
  restore(
    file: string,
    opts: { dataDir?: string },
  ): { restoredFrom: string; database: string; previous: string | null; migrated: number };
}
// Loaded when these commands run, from the compiled server: the CLI opens no database itself, and
// the server's config and SQLite modules would add ~0.3 s to every other command's start.
const databaseCommands = () => serverEntry<DatabaseCommands>('database-commands');

/**
 * `herald backup`: online copy of the local database (SQLite's backup API: safe while Herald
 * runs), checked before it is reported. `herald restore`: puts a backup back, offline.
 */
export function registerBackup(program: Command): void {
  program
    .command('backup [file]')
    .description('Copy the database to a file while Herald keeps running')
    .option(...dataDirOption)
    .addHelpText('after', examples('herald backup', 'herald backup ~/herald-2026-11-22.db'))
    .action(
      action(async (file: string | undefined, opts: { dataDir?: string }, cmd: Command) => {
        const { backup } = await databaseCommands();
        const target = path.resolve(file ?? `herald-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.db`);
        const g = globals(cmd);
        if (!g.quiet && process.stderr.isTTY) process.stderr.write('backing up…');
        const result = await backup(target, { dataDir: opts.dataDir });
        if (!g.quiet && process.stderr.isTTY) process.stderr.write('\n');
        print(
          g.output,
          { success: true, ...result },
          {
            ids: [target],
            text: `Backed up to ${target} (${result.bytes} bytes in ${result.seconds.toFixed(2)} s, integrity checked)`,
          },
        );
      }),
    );

  program
    .command('restore <file>')
    .description('Replace the database with a backup (Herald must not be running); the old one is kept as a .bak file')
    .option(...dataDirOption)
    .addHelpText(
      'after',
      examples('herald restore ~/herald-2026-11-22.db', 'herald restore backup.db --data-dir ~/.config/Herald'),
    )
    .action(
      action(async (file: string, opts: { dataDir?: string }, cmd: Command) => {
        const { restore } = await databaseCommands();
        const result = restore(file, { dataDir: opts.dataDir });
        const kept = result.previous ? `; the previous database is kept at ${result.previous}` : '';
        const migrated =
          result.migrated > 0
            ? ` (brought up to date by ${result.migrated} migration${result.migrated === 1 ? '' : 's'})`
            : '';
        print(
          globals(cmd).output,
          { success: true, ...result },
          { ids: [result.database], text: `Restored ${result.database} from ${result.restoredFrom}${migrated}${kept}` },
        );
      }),
    );
}
