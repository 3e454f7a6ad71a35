/**
 * What a publish reads from the stored things: the draft as it is sent (its posts and per-network
 * overrides), the target accounts, and the media rows of its posts. Prepared once per connection:
 * every publish, a scheduled one each time it fires, reads them. (The stored things' own CRUD is
 * in their repos; these are the publisher's reads, shaped for it.)
 */
import type { Sqlite } from '../connection.js';
import type { accounts, media } from '../schema.js';
import { ACCOUNT_COLUMNS, MEDIA_COLUMNS } from './columns.js';
import type { DraftRow, DraftsRepo } from './drafts.repo.js';
import { lazyStatements } from './statements.js';

export type AccountRow = typeof accounts.$inferSelect;
export type MediaRow = typeof media.$inferSelect;
export type MediaFacts = { id: string; type: string; size: number; durationMs: number | null; altText: string };

/** The draft as the publisher reads it: the drafts repo's row (one reader for the API and the publisher). */
export type DraftSourceRow = Pick<
  DraftRow,
  'id' | 'userId' | 'title' | 'status' | 'socialSetId' | 'selectedAccountIds' | 'language' | 'linkCard' | 'options'
>;

export class PublishInputsRepo {
  private readonly s;

  /** `drafts`: the one reader of drafts, their posts and per-network text (the API's too). */
  constructor(
    sqlite: Sqlite,
    private readonly drafts: DraftsRepo,
  ) {
    this.s = lazyStatements({
      // One statement for every target (a schedule request may name dozens of accounts).
      accounts: () =>
        sqlite.prepare(
          `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
        ),
      accountById: () => sqlite.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`),
      mediaKinds: () =>
        sqlite.prepare(
          `SELECT id, type, size, duration_ms AS durationMs, alt_text AS altText FROM media
           WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
        ),
      mediaById: () => sqlite.prepare(`SELECT ${MEDIA_COLUMNS} FROM media WHERE id = ?`),
    });
  }

  draft(userId: string, draftId: string): DraftSourceRow | undefined {
    return this.drafts.draft(userId, draftId);
  }

  /** The draft's posts in order, media as stored (JSON). */
  posts(draftId: string): { plainText: string; media: string }[] {
    return this.drafts.posts(draftId);
  }

  overrides(draftId: string): { platform: string; content: string }[] {
    return this.drafts.platforms(draftId);
  }

  /** This user's accounts among `ids`. */
  accountsOf(userId: string, ids: string[]): AccountRow[] {
    return this.s.accounts.all(userId, JSON.stringify(ids)) as AccountRow[];
  }

  /** The account by id, whoever owns it (raw columns, as the runner reads it on every send). */
  account(id: string): AccountRow | undefined {
    return this.s.accountById.get(id) as AccountRow | undefined;
  }

  /** The account by id (as a resumed publication and the quota gate read it). */
  accountRow(id: string): AccountRow | undefined {
    return this.account(id);
  }

  /** Type and size of this user's media items among `ids`. */
  mediaKinds(userId: string, ids: string[]): MediaFacts[] {
    if (ids.length === 0) return [];
    return this.s.mediaKinds.all(userId, JSON.stringify(ids)) as MediaFacts[];
  }

  mediaRow(id: string): MediaRow | undefined {
    return this.s.mediaById.get(id) as MediaRow | undefined;
  }
}
