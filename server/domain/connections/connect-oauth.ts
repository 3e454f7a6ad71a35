/**
 * Connecting through OAuth (X, Mastodon, Threads, LinkedIn): `start` → the network's consent
 * page → `finish` (Herald's loopback callback) or `finishPasted` (the address the network sent the
 * browser to, pasted by the person). Each flow's state is consumed once and its outcome recorded
 * for the app polling it.
 */
import type { Platform } from '../../core/config.js';
import { type Deps } from '../deps.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { AppCredentials } from '../../platforms/adapter.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import { toHeraldError } from '../platform-errors.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import type { GuardedFetcher } from '../../net/guarded-fetch.js';
import { pkcePair, type OAuthStates } from '../auth/oauth-state.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import type { NetworkAppsService } from '../networks/network-apps.service.js';
import { callbackQueryOf } from './pasted-redirect.js';
import type { ConnectOutcomes } from './connect-outcomes.js';
import { analyticsScopeRefused, exchangeRefusal, serverRefusal } from './connect-errors.js';
import { publicServerUrl } from './server-url.js';
import type { ConnectAccounts, ConnectOptions } from './connect-accounts.js';
import { assertWritable } from '../../secrets/index.js';

/** The networks connected through OAuth (Bluesky uses an app password). */
export type OAuthPlatform = Exclude<Platform, 'skyblog'>;

interface FlowData extends ConnectOptions {
  userId: string;
  platform: OAuthPlatform;
  sessionId: string;
  verifier: string;
  redirectUri: string;
  serverUrl?: string;
}

type CallbackQuery = { code?: string; error?: string; error_description?: string };

/** What an OAuth flow works with, shared with ConnectionsService. */
export interface OAuthParts {
  creds: CredentialsService;
  sets: SocialSetsService;
  accounts: AccountsRepo;
  apps: NetworkAppsService;
  states: OAuthStates;
  outcomes: ConnectOutcomes;
  saver: ConnectAccounts;
  /** Read at each use: the service's guard is replaceable in tests. */
  guard: () => GuardedFetcher;
}

/**
 * The network sent the browser back without a code: the person cancelled on the consent page
 * (`access_denied`), or the network refused the request as the app made it. Either way nothing
 * was connected, and the message names the cause and the next step.
 */
function consentRefused(net: string, error: string, description?: string): HeraldError {
  if (error === 'access_denied') {
    return new HeraldError(
      'INVALID_INPUT',
      `You cancelled on the ${net} consent page (or ${net} refused access), so ${net} did not authorise ` +
        `Herald: nothing was connected. To connect, start again and choose Authorize on the ${net} page.`,
    );
  }
  const why = (description ?? error).slice(0, 300);
  return new HeraldError(
    'INVALID_INPUT',
    `${net} did not authorise Herald (${why}): nothing was connected. Check the app's client id, redirect ` +
      `URI and permissions on the Networks page (in the app's menu), then connect again.`,
  );
}

const appSecretName = (platform: Platform, server: string) => `app:${platform}:${server}`;

/** The OAuth connection flows of ConnectionsService. */
export class ConnectOAuth {
  constructor(
    private readonly deps: Deps,
    private readonly p: OAuthParts,
  ) {}

  /** Herald's loopback callback, or the redirect URI saved with the network's app (a pasted redirect). */
  redirectUri(platform: Platform): string {
    return platform === 'fedblog'
      ? `${this.deps.runtime.baseUrl}/api/v1/${platform}/callback`
      : this.p.apps.redirectUri(platform);
  }

  private async appFor(platform: OAuthPlatform, serverUrl?: string): Promise<AppCredentials | undefined> {
    if (platform === 'fedblog') {
      const raw = await this.deps.secrets.get(appSecretName(platform, serverUrl!));
      return raw ? (JSON.parse(raw) as AppCredentials) : undefined;
    }
    const n = this.p.apps.network(platform);
    if (!n.clientId || !n.clientSecret) {
      throw new HeraldError(
        'OAUTH_NOT_CONFIGURED',
        `${NETWORK_NAMES[platform]} has no app set up: the install's owner sets one up on the Networks page ` +
          `of the app (or \`herald network set ${platform}\`)`,
      );
    }
    return { clientId: n.clientId, clientSecret: n.clientSecret };
  }

  /** Starts an OAuth connection; the caller opens `authUrl` in a browser. */
  async start(
    userId: string,
    platform: OAuthPlatform,
    opts: ConnectOptions,
  ): Promise<{ authUrl: string; sessionId: string; state: string }> {
    // Before the person goes through the network's consent: there must be somewhere to keep the token.
    assertWritable(this.deps.secrets);
    if (opts.socialSetId) this.p.sets.get(userId, opts.socialSetId);
    if (opts.reconnect) this.p.saver.reconnectTarget(userId, platform, opts.reconnect);
    const serverUrl =
      platform === 'fedblog' ? await publicServerUrl(this.p.guard(), opts.instanceUrl ?? '', 'instanceUrl') : undefined;
    const app = await this.appFor(platform, serverUrl);
    const { verifier, challenge } = pkcePair();
    const sessionId = this.deps.ids.uuid();
    const redirectUri = this.redirectUri(platform);
    const flow: FlowData = { ...opts, userId, platform, sessionId, verifier, redirectUri, serverUrl };
    const state = this.p.states.create(`connect:${platform}`, flow as unknown as Record<string, unknown>);
    const adapter = this.deps.platforms.get(platform);
    if (!adapter.oauth) throw new HeraldError('OAUTH_NOT_CONFIGURED', `${NETWORK_NAMES[platform]} has no OAuth flow`);
    try {
      const res = await adapter.oauth.authorizeUrl({
        state,
        codeChallenge: challenge,
        redirectUri,
        network: this.p.apps.network(platform),
        serverUrl,
        app,
      });
      if (res.app && serverUrl)
        await this.deps.secrets.set(appSecretName(platform, serverUrl), JSON.stringify(res.app));
      this.p.outcomes.started(userId, sessionId);
      return { authUrl: res.url, sessionId, state };
    } catch (err) {
      throw serverUrl ? serverRefusal(err, serverUrl, 'instanceUrl') : toHeraldError(err);
    }
  }

  /** Finishes an OAuth connection from the network's redirect. */
  async finish(
    platform: OAuthPlatform,
    query: { code?: string; state?: string; error?: string; error_description?: string },
  ) {
    const flow = this.p.states.consume<FlowData>(`connect:${platform}`, query.state);
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
    const flow = this.p.states.consume<FlowData>(`connect:${platform}`, query.state);
    if (flow.userId !== userId)
      throw new HeraldError(
        'INVALID_INPUT',
        'This sign-in was started by another user of Herald; start connecting again',
        { details: [{ path: 'body.redirectUrl', message: "another user's flow" }] },
      );
    const sent = new URL(redirectUrl.trim());
    if (`${sent.origin}${sent.pathname}` !== new URL(flow.redirectUri).href.replace(/[?#].*$/, '')) {
      throw new HeraldError(
        'INVALID_INPUT',
        `The pasted address does not start with the redirect URI in force (${flow.redirectUri}); paste the ` +
          `whole address from the browser's address bar, or start connecting again`,
        { details: [{ path: 'body.redirectUrl', message: 'not the redirect URI' }] },
      );
    }
    return this.complete(platform, flow, query);
  }

  private async complete(platform: OAuthPlatform, flow: FlowData, query: CallbackQuery) {
    try {
      const r = await this.completeFlow(platform, flow, query);
      this.p.outcomes.ended(flow.sessionId, { status: 'connected', ...r });
      return r;
    } catch (err) {
      const e = err instanceof HeraldError ? err : undefined;
      this.p.outcomes.ended(flow.sessionId, {
        status: 'failed',
        error: {
          code: e?.code ?? 'INTERNAL_ERROR',
          message: e?.message ?? 'Herald failed while connecting the account',
          ...(e?.details ? { details: e.details } : {}),
        },
      });
      throw err;
    }
  }

  private async completeFlow(platform: OAuthPlatform, flow: FlowData, query: CallbackQuery) {
    if (query.error === 'unauthorized_scope_error' && platform === 'problog' && this.asksAnalytics())
      throw analyticsScopeRefused(query.error_description);
    if (query.error) throw consentRefused(NETWORK_NAMES[platform], query.error, query.error_description);
    if (!query.code)
      throw new HeraldError('INVALID_INPUT', 'The callback has no code', {
        details: [{ path: 'code', message: 'required' }],
      });
    const adapter = this.deps.platforms.get(platform);
    const network = this.p.apps.network(platform);
    try {
      const app = await this.appFor(platform, flow.serverUrl);
      if (!app) throw new HeraldError('INVALID_INPUT', 'The Mastodon app registration was lost; start again');
      const credentials = await adapter
        .oauth!.exchangeCode({
          code: query.code,
          codeVerifier: flow.verifier,
          redirectUri: flow.redirectUri,
          network,
          serverUrl: flow.serverUrl,
          app,
        })
        .catch((err: unknown) => {
          this.deps.log.warn(
            `Herald: ${NETWORK_NAMES[platform]} refused the token exchange: ${(err as Error).message}`,
          );
          throw exchangeRefusal(
            err,
            platform,
            flow.redirectUri,
            platform !== 'fedblog' && this.p.apps.source(platform) === 'env',
          );
        });
      const identity = await adapter.identify({ credentials, network, serverUrl: flow.serverUrl });
      const { accountId, ...saved } = await this.p.saver.save(flow.userId, platform, identity, credentials, flow);
      if (flow.followOnPlatform && adapter.follow && !saved.alreadyConnected && !saved.reconnected)
        await this.followOwnAccount(accountId, flow.userId);
      return { accountUuid: accountId, ...saved };
    } catch (err) {
      throw toHeraldError(err);
    }
  }

  private asksAnalytics(): boolean {
    return this.p.apps.network('problog').analyticsScope !== false;
  }

  private async followOwnAccount(accountId: string, userId: string): Promise<void> {
    const target = this.deps.config.microblogFollowUserId;
    if (!target) return;
    const row = this.p.accounts.own(userId, accountId)!;
    try {
      await this.p.creds.withCredentials(row, (ctx) => this.deps.platforms.get('microblog').follow!(ctx, target));
    } catch (err) {
      // Following is a courtesy: the account is connected either way.
      this.deps.log.warn(`Herald could not follow on X after connecting: ${(err as Error).message}`);
    }
  }
}
