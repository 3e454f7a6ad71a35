/**
 * The queue's view of schedule_entries: entries placed in a social set's weekly slots carry
 * `queue_set_id`, and their `requested_at` is the slot's instant (their `fire_at` adds jitter).
 * A slot is taken while a pending entry holds it.
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface QueuedDraft {
  draftId: string;
  title: string;
  slotAt: number;
}

export class QueueRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      taken: () =>
        sqlite
          .prepare(
            'SELECT DISTINCT requested_at FROM schedule_entries WHERE queue_set_id = ? AND status = ' +
              "'pending' AND requested_at > ?",
          )
          .pluck(),
      queued: () =>
        sqlite.prepare(`SELECT e.draft_id AS draftId, d.title AS title, e.requested_at AS slotAt FROM schedule_entries e
                JOIN drafts d ON d.id = e.draft_id
        WHERE e.queue_set_id = ? AND e.user_id = ? AND e.status = 'pending' AND e.requested_at > ?
        GROUP BY e.draft_id, e.requested_at ORDER BY e.requested_at, e.draft_id`),
      slotOf: () =>
        sqlite
          .prepare(
            'SELECT MIN(requested_at) FROM schedule_entries WHERE draft_id = ? AND queue_set_id = ? AND ' +
              "status = 'pending'",
          )
          .pluck(),
      at: () =>
        sqlite
          .prepare(
            "SELECT DISTINCT draft_id FROM schedule_entries WHERE queue_set_id = ? AND status = 'pending' " +
              'AND requested_at = ?',
          )
          .pluck(),
      // Each entry keeps its own jitter (fire_at - requested_at) around the new slot, never in the past.
      move: () =>
        sqlite.prepare(`UPDATE schedule_entries SET fire_at = MAX(@earliest, @to + fire_at - requested_at), due_at =
                    MAX(@earliest, @to + fire_at - requested_at),
          requested_at = @to, next_attempt_at = NULL WHERE draft_id = @draftId AND queue_set_id = @setId AND status =
                    'pending'`),
    });
  }

  /** The slot instants after `after` that queued drafts of the set hold. */
  taken(setId: string, after: number): Set<number> {
    return new Set(this.s.taken.all(setId, after) as number[]);
  }

  /** The set's queued drafts with the slot each holds, soonest first. */
  queued(userId: string, setId: string, after: number): QueuedDraft[] {
    return this.s.queued.all(setId, userId, after) as QueuedDraft[];
  }

  /** The slot a draft holds in the set's queue, or null when it is not queued there. */
  slotOf(draftId: string, setId: string): number | null {
    return (this.s.slotOf.get(draftId, setId) as number | null) ?? null;
  }

  /** The drafts holding a slot of the set. */
  draftsAt(setId: string, at: number): string[] {
    return this.s.at.all(setId, at) as string[];
  }

  /** Moves a draft's queued entries to another slot (call inside a transaction). */
  move(draftId: string, setId: string, to: number, earliest: number): number {
    return this.s.move.run({ draftId, setId, to, earliest }).changes;
  }
}
