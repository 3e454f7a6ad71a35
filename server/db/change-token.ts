/**
 * A token that changes whenever the database may have changed since it was last read: any row
 * this connection inserted, updated or deleted (total_changes(), which counts trigger and
 * foreign-key cascade changes too) or any commit by another connection, in this process or
 * another one (PRAGMA data_version). Reading it costs well under a microsecond, so an answer
 * computed from the database can be kept and reused for as long as the token stays the same.
 */
import type { Sqlite } from './connection.js';

export type ChangeToken = () => string;

export function changeToken(sqlite: Sqlite): ChangeToken {
  const changes = sqlite.prepare('SELECT total_changes()').pluck();
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  // data_version costs ten times total_changes(), so it is read once per turn of the event loop:
  // another process's commit shows from the next turn on (as if this turn's requests had come a
  // moment earlier), while this connection's own writes always show at once.
  let version: number | undefined;
  return () => {
    if (version === undefined) {
      version = dataVersion.get() as number;
      setImmediate(() => {
        version = undefined;
      });
    }
    return `${changes.get() as number}:${version}`;
  };
}

/**
 * A map whose entries last while the database is unchanged: every read first compares the
 * change token and forgets everything when it moved. For answers read on every request (the key
 * lookup, a credit balance) that would otherwise run the same query again and again. Never
 * inside a transaction: what it reads there may still be rolled back.
 */
export class UntilChanged<K, V> {
  private token = '';
  private readonly entries = new Map<K, V>();
  private readonly changed: ChangeToken;

  constructor(
    private readonly sqlite: Sqlite,
    private readonly max = 1_000,
  ) {
    this.changed = changeToken(sqlite);
  }

  get(key: K, load: () => V): V {
    // Inside a transaction a read may see writes a rollback takes back without moving the token.
    if (this.sqlite.inTransaction) return load();
    const now = this.changed();
    if (now !== this.token) {
      this.entries.clear();
      this.token = now;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    if (value !== undefined) {
      if (this.entries.size >= this.max) this.entries.clear();
      // Read before the load's own writes (if any) moved the token: keep it under the new one only
      // when nothing changed meanwhile.
      if (this.changed() === now) this.entries.set(key, value);
    }
    return value;
  }
}
