import { and, asc, eq } from 'drizzle-orm';
import type { Account } from '../../contracts/accounts.js';
import type { Deps } from '../deps.js';
import { accounts } from '../../db/schema.js';
import { HeraldError } from '../../core/errors.js';
import { accountSecretName } from '../../secrets/secret-store.js';

export type AccountRow = typeof accounts.$inferSelect;

export function toAccountDto(r: AccountRow): Account {
  return {
    uuid: r.id,
    platform: r.platform as Account['platform'],
    platform_user_id: r.platformUserId,
    username: r.username,
    display_name: r.displayName,
    avatar: r.avatar,
    status: r.status as Account['status'],
    followers_count: r.followersCount,
    following_count: r.followingCount,
    created_at: r.createdAt,
  };
}

export class AccountsService {
  constructor(private readonly deps: Deps) {}

  list(userId: string): Account[] {
    return this.deps.db.select().from(accounts).where(eq(accounts.userId, userId)).orderBy(asc(accounts.createdAt), asc(accounts.id)).all().map(toAccountDto);
  }

  row(userId: string, id: string): AccountRow {
    const row = this.deps.db.select().from(accounts).where(and(eq(accounts.id, id), eq(accounts.userId, userId))).get();
    if (!row) throw new HeraldError('NOT_FOUND', 'Account not found');
    return row;
  }

  get(userId: string, id: string): Account {
    return toAccountDto(this.row(userId, id));
  }

  /** Unbinds the account: gone from every social set (foreign keys) and its tokens from the secret store. */
  async remove(userId: string, id: string): Promise<void> {
    const row = this.row(userId, id);
    this.deps.db.delete(accounts).where(eq(accounts.id, row.id)).run();
    try {
      await this.deps.secrets.delete(accountSecretName(row.id));
    } catch (err) {
      this.deps.log.error(`Herald could not remove the tokens of account ${row.id} from the secret store`, err);
    }
  }
}
