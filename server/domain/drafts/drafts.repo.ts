/**
 * The reads behind every draft answer, as prepared statements: the draft list is the hottest
 * keyed route, and a query built per request costs about half the throughput. Lists of ids go
 * in as one JSON parameter (json_each), so one statement serves any number of them.
 */
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../db/connection.js';
import type { accounts, drafts, tweets } from '../../db/schema.js';

export type DraftRow = typeof drafts.$inferSelect;
export type TweetRow = typeof tweets.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;

const DRAFT_COLUMNS = `id, user_id AS userId, title, status, scheduled_for AS scheduledFor, social_set_id AS socialSetId,
  selected_account_ids AS selectedAccountIds, template_id AS templateId, created_at AS createdAt, updated_at AS updatedAt`;
const ACCOUNT_COLUMNS = `id, user_id AS userId, platform, platform_user_id AS platformUserId, username, display_name AS displayName,
  avatar, status, followers_count AS followersCount, following_count AS followingCount, server_url AS serverUrl, meta, created_at AS createdAt`;

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
    return {
      draft: s.prepare(`SELECT ${DRAFT_COLUMNS} FROM drafts WHERE id = ? AND user_id = ?`),
      tweets: s.prepare(`SELECT id, draft_id AS draftId, position, content, plain_text AS plainText, media FROM tweets
        WHERE draft_id IN (SELECT value FROM json_each(?)) ORDER BY draft_id, position`),
      accounts: s.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ?`),
      members: s.prepare(`SELECT social_set_id AS socialSetId, account_id AS accountId FROM social_set_accounts
        WHERE social_set_id IN (SELECT value FROM json_each(?)) ORDER BY position`),
      media: s.prepare('SELECT id, type FROM media WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))'),
    };
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
    const sql = `SELECT ${DRAFT_COLUMNS} FROM drafts WHERE ${terms.join(' AND ')} ORDER BY created_at DESC, id DESC${f.limit ? ' LIMIT @limit' : ''}`;
    let stmt = this.listStmts.get(sql);
    if (!stmt) { stmt = this.sqlite.prepare(sql); this.listStmts.set(sql, stmt); }
    const params: Record<string, unknown> = { userId };
    if (f.socialSetId !== undefined) params.setId = f.socialSetId;
    if (f.status !== undefined) params.status = f.status;
    if (f.after) { params.afterAt = f.after[0]; params.afterId = f.after[1]; }
    if (f.limit) params.limit = f.limit;
    return stmt.all(params) as DraftRow[];
  }

  /** Posts of these drafts, grouped by draft and ordered by position. */
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

  mediaTypes(userId: string, ids: string[]): { id: string; type: string }[] {
    return this.stmts.media.all(userId, JSON.stringify(ids)) as { id: string; type: string }[];
  }
}
