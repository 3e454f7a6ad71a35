/**
 * Connecting network accounts to a user: OAuth (X, Mastodon, Threads, LinkedIn) through
 * `start` → the network → `finish`, and Bluesky with an app password. Account rows get only
 * public facts; credentials go to the secret store.
 *
 * The OAuth flows live in connect-oauth.ts, saving an account and the reconnect rules in
 * connect-accounts.ts, the typed server address checks in server-url.ts; the connections that
 * need no browser round trip (an app password, an OAuth flow finished elsewhere) are here.
 */
import type { Platform } from '../../core/config.js';
import { type Deps } from '../deps.js';
import type { AccountsRepo, OAuthStatesRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { Credentials, Identity } from '../../platforms/adapter.js';
import { toHeraldError } from '../platform-errors.js';
import { accountInfo, type CredentialsService } from '../accounts/credentials.service.js';
import { toAccountDto } from '../accounts/accounts.service.js';
import { GuardedFetcher } from '../../net/guarded-fetch.js';
import { OAuthStates } from '../auth/oauth-state.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import type { NetworkAppsService } from '../networks/network-apps.service.js';
import { ConnectOutcomes } from './connect-outcomes.js';
import { blueskyRefusal } from './connect-errors.js';
import { ConnectAccounts, type ConnectOptions } from './connect-accounts.js';
import { ConnectOAuth, type OAuthPlatform } from './connect-oauth.js';
import { normaliseServerUrl, publicServerUrl } from './server-url.js';
import { assertWritable } from '../../secrets/index.js';

export type { ConnectOptions, SavedAccount } from './connect-accounts.js';
export type { OAuthPlatform } from './connect-oauth.js';
export { normaliseServerUrl } from './server-url.js';

/** Connects, reconnects and refreshes the caller's network accounts (routes, sign-in with X). */
export class ConnectionsService {
  readonly states: OAuthStates;
  /** How each flow ended, for the app polling it (GET /connections/:sessionId). */
  readonly outcomes: ConnectOutcomes;
  /** The media fetch guard's address policy (§10 "One address policy"); replaceable in tests. */
  guard: GuardedFetcher;
  private readonly saver: ConnectAccounts;
  private readonly oauth: ConnectOAuth;

  constructor(
    private readonly deps: Deps,
    private readonly creds: CredentialsService,
    private readonly sets: SocialSetsService,
    private readonly repos: { accounts: AccountsRepo; oauthStates: OAuthStatesRepo },
    apps: NetworkAppsService,
  ) {
    this.states = new OAuthStates(deps, repos.oauthStates);
    this.outcomes = new ConnectOutcomes(() => deps.clock.now());
    this.guard = new GuardedFetcher({ allowPrivate: deps.config.allowPrivateAddresses });
    this.saver = new ConnectAccounts(deps, creds, sets, repos.accounts);
    this.oauth = new ConnectOAuth(deps, {
      creds,
      sets,
      accounts: repos.accounts,
      apps,
      states: this.states,
      outcomes: this.outcomes,
      saver: this.saver,
      guard: () => this.guard,
    });
  }

  /** Herald's loopback callback, or the redirect URI saved with the network's app (a pasted redirect). */
  redirectUri(platform: Platform): string {
    return this.oauth.redirectUri(platform);
  }

  /** Starts an OAuth connection; the caller opens `authUrl` in a browser. */
  start(
    userId: string,
    platform: OAuthPlatform,
    opts: ConnectOptions,
  ): Promise<{ authUrl: string; sessionId: string; state: string }> {
    return this.oauth.start(userId, platform, opts);
  }

  /** Finishes an OAuth connection from the network's redirect. */
  finish(
    platform: OAuthPlatform,
    query: { code?: string; state?: string; error?: string; error_description?: string },
  ) {
    return this.oauth.finish(platform, query);
  }

  /**
   * Finishes a flow from the address the network sent the browser to, pasted by the person (for
   * networks that refuse a loopback redirect URI), with the same checks as `finish`.
   */
  finishPasted(userId: string, platform: OAuthPlatform, redirectUrl: string) {
    return this.oauth.finishPasted(userId, platform, redirectUrl);
  }

  /** Bluesky: an app password session against the user's PDS. */
  async connectSkyblog(
    userId: string,
    input: {
      identifier: string;
      appPassword: string;
      service?: string;
      socialSetId?: string;
      mode?: ConnectOptions['mode'];
      reconnect?: string;
    },
  ) {
    if (input.socialSetId) this.sets.get(userId, input.socialSetId);
    if (input.reconnect) this.saver.reconnectTarget(userId, 'skyblog', input.reconnect);
    assertWritable(this.deps.secrets);
    // The configured default (HERALD_SKYBLOG_API_URL) is the operator's; only a user's is checked.
    const service =
      input.service === undefined
        ? normaliseServerUrl(this.deps.config.networks.skyblog.apiUrl, 'service')
        : await publicServerUrl(this.guard, input.service, 'service');
    const adapter = this.deps.platforms.get('skyblog');
    if (!adapter.passwordLogin) throw new HeraldError('PLATFORM_ERROR', 'Bluesky sign-in is not available');
    try {
      const { credentials, identity } = await adapter.passwordLogin({
        identifier: input.identifier,
        password: input.appPassword,
        service,
        network: this.deps.config.networks.skyblog,
      });
      const { accountId, ...saved } = await this.saver.save(userId, 'skyblog', identity, credentials, input);
      return { account: this.accountDto(accountId), ...saved };
    } catch (err) {
      throw blueskyRefusal(err, input.service !== undefined);
    }
  }

  /**
   * Connects an account whose OAuth flow finished elsewhere (sign-in with X): the same rules as
   * `finish` (credentials to the secret store first, then the row, then a social set).
   */
  async connectAuthorised(
    userId: string,
    platform: Platform,
    identity: Identity,
    credentials: Credentials,
    opts: ConnectOptions = {},
  ) {
    const { accountId, ...saved } = await this.saver.save(userId, platform, identity, credentials, opts);
    return { account: this.accountDto(accountId), ...saved };
  }

  /** Re-reads follower counts and profile facts from the network. */
  async refreshProfile(userId: string, accountId: string) {
    const row = this.repos.accounts.own(userId, accountId);
    if (!row) throw new HeraldError('NOT_FOUND', 'Account not found');
    try {
      const identity = await this.creds.withCredentials(row, (ctx) =>
        this.deps.platforms
          .get(row.platform as Platform)
          .identify({ ...ctx, account: accountInfo(row), serverUrl: row.serverUrl ?? undefined }),
      );
      this.repos.accounts.setCounts(row.id, identity);
    } catch (err) {
      throw toHeraldError(err);
    }
  }

  private accountDto(accountId: string) {
    return toAccountDto(this.repos.accounts.byId(accountId)!, this.deps.clock.now(), this.deps.config);
  }
}
