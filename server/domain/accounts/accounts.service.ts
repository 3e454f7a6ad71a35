import type { Account } from '../../contracts/accounts.js';
import type { Deps } from '../deps.js';
import type { AccountRow, AccountsRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import { accountSecretName } from '../../secrets/secret-store.js';
import { accountHealth } from './health.js';
import { accountAnalytics } from './analytics-availability.js';
import { countOptionsFromMeta, type Platform } from '../../../text/counting.js';

export type { AccountRow };

/** Counting options the account's meta holds (undefined ones left out). */
function accountLimits(r: AccountRow): Account['limits'] {
  let meta: Record<string, unknown> = {};
  try {
    meta = JSON.parse(r.meta || '{}') as Record<string, unknown>;
  } catch {
    /* unreadable meta: no limits */
  }
  const o = countOptionsFromMeta(r.platform as Platform, meta && typeof meta === 'object' ? meta : {});
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export function toAccountDto(r: AccountRow, now: number, config: Parameters<typeof accountAnalytics>[1]): Account {
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
    server_url: r.serverUrl ?? null,
    limits: accountLimits(r),
    health: accountHealth(r, now),
    analytics: accountAnalytics(r, config),
  };
}

export class AccountsService {
  constructor(
    private readonly deps: Deps,
    private readonly repo: AccountsRepo,
  ) {}

  list(userId: string): Account[] {
    const now = this.deps.clock.now();
    return this.repo.listOf(userId).map((r) => toAccountDto(r, now, this.deps.config));
  }

  row(userId: string, id: string): AccountRow {
    const row = this.repo.own(userId, id);
    if (!row) throw new HeraldError('NOT_FOUND', 'Account not found');
    return row;
  }

  get(userId: string, id: string): Account {
    return toAccountDto(this.row(userId, id), this.deps.clock.now(), this.deps.config);
  }

  /** Unbinds the account: gone from every social set (foreign keys) and its tokens from the secret store. */
  async remove(userId: string, id: string): Promise<void> {
    const row = this.row(userId, id);
    this.repo.delete(row.id);
    try {
      await this.deps.secrets.delete(accountSecretName(row.id));
    } catch (err) {
      this.deps.log.error(`Herald could not remove the tokens of account ${row.id} from the secret store`, err);
    }
  }
}
