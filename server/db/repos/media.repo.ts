/** Media items: one row per stored file in the media folder. */
import type { Sqlite } from '../connection.js';
import type { media } from '../schema.js';
import { MEDIA_COLUMNS as COLUMNS } from './columns.js';
import { lazyStatements } from './statements.js';

export type MediaRow = typeof media.$inferSelect;

export class MediaRepo {
  private readonly s;

  constructor(private readonly sqlite: Sqlite) {
    this.s = lazyStatements({
      own: () => sqlite.prepare(`SELECT ${COLUMNS} FROM media WHERE id = ? AND user_id = ?`),
      byId: () => sqlite.prepare(`SELECT ${COLUMNS} FROM media WHERE id = ?`),
      fileNames: () => sqlite.prepare('SELECT file_name FROM media').pluck(),
      insert: () =>
        sqlite.prepare(`INSERT INTO media (id, user_id, file_name, type, mime, size, width, height, alt_text,
                created_at, title, captions, duration_ms, pages)
        VALUES (@id, @userId, @fileName, @type, @mime, @size, @width, @height, @altText, @createdAt, @title,
                @captions, @durationMs, @pages)`),
      setAltText: () => sqlite.prepare('UPDATE media SET alt_text = ? WHERE id = ? AND user_id = ?'),
      setTitle: () => sqlite.prepare('UPDATE media SET title = ? WHERE id = ? AND user_id = ?'),
      setCaptions: () => sqlite.prepare('UPDATE media SET captions = ? WHERE id = ? AND user_id = ?'),
      delete: () => sqlite.prepare('DELETE FROM media WHERE id = ?'),
    });
  }

  own(userId: string, id: string): MediaRow | undefined {
    return this.s.own.get(id, userId) as MediaRow | undefined;
  }

  byId(id: string): MediaRow | undefined {
    return this.s.byId.get(id) as MediaRow | undefined;
  }

  /** The file name of every media row (to tell orphaned files from kept ones). */
  fileNames(): string[] {
    return this.s.fileNames.all() as string[];
  }

  /** All or nothing. */
  insertAll(rows: MediaRow[]): void {
    this.sqlite.transaction(() => {
      for (const r of rows) this.s.insert.run(r);
    })();
  }

  setAltText(userId: string, id: string, altText: string): void {
    this.s.setAltText.run(altText, id, userId);
  }

  setTitle(userId: string, id: string, title: string): void {
    this.s.setTitle.run(title, id, userId);
  }

  /** `captions`: the JSON array as stored. */
  setCaptions(userId: string, id: string, captions: string): void {
    this.s.setCaptions.run(captions, id, userId);
  }

  delete(id: string): void {
    this.s.delete.run(id);
  }
}
