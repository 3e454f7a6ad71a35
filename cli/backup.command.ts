import path from 'node:path';
import type { Command } from 'commander';
import Database from 'better-sqlite3';
import { loadConfig } from '../server/config.js';
import { action, examples } from './action.js';
import { globals } from './context.js';
import { print } from './output.js';

/** Online backup of the local database (SQLite's backup API: safe while Herald runs). */
export function registerBackup(program: Command): void {
  program.command('backup [file]')
    .description('Copy the database to a file while Herald keeps running')
    .option('--data-dir <dir>', 'data folder (default: HERALD_DATA_DIR or the OS app-data folder)')
    .addHelpText('after', examples('herald backup', 'herald backup ~/herald-2026-11-22.db'))
    .action(action(async (file: string | undefined, opts: { dataDir?: string }, cmd: Command) => {
      const config = loadConfig(process.env, opts.dataDir ? { HERALD_DATA_DIR: opts.dataDir } : {});
      const target = path.resolve(file ?? `herald-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.db`);
      const db = new Database(config.dbPath, { fileMustExist: true, readonly: true });
      const started = Date.now();
      try {
        await db.backup(target, {
          progress: ({ totalPages, remainingPages }) => {
            if (!globals(cmd).quiet && process.stderr.isTTY) process.stderr.write(`\rbacking up… ${Math.round(100 * (1 - remainingPages / Math.max(1, totalPages)))}%`);
            return 256;
          },
        });
      } finally {
        db.close();
      }
      if (process.stderr.isTTY && !globals(cmd).quiet) process.stderr.write('\n');
      const g = globals(cmd);
      print(g.output, { success: true, file: target, seconds: (Date.now() - started) / 1000 }, { ids: [target], text: `Backed up to ${target}` });
    }));
}
