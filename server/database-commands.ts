/**
 * `herald backup` and `herald restore` as they run on the server's side. The CLI opens no
 * database and imports no server code: it loads this file's compiled entry
 * (dist/server/database-commands.mjs, built with the server) at run time. Backup needs no key
 * and works whether Herald runs or not (SQLite's online backup API); restore must run with
 * Herald stopped, so neither can go through the API the way every other command does.
 */
import { loadConfig } from './core/config.js';
import {
  backupDatabase,
  checkBackupFile,
  restoreDatabase,
  type BackupResult,
  type RestoreResult,
} from './db/backup.js';

/** Where the database lives: `dataDir`, else HERALD_DATA_DIR, else the OS app-data folder. */
const databaseOf = (dataDir?: string) => loadConfig(process.env, dataDir ? { HERALD_DATA_DIR: dataDir } : {}).dbPath;

/** Copies the database to `target` (an absolute path) and checks the copy before answering. */
export async function backup(
  target: string,
  opts: { dataDir?: string } = {},
): Promise<BackupResult & { verified: true }> {
  const result = await backupDatabase(databaseOf(opts.dataDir), target);
  checkBackupFile(target);
  return { ...result, verified: true };
}

/** Puts the backup `file` back as the database (refused while anything has it open). */
export function restore(file: string, opts: { dataDir?: string } = {}): RestoreResult {
  return restoreDatabase(file, databaseOf(opts.dataDir));
}
