/**
 * Drafts, their posts (the `tweets` table) and their per-network text, and the reads behind
 * every draft answer, as prepared statements: the draft list is the hottest keyed route, and a
 * query built per request costs about half the throughput. Lists of ids go in as one JSON
 * parameter (json_each), so one statement serves any number of them. Every draft column is
 * written here and nowhere else: the publishing side's status updates belong at the end of the
 * class, after the content writes.
 */
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../connection.js';
import type { drafts, platformContents, tweets } from '../schema.js';
import type { AccountRow } from './accounts.repo.js';
import { ACCOUNT_COLUMNS } from './columns.js';
import { lazyStatements } from './statements.js';

export type DraftRow = typeof drafts.$inferSelect;
export type TweetRow = typeof tweets.$inferSelect;
export type PlatformRow = typeof platformContents.$inferSelect;
export type { AccountRow };

const DRAFT_COLUMNS = `id, user_id AS userId, title, status, scheduled_for AS scheduledFor, social_set_id AS
    socialSetId,
  selected_account_ids AS selectedAccountIds, template_id AS templateId, created_at AS createdAt, updated_at AS
    updatedAt,
  language, link_card AS linkCard, options`;
const PLATFORM_COLUMNS = 'id, draft_id AS draftId, platform, content, created_at AS createdAt, updated_at AS updatedAt';

export interface ListFilter {
  socialSetId?: string;
  status?: string;
  /** [createdAt, id] of the last draft of the previous page. */
  after?: [string, string];
  limit?: number;
}

export class DraftsRepo {
  private readonly stmts: ReturnType<DraftsRepo['prepare']>;

  constructor(private readonly sqlite: Sqlite) {
    this.stmts = this.prepare();
  }

  private prepare() {
    const s = this.sqlite;
    return lazyStatements({
      draft: () => s.prepare(`SELECT ${DRAFT_COLUMNS} FROM drafts WHERE id = ? AND user_id = ?`),
      tweets: () =>
        s.prepare(`SELECT id, draft_id AS draftId, position, content, plain_text AS plainText, media FROM tweets
        WHERE draft_id IN (SELECT value FROM json_each(?)) ORDER BY draft_id, position`),
      accounts: () => s.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ?`),
      members: () =>
        s.prepare(`SELECT social_set_id AS socialSetId, account_id AS accountId FROM social_set_accounts
        WHERE social_set_id IN (SELECT value FROM json_each(?)) ORDER BY position`),
      media: () =>
        s.prepare(
          `SELECT id, type, size, duration_ms AS durationMs, alt_text AS altText FROM media
           WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
        ),
      insert: () =>
        s.prepare(`INSERT INTO drafts (id, user_id, title, status, scheduled_for, social_set_id, selected_account_ids,
                template_id, created_at, updated_at, language, link_card, options)
        VALUES (@id, @userId, @title, @status, @scheduledFor, @socialSetId, @selectedAccountIds, @templateId,
                @createdAt, @updatedAt, @language, @linkCard, @options)`),
      update: () =>
        s.prepare(`UPDATE drafts SET title = @title, status = @status, scheduled_for = @scheduledFor, social_set_id =
                @socialSetId,
        selected_account_ids = @selectedAccountIds, template_id = @templateId, updated_at = @updatedAt, language =
                @language, link_card = @linkCard, options = @options WHERE id = @id`),
      touch: () => s.prepare('UPDATE drafts SET updated_at = ? WHERE id = ?'),
      delete: () => s.prepare('DELETE FROM drafts WHERE id = ?'),
      clearTweets: () => s.prepare('DELETE FROM tweets WHERE draft_id = ?'),
      insertTweet: () =>
        s.prepare(
          'INSERT INTO tweets (id, draft_id, position, content, plain_text, media) VALUES (@id, @draftId, ' +
            '@position, @content, @plainText, @media)',
        ),
      platforms: () => s.prepare(`SELECT ${PLATFORM_COLUMNS} FROM platform_contents WHERE draft_id = ? ORDER BY id`),
      posts: () => s.prepare('SELECT plain_text AS plainText, media FROM tweets WHERE draft_id = ? ORDER BY position'),
      platformId: () => s.prepare('SELECT id FROM platform_contents WHERE draft_id = ? AND platform = ?').pluck(),
      insertPlatform: () =>
        s.prepare(
          'INSERT INTO platform_contents (draft_id, platform, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        ),
      updatePlatform: () => s.prepare('UPDATE platform_contents SET content = ?, updated_at = ? WHERE id = ?'),
      deletePlatform: () => s.prepare('DELETE FROM platform_contents WHERE draft_id = ? AND platform = ?'),
    });
  }

  draft(userId: string, id: string): DraftRow | undefined {
    return this.stmts.draft.get(id, userId) as DraftRow | undefined;
  }

  // One statement per combination of filters, so each keeps a plain plan on the
  // (user_id, created_at) index instead of one catch-all with `? IS NULL OR …` terms.
  private readonly listStmts = new Map<string, Statement>();

  /** Newest first. */
  list(userId: string, f: ListFilter): DraftRow[] {
    const terms = ['user_id = @userId'];
    if (f.socialSetId !== undefined) terms.push('social_set_id = @setId');
    if (f.status !== undefined) terms.push('status = @status');
    if (f.after) terms.push('(created_at < @afterAt OR (created_at = @afterAt AND id < @afterId))');
    const sql = `SELECT ${DRAFT_COLUMNS} FROM drafts WHERE ${terms.join(' AND ')} ORDER BY created_at DESC, id
            DESC${f.limit ? ' LIMIT @limit' : ''}`;
    let stmt = this.listStmts.get(sql);
    if (!stmt) {
      stmt = this.sqlite.prepare(sql);
      this.listStmts.set(sql, stmt);
    }
    const params: Record<string, unknown> = { userId };
    if (f.socialSetId !== undefined) params.setId = f.socialSetId;
    if (f.status !== undefined) params.status = f.status;
    if (f.after) {
      params.afterAt = f.after[0];
      params.afterId = f.after[1];
    }
    if (f.limit) params.limit = f.limit;
    return stmt.all(params) as DraftRow[];
  }

  /** Posts of these drafts, grouped by draft and ordered by position. */
  /** One draft's posts in order, as the publisher sends them (plain text, media as stored JSON). */
  posts(draftId: string): { plainText: string; media: string }[] {
    return this.stmts.posts.all(draftId) as { plainText: string; media: string }[];
  }

  tweetsOf(draftIds: string[]): TweetRow[] {
    return this.stmts.tweets.all(JSON.stringify(draftIds)) as TweetRow[];
  }

  accountsOf(userId: string): AccountRow[] {
    return this.stmts.accounts.all(userId) as AccountRow[];
  }

  /** Accounts of these sets, in each set's order. */
  membersOf(setIds: string[]): { socialSetId: string; accountId: string }[] {
    return this.stmts.members.all(JSON.stringify(setIds)) as { socialSetId: string; accountId: string }[];
  }

  mediaTypes(
    userId: string,
    ids: string[],
  ): { id: string; type: string; size: number; durationMs: number | null; altText: string }[] {
    return this.stmts.media.all(userId, JSON.stringify(ids)) as {
      id: string;
      type: string;
      size: number;
      durationMs: number | null;
      altText: string;
    }[];
  }

  // ---- writing (call inside a transaction when several go together) ---------------------------

  insert(row: DraftRow): void {
    this.stmts.insert.run(row);
  }

  /** Writes every editable column of `row` (its id, owner and creation time stay). */
  update(row: DraftRow): void {
    this.stmts.update.run(row);
  }

  touch(id: string, updatedAt: string): void {
    this.stmts.touch.run(updatedAt, id);
  }

  /** Its posts, per-network text and pending schedule entries go with it (foreign keys). */
  delete(id: string): void {
    this.stmts.delete.run(id);
  }

  /** Replaces the draft's posts with these. */
  replaceTweets(draftId: string, list: Omit<TweetRow, 'draftId'>[]): void {
    this.stmts.clearTweets.run(draftId);
    for (const t of list) this.stmts.insertTweet.run({ ...t, draftId });
  }

  // ---- per-network text --------------------------------------------------------------------------

  /** Oldest first. */
  platforms(draftId: string): PlatformRow[] {
    return this.stmts.platforms.all(draftId) as PlatformRow[];
  }

  /** Updates the network's text in place (same id), or adds it. */
  putPlatform(draftId: string, platform: string, content: string, now: string): void {
    const id = this.stmts.platformId.get(draftId, platform) as number | undefined;
    if (id !== undefined) this.stmts.updatePlatform.run(content, now, id);
    else this.stmts.insertPlatform.run(draftId, platform, content, now, now);
  }

  deletePlatform(draftId: string, platform: string): void {
    this.stmts.deletePlatform.run(draftId, platform);
  }
}
