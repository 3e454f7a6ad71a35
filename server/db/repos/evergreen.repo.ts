/** Evergreen settings and fills, and the publication facts the fill rule reads. */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface EvergreenRow {
  draftId: string;
  userId: string;
  enabled: number;
  minDaysBetween: number;
  maxRepeats: number | null;
  variants: string;
  stalled: string | null;
  updatedAt: string;
}

export interface FillRow {
  draftId: string;
  slotAt: number;
  status: 'queued' | 'cleared';
  skipped: string;
}

const COLS =
  'draft_id AS draftId, user_id AS userId, enabled, min_days_between AS minDaysBetween, max_repeats AS maxRepeats, ' +
  'variants, stalled, updated_at AS updatedAt';

export class EvergreenRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      get: () => sqlite.prepare(`SELECT ${COLS} FROM evergreen_drafts WHERE draft_id = ? AND user_id = ?`),
      upsert: () =>
        sqlite.prepare(
          'INSERT INTO evergreen_drafts (draft_id, user_id, enabled, min_days_between, max_repeats, variants, ' +
            'stalled, updated_at) VALUES (@draftId, @userId, @enabled, @minDaysBetween, @maxRepeats, @variants, ' +
            'NULL, @updatedAt) ON CONFLICT(draft_id) DO UPDATE SET enabled = excluded.enabled, ' +
            'min_days_between = excluded.min_days_between, max_repeats = excluded.max_repeats, ' +
            'variants = excluded.variants, stalled = NULL, updated_at = excluded.updated_at',
        ),
      enabled: () => sqlite.prepare(`SELECT ${COLS} FROM evergreen_drafts WHERE user_id = ? AND enabled = 1`),
      all: () => sqlite.prepare(`SELECT ${COLS} FROM evergreen_drafts WHERE user_id = ?`),
      users: () => sqlite.prepare('SELECT DISTINCT user_id FROM evergreen_drafts WHERE enabled = 1').pluck(),
      stalled: () => sqlite.prepare('UPDATE evergreen_drafts SET stalled = ? WHERE draft_id = ?'),
      lastPublished: () =>
        sqlite
          .prepare("SELECT MAX(published_at) FROM publications WHERE draft_id = ? AND status = 'published'")
          .pluck(),
      repeats: () =>
        sqlite.prepare("SELECT COUNT(*) FROM evergreen_fills WHERE draft_id = ? AND status = 'queued'").pluck(),
      fills: () =>
        sqlite.prepare(
          'SELECT draft_id AS draftId, slot_at AS slotAt, status, skipped FROM evergreen_fills ' +
            'WHERE set_id = ? AND slot_at > ? ORDER BY slot_at',
        ),
      insertFill: () =>
        sqlite.prepare(
          'INSERT OR IGNORE INTO evergreen_fills (user_id, draft_id, set_id, slot_at, status, skipped, created_at) ' +
            "VALUES (?, ?, ?, ?, 'queued', ?, ?)",
        ),
      clear: () =>
        sqlite.prepare(
          "UPDATE evergreen_fills SET status = 'cleared' WHERE user_id = ? AND set_id = ? AND slot_at = ? " +
            "AND status = 'queued' RETURNING draft_id AS draftId, skipped",
        ),
      setSkipped: () => sqlite.prepare('UPDATE evergreen_fills SET skipped = ? WHERE set_id = ? AND slot_at = ?'),
      dropSkipped: () => sqlite.prepare("DELETE FROM publications WHERE id = ? AND status = 'skipped'"),
      dropDraftSkips: () => sqlite.prepare("DELETE FROM publications WHERE draft_id = ? AND status = 'skipped'"),
      queuedAt: () =>
        sqlite.prepare(
          'SELECT id, skipped FROM evergreen_fills WHERE set_id = ? AND slot_at = ? AND draft_id = ? ' +
            "AND status = 'queued'",
        ),
      release: () => sqlite.prepare("UPDATE evergreen_fills SET status = 'cleared' WHERE id = ?"),
      dropCleared: () =>
        sqlite.prepare("DELETE FROM evergreen_fills WHERE set_id = ? AND slot_at = ? AND status = 'cleared'"),
      moveFill: () => sqlite.prepare('UPDATE evergreen_fills SET slot_at = ? WHERE id = ?'),
      skipTime: () => sqlite.prepare("UPDATE publications SET scheduled_for = ? WHERE id = ? AND status = 'skipped'"),
      sentTexts: () =>
        sqlite
          .prepare(
            'SELECT pp.text FROM publication_parts pp JOIN publications p ON p.id = pp.publication_id ' +
              "WHERE p.account_id = ? AND p.status = 'published' AND pp.position = (SELECT MIN(position) " +
              'FROM publication_parts WHERE publication_id = p.id)',
          )
          .pluck(),
    });
  }

  get(userId: string, draftId: string): EvergreenRow | undefined {
    return this.s.get.get(draftId, userId) as EvergreenRow | undefined;
  }

  upsert(row: Omit<EvergreenRow, 'stalled' | 'enabled'> & { enabled: number }): void {
    this.s.upsert.run(row);
  }

  enabledOf(userId: string): EvergreenRow[] {
    return this.s.enabled.all(userId) as EvergreenRow[];
  }

  /** Every draft of the user with settings, enabled or not. */
  allOf(userId: string): EvergreenRow[] {
    return this.s.all.all(userId) as EvergreenRow[];
  }

  users(): string[] {
    return this.s.users.all() as string[];
  }

  setStalled(draftId: string, reason: string | null): void {
    this.s.stalled.run(reason, draftId);
  }

  /** Epoch ms of the draft's last publication, null when none. */
  lastPublishedAt(draftId: string): number | null {
    const iso = this.s.lastPublished.get(draftId) as string | null;
    return iso ? Date.parse(iso) : null;
  }

  repeats(draftId: string): number {
    return this.s.repeats.get(draftId) as number;
  }

  /** The set's fills after `after` (cleared ones too: their slots stay empty). */
  fills(setId: string, after: number): FillRow[] {
    return this.s.fills.all(setId, after) as FillRow[];
  }

  /** False when the slot had a fill already. */
  addFill(userId: string, draftId: string, setId: string, slotAt: number, skipped: string, now: number): boolean {
    return this.s.insertFill.run(userId, draftId, setId, slotAt, skipped, now).changes > 0;
  }

  /** Marks the fill cleared; answers its draft and skips, or undefined when the slot held no fill. */
  clear(userId: string, setId: string, slotAt: number): { draftId: string; skipped: string } | undefined {
    return this.s.clear.get(userId, setId, slotAt) as { draftId: string; skipped: string } | undefined;
  }

  setSkipped(setId: string, slotAt: number, skipped: string): void {
    this.s.setSkipped.run(skipped, setId, slotAt);
  }

  /** Removes the `skipped` publications of a fill turned back into an empty slot. */
  dropSkipped(publicationIds: string[]): void {
    for (const id of publicationIds) this.s.dropSkipped.run(id);
  }

  /** The draft's queued fill of a slot, if it has one. */
  queuedAt(setId: string, slotAt: number, draftId: string): { id: number; skipped: string } | undefined {
    return this.s.queuedAt.get(setId, slotAt, draftId) as { id: number; skipped: string } | undefined;
  }

  /** Marks a fill cleared: its slot stays empty, and it is no repeat. */
  release(fillId: number): void {
    this.s.release.run(fillId);
  }

  /**
   * Moves fills to other slots of their set (call inside a transaction). A cleared fill at a
   * destination gives way: the person put a draft there. Two fills may swap slots.
   */
  moveFills(setId: string, moves: { id: number; to: number }[]): void {
    // Parked at a negative instant first, so a swap never meets the slot's unique index.
    for (const m of moves) this.s.moveFill.run(-m.id, m.id);
    for (const m of moves) {
      this.s.dropCleared.run(setId, m.to);
      this.s.moveFill.run(m.to, m.id);
    }
  }

  /** A moved fill's `skipped` publications follow it to the new slot's time. */
  retimeSkips(publicationIds: string[], scheduledFor: string): void {
    for (const id of publicationIds) this.s.skipTime.run(scheduledFor, id);
  }

  /** Removes every `skipped` publication of a draft being deleted (they record no post, only its repeats). */
  dropDraftSkips(draftId: string): void {
    this.s.dropDraftSkips.run(draftId);
  }

  /** The first-post texts already published to an account. */
  sentTexts(accountId: string): string[] {
    return this.s.sentTexts.all(accountId) as string[];
  }
}
