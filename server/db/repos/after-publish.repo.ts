/**
 * A publication's life after publishing: its sent parts (what a delete takes down), and the
 * marks of a delete or an edit made through Herald.
 */
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export interface PublishedRow {
  id: string;
  userId: string;
  draftId: string | null;
  accountId: string;
  platform: string;
  status: string;
  url: string | null;
  publishedAt: string | null;
  deletedAt: string | null;
  editedAt: string | null;
}

export interface SentPart {
  id: string;
  position: number;
  networkId: string;
  networkCid: string | null;
  url: string | null;
  text: string;
}

export class AfterPublishRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    const db = sqlite;
    this.s = lazyStatements({
      own: () =>
        db.prepare(`SELECT id, user_id AS userId, draft_id AS draftId, account_id AS accountId, platform, status, url,
          published_at AS publishedAt, deleted_at AS deletedAt, edited_at AS editedAt
          FROM publications WHERE id = ? AND user_id = ?`),
      sentParts: () =>
        db.prepare(`SELECT id, position, network_id AS networkId, network_cid AS networkCid, url, text
          FROM publication_parts WHERE publication_id = ? AND network_id IS NOT NULL ORDER BY position`),
      markDeleted: () =>
        db.prepare('UPDATE publications SET deleted_at = @at, updated_at = @at WHERE id = @id AND deleted_at IS NULL'),
      markEdited: () => db.prepare('UPDATE publications SET edited_at = @at, updated_at = @at WHERE id = @id'),
      partText: () => db.prepare('UPDATE publication_parts SET text = ? WHERE id = ?'),
    });
  }

  /** The user's own publication, else undefined. */
  own(id: string, userId: string): PublishedRow | undefined {
    return this.s.own.get(id, userId) as PublishedRow | undefined;
  }

  /** Parts the network holds (sent, with the network's id), in thread order. */
  sentParts(publicationId: string): SentPart[] {
    return this.s.sentParts.all(publicationId) as SentPart[];
  }

  markDeleted(id: string, at: string): void {
    this.s.markDeleted.run({ id, at });
  }

  /** The new text of the edited part, and the publication's edit mark. */
  markEdited(id: string, partId: string, text: string, at: string): void {
    this.s.partText.run(text, partId);
    this.s.markEdited.run({ id, at });
  }
}
