/**
 * Saving a connected account, whichever way it connected (OAuth, an app password, sign-in with
 * X), and the rules of reconnecting: one network user is one account, and a Reconnect replaces
 * the tokens of the account it names only when the same network user signed in.
 */
import { accountHandle } from '../../core/handles.js';
import type { Platform } from '../../core/config.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { Credentials, Identity } from '../../platforms/adapter.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import { tokenFacts } from '../accounts/health.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';

/** How a connection was asked for: where the account goes, and whether it reconnects one. */
export interface ConnectOptions {
  socialSetId?: string;
  mode?: 'create_new' | 'add_to_existing';
  followOnPlatform?: boolean;
  /** Mastodon only. */
  instanceUrl?: string;
  /** The account being reconnected: its tokens are replaced in place, and only by its own network user. */
  reconnect?: string;
}

/** What saving a connected account did, in words the person reads (the UI shows `message` as is). */
export interface SavedAccount {
  accountId: string;
  socialSetId: string;
  alreadyConnected: boolean;
  reconnected: boolean;
  message: string;
}

/** Saves connected accounts for ConnectionsService and its OAuth part. */
export class ConnectAccounts {
  constructor(
    private readonly deps: Deps,
    private readonly creds: CredentialsService,
    private readonly sets: SocialSetsService,
    private readonly accounts: AccountsRepo,
  ) {}

  /** The caller's account of `platform` to reconnect (404 otherwise, as for any account not theirs). */
  reconnectTarget(userId: string, platform: Platform, accountId: string) {
    const row = this.accounts.own(userId, accountId);
    if (!row || row.platform !== platform)
      throw new HeraldError('NOT_FOUND', `No ${NETWORK_NAMES[platform]} account with that id to reconnect`);
    return row;
  }

  /**
   * Creates or updates the account row, stores its credentials, and puts it in a set. One network
   * user is one account: connecting it again (a Reconnect, or a fresh Connect of an account already
   * here) replaces its tokens in place, keeping its id, sets and schedule, and says which happened.
   * A Reconnect that signed in as another network user changes nothing and says so.
   */
  async save(
    userId: string,
    platform: Platform,
    id: Identity,
    credentials: Credentials,
    opts: ConnectOptions,
  ): Promise<SavedAccount> {
    const net = NETWORK_NAMES[platform];
    const target = opts.reconnect ? this.reconnectTarget(userId, platform, opts.reconnect) : undefined;
    if (target && target.platformUserId !== id.platformUserId) {
      throw new HeraldError(
        'INVALID_INPUT',
        `You signed in to ${net} as ${accountHandle(platform, id.username)}, but the account to reconnect is ` +
          `${accountHandle(platform, target.username)}. ` +
          `Nothing was changed: sign in to ${net} as ${accountHandle(platform, target.username)} and ` +
          `reconnect again, or use Connect ` +
          `to add ${accountHandle(platform, id.username)} as another account.`,
      );
    }
    const existing = target ?? this.accounts.find(userId, platform, id.platformUserId);
    const accountId = existing?.id ?? this.deps.ids.uuid();
    // Secrets first: an account row without credentials would look connected but fail.
    await this.creds.save(accountId, credentials);
    const values = {
      username: id.username,
      displayName: id.displayName,
      avatar: id.avatar,
      status: 'active',
      followersCount: id.followersCount,
      followingCount: id.followingCount,
      serverUrl: id.serverUrl ?? null,
      // Reconnecting starts afresh: the new token's facts, no rate limit remembered.
      meta: JSON.stringify({ ...(id.meta ?? {}), token: tokenFacts(this.deps.platforms.get(platform), credentials) }),
    };
    if (existing) this.accounts.setProfile(accountId, values);
    else
      this.accounts.insert({
        id: accountId,
        userId,
        platform,
        platformUserId: id.platformUserId,
        createdAt: nowIso(this.deps.clock),
        ...values,
      });
    // An account already here keeps its sets; a set is added only when asked for (docs/decisions.md §4:
    // `mode: create_new` makes a new set named after the handle, also for an account already here).
    const socialSetId = this.sets.attachAccount(userId, accountId, {
      socialSetId: opts.socialSetId,
      mode: opts.mode,
      handle: id.username,
    });
    const reconnected = target !== undefined;
    const alreadyConnected = !reconnected && existing !== undefined;
    const as = accountHandle(platform, id.username);
    const message = reconnected
      ? `Reconnected ${net} as ${as}: new tokens saved; its sets and scheduled posts are unchanged.`
      : alreadyConnected
        ? `Already connected as ${as} on ${net} — tokens refreshed; no second account was added.`
        : `Connected ${net} as ${as}.`;
    return { accountId, socialSetId, alreadyConnected, reconnected, message };
  }
}
