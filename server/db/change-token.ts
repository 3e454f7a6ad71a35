/**
 * A token that changes whenever the database may have changed since it was last read: any row
 * this connection inserted, updated or deleted (total_changes(), which counts trigger and
 * foreign-key cascade changes too) or any commit by another connection, in this process or
 * another one (PRAGMA data_version). Reading it is one tiny prepared statement, so an answer
 * computed from the database can be kept and reused for as long as the token stays the same.
 */
import type { Sqlite } from './connection.js';

export type ChangeToken = () => string;

export function changeToken(sqlite: Sqlite): ChangeToken {
  const stmt = sqlite.prepare('SELECT total_changes(), data_version FROM pragma_data_version').raw(true);
  return () => {
    const [changes, version] = stmt.get() as [number, number];
    return `${changes}:${version}`;
  };
}
