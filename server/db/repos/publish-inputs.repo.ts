/**
 * What a publish reads from the stored things: the draft as it is sent (its posts and per-network
 * overrides), the target accounts, and the media rows of its posts. Prepared once per connection:
 * every publish, a scheduled one each time it fires, reads them. (The stored things' own CRUD is
 * in their repos; these are the publisher's reads, shaped for it.)
 */
import type { Sqlite } from '../connection.js';
import type { accounts, media } from '../schema.js';
import { lazyStatements } from './statements.js';

export type AccountRow = typeof accounts.$inferSelect;
export type MediaRow = typeof media.$inferSelect;

/** Every column of an accounts row, named as drizzle names them (AccountRow). */
const ACCOUNT_COLS = `id, user_id AS userId, platform, platform_user_id AS platformUserId, username, display_name AS
    displayName, avatar, status,
  followers_count AS followersCount, following_count AS followingCount, server_url AS serverUrl, meta, created_at AS
    createdAt`;

/** Every column of a media row, named as drizzle names them (MediaRow). */
const MEDIA_COLS =
  'id, user_id AS userId, file_name AS fileName, type, mime, size, width, height, alt_text AS altText, ' +
  'created_at AS createdAt';

export interface DraftSourceRow {
  id: string;
  userId: string;
  title: string;
  status: string;
  socialSetId: string | null;
  selectedAccountIds: string;
  /** BCP 47 or null (the setting defaultLanguage). */
  language: string | null;
  /** null, 'false' or JSON `{url}` (schema.ts). */
  linkCard: string | null;
}

export class PublishInputsRepo {
  private readonly s;

  constructor(sqlite: Sqlite) {
    this.s = lazyStatements({
      draft: () =>
        sqlite.prepare(`SELECT id, user_id AS userId, title, status, social_set_id AS socialSetId, selected_account_ids
                AS selectedAccountIds,
        language, link_card AS linkCard FROM drafts WHERE id = ? AND user_id = ?`),
      posts: () =>
        sqlite.prepare('SELECT plain_text AS plainText, media FROM tweets WHERE draft_id = ? ORDER BY position'),
      overrides: () => sqlite.prepare('SELECT platform, content FROM platform_contents WHERE draft_id = ?'),
      // One statement for every target (a schedule request may name dozens of accounts).
      accounts: () =>
        sqlite.prepare(
          `SELECT ${ACCOUNT_COLS} FROM accounts WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
        ),
      accountById: () => sqlite.prepare(`SELECT ${ACCOUNT_COLS} FROM accounts WHERE id = ?`),
      mediaKinds: () =>
        sqlite.prepare('SELECT id, type, size FROM media WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))'),
      mediaById: () => sqlite.prepare(`SELECT ${MEDIA_COLS} FROM media WHERE id = ?`),
    });
  }

  draft(userId: string, draftId: string): DraftSourceRow | undefined {
    return this.s.draft.get(draftId, userId) as DraftSourceRow | undefined;
  }

  /** The draft's posts in order, media as stored (JSON). */
  posts(draftId: string): { plainText: string; media: string }[] {
    return this.s.posts.all(draftId) as { plainText: string; media: string }[];
  }

  overrides(draftId: string): { platform: string; content: string }[] {
    return this.s.overrides.all(draftId) as { platform: string; content: string }[];
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
  mediaKinds(userId: string, ids: string[]): { id: string; type: string; size: number }[] {
    if (ids.length === 0) return [];
    return this.s.mediaKinds.all(userId, JSON.stringify(ids)) as { id: string; type: string; size: number }[];
  }

  mediaRow(id: string): MediaRow | undefined {
    return this.s.mediaById.get(id) as MediaRow | undefined;
  }
}
