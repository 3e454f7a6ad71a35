/** Post templates: a head and a tail framing a draft's posts, in plain text and HTML. */
import type { Sqlite } from '../connection.js';
import type { templates } from '../schema.js';
import { lazyStatements } from './statements.js';

export type TemplateRow = typeof templates.$inferSelect;

const COLUMNS = `id, user_id AS userId, name, description, head_plain AS headPlain, tail_plain AS tailPlain, head_html
    AS headHtml,
  tail_html AS tailHtml, created_at AS createdAt, updated_at AS updatedAt`;

export class TemplatesRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      listOf: () =>
        sqlite.prepare(`SELECT ${COLUMNS} FROM templates WHERE user_id = ? ORDER BY created_at DESC, id DESC`),
      own: () => sqlite.prepare(`SELECT ${COLUMNS} FROM templates WHERE id = ? AND user_id = ?`),
      insert: () =>
        sqlite.prepare(`INSERT INTO templates (id, user_id, name, description, head_plain, tail_plain, head_html,
                tail_html, created_at, updated_at)
        VALUES (@id, @userId, @name, @description, @headPlain, @tailPlain, @headHtml, @tailHtml, @createdAt,
                @updatedAt)`),
      update: () =>
        sqlite.prepare(`UPDATE templates SET name = @name, description = @description, head_plain = @headPlain,
                tail_plain = @tailPlain,
        head_html = @headHtml, tail_html = @tailHtml, updated_at = @updatedAt WHERE id = @id`),
      delete: () => sqlite.prepare('DELETE FROM templates WHERE id = ?'),
    });
  }

  /** Newest first. */
  listOf(userId: string): TemplateRow[] {
    return this.s.listOf.all(userId) as TemplateRow[];
  }

  own(userId: string, id: string): TemplateRow | undefined {
    return this.s.own.get(id, userId) as TemplateRow | undefined;
  }

  insert(row: TemplateRow): void {
    this.s.insert.run(row);
  }

  /** Writes every editable column of `row` (its id, owner and creation time stay). */
  update(row: TemplateRow): void {
    this.s.update.run(row);
  }

  delete(id: string): void {
    this.s.delete.run(id);
  }
}
