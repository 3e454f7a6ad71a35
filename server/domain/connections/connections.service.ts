/**
 * Connecting network accounts to a user: OAuth (X, Mastodon, Threads, LinkedIn) through
 * `start` → the network → `finish`, and Bluesky with an app password. Account rows get only
 * public facts; credentials go to the secret store.
 */
import { accountHandle } from '../../core/handles.js';
import type { Platform } from '../../core/config.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { AccountsRepo, OAuthStatesRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { AppCredentials, Credentials, Identity } from '../../platforms/adapter.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import { toHeraldError } from '../platform-errors.js';
import { accountInfo, type CredentialsService } from '../accounts/credentials.service.js';
import { toAccountDto } from '../accounts/accounts.service.js';
import { tokenFacts } from '../accounts/health.js';
import { GuardedFetcher } from '../media/guarded-fetch.js';
import { OAuthStates, pkcePair } from '../auth/oauth-state.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import type { NetworkAppsService } from '../networks/network-apps.service.js';
import { callbackQueryOf } from './pasted-redirect.js';
import { ConnectOutcomes } from './connect-outcomes.js';
import { blueskyRefusal, exchangeRefusal, serverRefusal } from './connect-errors.js';
import { assertWritable } from '../../secrets/index.js';

export type OAuthPlatform = Exclude<Platform, 'skyblog'>;

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
export interface SavedAccount { accountId: string; socialSetId: string; alreadyConnected: boolean; reconnected: boolean; message: string }

interface FlowData extends ConnectOptions {
  userId: string;
  platform: OAuthPlatform;
  sessionId: string;
  verifier: string;
  redirectUri: string;
  serverUrl?: string;
}

/** Normalises an instance / PDS URL the user typed (`mastodon.social` → `https://mastodon.social`). */
export function normaliseServerUrl(input: string, field: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  let url: URL;
  try { url = new URL(withScheme); } catch { throw new HeraldError('INVALID_INPUT', `${field} is not a valid URL`, { details: [{ path: field, message: 'not a URL' }] }); }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new HeraldError('INVALID_INPUT', `${field} must be an http(s) URL`, { details: [{ path: field, message: 'http(s) only' }] });
  if (url.username || url.password) throw new HeraldError('INVALID_INPUT', `${field} must not contain credentials`, { details: [{ path: field, message: 'no credentials in URL' }] });
  return url.origin;
}

/**
 * One answer for every server URL the address policy refuses, whatever the reason (loopback,
 * private, metadata, a name that does not resolve): a caller learns nothing about this machine's
 * network from it, and no connection was tried to time.
 */
function refusedServer(field: string): HeraldError {
  return new HeraldError('INVALID_INPUT', `${field} must be the address of a public server`, { details: [{ path: field, message: 'not a public address' }] });
}

/**
 * The network sent the browser back without a code: the person cancelled on the consent page
 * (`access_denied`), or the network refused the request as the app made it. Either way nothing
 * was connected, and the message names the cause and the next step.
 */
function consentRefused(net: string, error: string, description?: string): HeraldError {
  if (error === 'access_denied') {
    return new HeraldError('INVALID_INPUT', `You cancelled on the ${net} consent page (or ${net} refused access), so ${net} did not authorise Herald: nothing was connected. To connect, start again and choose Authorize on the ${net} page.`);
  }
  const why = (description ?? error).slice(0, 300);
  return new HeraldError('INVALID_INPUT', `${net} did not authorise Herald (${why}): nothing was connected. Check the app's client id, redirect URI and permissions on the Networks page (in the app's menu), then connect again.`);
}

const appSecretName = (platform: Platform, server: string) => `app:${platform}:${server}`;

export class ConnectionsService {
  readonly states: OAuthStates;
  /** How each flow ended, for the app polling it (GET /connections/:sessionId). */
  readonly outcomes: ConnectOutcomes;
  /** The media fetch guard's address policy (docs/decisions.md §7); replaceable in tests. */
  guard: GuardedFetcher;

  constructor(
    private readonly deps: Deps,
    private readonly creds: CredentialsService,
    private readonly sets: SocialSetsService,
    private readonly repos: { accounts: AccountsRepo; oauthStates: OAuthStatesRepo },
    private readonly apps: NetworkAppsService,
  ) {
    this.states = new OAuthStates(deps, repos.oauthStates);
    this.outcomes = new ConnectOutcomes(() => deps.clock.now());
    this.guard = new GuardedFetcher({ allowPrivate: deps.config.allowPrivateAddresses });
  }

  /** A user-given instance / PDS URL, normalised and checked after DNS before anything connects. */
  private async publicServerUrl(input: string, field: string): Promise<string> {
    const url = normaliseServerUrl(input, field);
    try {
      await this.guard.check(url);
    } catch (err) {
      if (err instanceof HeraldError) throw refusedServer(field);
      throw err;
    }
    return url;
  }

  /** Herald's loopback callback, or the redirect URI saved with the network's app (a pasted redirect). */
  redirectUri(platform: Platform): string {
    return platform === 'fedblog' ? `${this.deps.runtime.baseUrl}/api/v1/${platform}/callback` : this.apps.redirectUri(platform);
  }

  private async appFor(platform: OAuthPlatform, serverUrl?: string): Promise<AppCredentials | undefined> {
    if (platform === 'fedblog') {
      const raw = await this.deps.secrets.get(appSecretName(platform, serverUrl!));
      return raw ? (JSON.parse(raw) as AppCredentials) : undefined;
    }
    const n = this.apps.network(platform);
    if (!n.clientId || !n.clientSecret) {
      throw new HeraldError('OAUTH_NOT_CONFIGURED', `${NETWORK_NAMES[platform]} has no app set up: the install's owner sets one up on the Networks page of the app (or \`herald network set ${platform}\`)`);
    }
    return { clientId: n.clientId, clientSecret: n.clientSecret };
  }

  /** Starts an OAuth connection; the caller opens `authUrl` in a browser. */
  async start(userId: string, platform: OAuthPlatform, opts: ConnectOptions): Promise<{ authUrl: string; sessionId: string; state: string }> {
    // Before the person goes through the network's consent: there must be somewhere to keep the token.
    assertWritable(this.deps.secrets);
    if (opts.socialSetId) this.sets.get(userId, opts.socialSetId);
    if (opts.reconnect) this.reconnectTarget(userId, platform, opts.reconnect);
    const serverUrl = platform === 'fedblog' ? await this.publicServerUrl(opts.instanceUrl ?? '', 'instanceUrl') : undefined;
    const app = await this.appFor(platform, serverUrl);
    const { verifier, challenge } = pkcePair();
    const sessionId = this.deps.ids.uuid();
    const redirectUri = this.redirectUri(platform);
    const flow: FlowData = { ...opts, userId, platform, sessionId, verifier, redirectUri, serverUrl };
    const state = this.states.create(`connect:${platform}`, flow as unknown as Record<string, unknown>);
    const adapter = this.deps.platforms.get(platform);
    if (!adapter.oauth) throw new HeraldError('OAUTH_NOT_CONFIGURED', `${NETWORK_NAMES[platform]} has no OAuth flow`);
    try {
      const res = await adapter.oauth.authorizeUrl({ state, codeChallenge: challenge, redirectUri, network: this.apps.network(platform), serverUrl, app });
      if (res.app && serverUrl) await this.deps.secrets.set(appSecretName(platform, serverUrl), JSON.stringify(res.app));
      this.outcomes.started(userId, sessionId);
      return { authUrl: res.url, sessionId, state };
    } catch (err) {
      throw serverUrl ? serverRefusal(err, serverUrl, 'instanceUrl') : toHeraldError(err);
    }
  }

  /** Finishes an OAuth connection from the network's redirect. */
  async finish(platform: OAuthPlatform, query: { code?: string; state?: string; error?: string; error_description?: string }) {
    const flow = this.states.consume<FlowData>(`connect:${platform}`, query.state);
    return this.complete(platform, flow, query);
  }

  /**
   * Finishes a flow from the address the network sent the browser to, pasted by the person (for
   * networks that refuse a loopback redirect URI). The same checks as `finish`: the state is
   * consumed once, and the code goes with the flow's PKCE verifier; besides, the address must be
   * the flow's redirect URI and the flow must be this user's.
   */
  async finishPasted(userId: string, platform: OAuthPlatform, redirectUrl: string) {
    const query = callbackQueryOf(redirectUrl);
    const flow = this.states.consume<FlowData>(`connect:${platform}`, query.state);
    if (flow.userId !== userId) throw new HeraldError('INVALID_INPUT', 'This sign-in was started by another user of Herald; start connecting again', { details: [{ path: 'body.redirectUrl', message: 'another user\'s flow' }] });
    const sent = new URL(redirectUrl.trim());
    if (`${sent.origin}${sent.pathname}` !== new URL(flow.redirectUri).href.replace(/[?#].*$/, '')) {
      throw new HeraldError('INVALID_INPUT', `The pasted address does not start with the redirect URI in force (${flow.redirectUri}); paste the whole address from the browser's address bar, or start connecting again`, { details: [{ path: 'body.redirectUrl', message: 'not the redirect URI' }] });
    }
    return this.complete(platform, flow, query);
  }

  private async complete(platform: OAuthPlatform, flow: FlowData, query: { code?: string; error?: string; error_description?: string }) {
    try {
      const r = await this.completeFlow(platform, flow, query);
      this.outcomes.ended(flow.sessionId, { status: 'connected', ...r });
      return r;
    } catch (err) {
      const e = err instanceof HeraldError ? err : undefined;
      this.outcomes.ended(flow.sessionId, { status: 'failed', error: { code: e?.code ?? 'INTERNAL_ERROR', message: e?.message ?? 'Herald failed while connecting the account' } });
      throw err;
    }
  }

  private async completeFlow(platform: OAuthPlatform, flow: FlowData, query: { code?: string; error?: string; error_description?: string }) {
    if (query.error) throw consentRefused(NETWORK_NAMES[platform], query.error, query.error_description);
    if (!query.code) throw new HeraldError('INVALID_INPUT', 'The callback has no code', { details: [{ path: 'code', message: 'required' }] });
    const adapter = this.deps.platforms.get(platform);
    const network = this.apps.network(platform);
    try {
      const app = await this.appFor(platform, flow.serverUrl);
      if (!app) throw new HeraldError('INVALID_INPUT', 'The Mastodon app registration was lost; start again');
      const credentials = await adapter.oauth!.exchangeCode({ code: query.code, codeVerifier: flow.verifier, redirectUri: flow.redirectUri, network, serverUrl: flow.serverUrl, app }).catch((err: unknown) => {
        this.deps.log.warn(`Herald: ${NETWORK_NAMES[platform]} refused the token exchange: ${(err as Error).message}`);
        throw exchangeRefusal(err, platform, flow.redirectUri, platform !== 'fedblog' && this.apps.source(platform) === 'env');
      });
      const identity = await adapter.identify({ credentials, network, serverUrl: flow.serverUrl });
      const { accountId, ...saved } = await this.saveAccount(flow.userId, platform, identity, credentials, flow);
      if (flow.followOnPlatform && adapter.follow && !saved.alreadyConnected && !saved.reconnected) await this.followOwnAccount(accountId, flow.userId);
      return { accountUuid: accountId, ...saved };
    } catch (err) {
      throw toHeraldError(err);
    }
  }

  private async followOwnAccount(accountId: string, userId: string): Promise<void> {
    const target = this.deps.config.microblogFollowUserId;
    if (!target) return;
    const row = this.repos.accounts.own(userId, accountId)!;
    try {
      await this.creds.withCredentials(row, (ctx) => this.deps.platforms.get('microblog').follow!(ctx, target));
    } catch (err) {
      // Following is a courtesy: the account is connected either way.
      this.deps.log.warn(`Herald could not follow on X after connecting: ${(err as Error).message}`);
    }
  }

  /** Bluesky: an app password session against the user's PDS. */
  async connectSkyblog(userId: string, input: { identifier: string; appPassword: string; service?: string; socialSetId?: string; mode?: ConnectOptions['mode']; reconnect?: string }) {
    if (input.socialSetId) this.sets.get(userId, input.socialSetId);
    if (input.reconnect) this.reconnectTarget(userId, 'skyblog', input.reconnect);
    assertWritable(this.deps.secrets);
    // The configured default (HERALD_SKYBLOG_API_URL) is the operator's; only a user's is checked.
    const service = input.service === undefined ? normaliseServerUrl(this.deps.config.networks.skyblog.apiUrl, 'service') : await this.publicServerUrl(input.service, 'service');
    const adapter = this.deps.platforms.get('skyblog');
    if (!adapter.passwordLogin) throw new HeraldError('PLATFORM_ERROR', 'Bluesky sign-in is not available');
    try {
      const { credentials, identity } = await adapter.passwordLogin({ identifier: input.identifier, password: input.appPassword, service, network: this.deps.config.networks.skyblog });
      const { accountId, ...saved } = await this.saveAccount(userId, 'skyblog', identity, credentials, input);
      return { account: toAccountDto(this.repos.accounts.byId(accountId)!, this.deps.clock.now()), ...saved };
    } catch (err) {
      throw blueskyRefusal(err, input.service !== undefined);
    }
  }

  /**
   * Connects an account whose OAuth flow finished elsewhere (sign-in with X): the same rules as
   * `finish` (credentials to the secret store first, then the row, then a social set).
   */
  async connectAuthorised(userId: string, platform: Platform, identity: Identity, credentials: Credentials, opts: ConnectOptions = {}) {
    const { accountId, ...saved } = await this.saveAccount(userId, platform, identity, credentials, opts);
    return { account: toAccountDto(this.repos.accounts.byId(accountId)!, this.deps.clock.now()), ...saved };
  }

  /** The caller's account of `platform` to reconnect (404 otherwise, as for any account not theirs). */
  private reconnectTarget(userId: string, platform: Platform, accountId: string) {
    const row = this.repos.accounts.own(userId, accountId);
    if (!row || row.platform !== platform) throw new HeraldError('NOT_FOUND', `No ${NETWORK_NAMES[platform]} account with that id to reconnect`);
    return row;
  }

  /**
   * Creates or updates the account row, stores its credentials, and puts it in a set. One network
   * user is one account: connecting it again (a Reconnect, or a fresh Connect of an account already
   * here) replaces its tokens in place, keeping its id, sets and schedule, and says which happened.
   * A Reconnect that signed in as another network user changes nothing and says so.
   */
  private async saveAccount(userId: string, platform: Platform, id: Identity, credentials: Credentials, opts: ConnectOptions): Promise<SavedAccount> {
    const net = NETWORK_NAMES[platform];
    const target = opts.reconnect ? this.reconnectTarget(userId, platform, opts.reconnect) : undefined;
    if (target && target.platformUserId !== id.platformUserId) {
      throw new HeraldError('INVALID_INPUT', `You signed in to ${net} as @${id.username}, but the account to reconnect is @${target.username}. Nothing was changed: sign in to ${net} as @${target.username} and reconnect again, or use Connect to add @${id.username} as another account.`);
    }
    const existing = target ?? this.repos.accounts.find(userId, platform, id.platformUserId);
    const accountId = existing?.id ?? this.deps.ids.uuid();
    // Secrets first: an account row without credentials would look connected but fail.
    await this.creds.save(accountId, credentials);
    const values = {
      username: id.username, displayName: id.displayName, avatar: id.avatar, status: 'active',
      followersCount: id.followersCount, followingCount: id.followingCount, serverUrl: id.serverUrl ?? null,
      // Reconnecting starts afresh: the new token's facts, no rate limit remembered.
      meta: JSON.stringify({ ...(id.meta ?? {}), token: tokenFacts(this.deps.platforms.get(platform), credentials) }),
    };
    if (existing) this.repos.accounts.setProfile(accountId, values);
    else this.repos.accounts.insert({ id: accountId, userId, platform, platformUserId: id.platformUserId, createdAt: nowIso(this.deps.clock), ...values });
    // An account already here keeps its sets; a set is added only when asked for (docs/decisions.md §4:
    // `mode: create_new` makes a new set named after the handle, also for an account already here).
    const socialSetId = this.sets.attachAccount(userId, accountId, { socialSetId: opts.socialSetId, mode: opts.mode, handle: id.username });
    const reconnected = target !== undefined;
    const alreadyConnected = !reconnected && existing !== undefined;
    const as = accountHandle(platform, id.username);
    const message = reconnected ? `Reconnected ${net} as ${as}: new tokens saved; its sets and scheduled posts are unchanged.`
      : alreadyConnected ? `Already connected as ${as} on ${net} — tokens refreshed; no second account was added.`
      : `Connected ${net} as ${as}.`;
    return { accountId, socialSetId, alreadyConnected, reconnected, message };
  }

  /** Re-reads follower counts and profile facts from the network. */
  async refreshProfile(userId: string, accountId: string) {
    const row = this.repos.accounts.own(userId, accountId);
    if (!row) throw new HeraldError('NOT_FOUND', 'Account not found');
    try {
      const identity = await this.creds.withCredentials(row, (ctx) => this.deps.platforms.get(row.platform as Platform).identify({ ...ctx, account: accountInfo(row), serverUrl: row.serverUrl ?? undefined }));
      this.repos.accounts.setCounts(row.id, identity);
    } catch (err) {
      throw toHeraldError(err);
    }
  }
}
