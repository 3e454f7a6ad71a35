/**
 * The event stream's table: rows are appended (inside the transaction of the change they tell
 * of), read after an id per user, and purged by age. Nothing else writes it.
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface EventRow {
  id: number;
  userId: string;
  type: string;
  /** JSON text, `at` included. */
  data: string;
  createdAt: number;
}

export class EventsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      insert: () => sqlite.prepare('INSERT INTO events (user_id, type, data, created_at) VALUES (?, ?, ?, ?)'),
      after: () =>
        sqlite.prepare(
          'SELECT id, user_id AS userId, type, data, created_at AS createdAt FROM events WHERE user_id = ? ' +
            'AND id > ? ORDER BY id LIMIT ?',
        ),
      maxId: () => sqlite.prepare('SELECT COALESCE(MAX(id), 0) FROM events').pluck(),
      userMaxId: () => sqlite.prepare('SELECT COALESCE(MAX(id), 0) FROM events WHERE user_id = ?').pluck(),
      purge: () => sqlite.prepare('DELETE FROM events WHERE created_at < ?'),
    });
  }

  append(userId: string, type: string, data: string, createdAt: number): number {
    return Number(this.s.insert.run(userId, type, data, createdAt).lastInsertRowid);
  }

  /** The user's events after `afterId`, oldest first, at most `limit`. */
  after(userId: string, afterId: number, limit: number): EventRow[] {
    return this.s.after.all(userId, afterId, limit) as EventRow[];
  }

  /** The newest id of anyone's events (0 when none): moves when another process appends. */
  maxId(): number {
    return this.s.maxId.get() as number;
  }

  /** The user's newest id (0 when none): where a stream with no Last-Event-ID starts. */
  userMaxId(userId: string): number {
    return this.s.userMaxId.get(userId) as number;
  }

  /** Deletes events older than `before` (epoch ms); returns how many. */
  purgeBefore(before: number): number {
    return this.s.purge.run(before).changes;
  }
}
