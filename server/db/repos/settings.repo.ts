/**
 * The install's own stores beside the tables: the settings file (`<data dir>/config.json`, read
 * at start, under the environment) and online copies of the database.
 */
import fs from 'node:fs';
import { backupConnection, type BackupResult } from '../backup.js';
import type { Sqlite } from '../connection.js';

export class SettingsRepo {
  constructor(private readonly sqlite: Sqlite) {}

  /** The settings file's values; {} when there is none yet (or it is not a JSON object). */
  readFile(file: string): Record<string, unknown> {
    try {
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  /** Merges `values` into the settings file, written whole beside it and renamed (0600). */
  saveFile(file: string, values: Record<string, unknown>): void {
    const saved = this.readFile(file);
    Object.assign(saved, values);
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(saved, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }

  /** An online copy of the database into `file` (see backupConnection). */
  backup(file: string): Promise<BackupResult> {
    return backupConnection(this.sqlite, file);
  }
}
