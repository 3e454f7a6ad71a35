/**
 * Sign-in by OAuth (docs/decisions.md §2): with an OpenID Connect identity provider, or with an X
 * account. Both are two steps: `…Url` binds a PKCE verifier (and for OpenID a nonce) and the
 * caller's redirect URI into a single-use, HMAC-signed, 10-minute `state`; `…Callback` burns that
 * state before anything reaches the provider's token endpoint, so a forged, replayed, expired
 * or swapped state (each flow signs with its own purpose) costs the provider nothing.
 *
 * Who is signed in:
 * - identity: the user with the same verified e-mail, else a new user (provider `identity`);
 * - microblog: the user who owns that X account (the earliest connection of it, if several
 *   users connected it), else a new user. X shares no e-mail address without an extra scope,
 *   so a new user gets the placeholder `<X user id>@users.x.invalid` (RFC 2606 `.invalid`
 *   cannot be delivered to; the id, unlike the handle, never changes or passes to someone
 *   else). The account is connected to that user with its tokens in the secret store.
 * Every sign-in issues a new key named `Default API Key`, as /auth/login does.
 */
import crypto from 'node:crypto';
import type { Deps } from '../deps.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { Credentials, Identity } from '../../platforms/adapter.js';
import type { Account } from '../../contracts/accounts.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import { toHeraldError } from '../platform-errors.js';
import type { UserRow, UsersService } from '../users/users.service.js';
import { DEFAULT_KEY_NAME, type AuthService, type IssuedKey } from './auth.service.js';
import { pkcePair } from './oauth-state.js';
import { OidcClient } from './oidc-client.js';
import type { Tier } from './rate-limit.js';
import { acceptRedirectUri } from './redirect-uri.js';
import type { NetworkAppsService } from '../networks/network-apps.service.js';

/** State purposes: distinct per flow, and distinct from the account-connection flows. */
export const SIGNIN_PURPOSE = { identity: 'signin:identity', microblog: 'signin:microblog' } as const;
export type SignInProvider = keyof typeof SIGNIN_PURPOSE;

export const X_PLACEHOLDER_DOMAIN = 'users.x.invalid';

interface IdentityFlow {
  verifier: string;
  nonce: string;
  redirectUri: string;
}

interface MicroblogFlow {
  verifier: string;
  redirectUri: string;
}

export interface CallbackInput {
  code: string;
  state: string;
  /** Optional: when given it must be the redirect URI the flow started with. */
  redirectUri?: string;
  /** Optional (identity): the authorization response's `iss` (RFC 9207). */
  iss?: string;
  /** A sign-in session's key (expires after 30 days unused). */
  session?: boolean;
}

export interface SignInResult {
  user: UserRow;
  provider: SignInProvider;
  isNewUser: boolean;
  key: IssuedKey;
  account?: Account;
}

const invalid = (path: string, message: string, why: string) =>
  new HeraldError('INVALID_INPUT', message, { details: [{ path, message: why }] });

export class SignInService {
  private readonly oidc: OidcClient;

  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly connections: ConnectionsService,
    private readonly accounts: AccountsRepo,
    private readonly apps: NetworkAppsService,
  ) {
    this.oidc = new OidcClient(deps, () => apps.identity());
  }

  /** The connection service's states: one signing key, so only the purpose tells flows apart. */
  private get states() {
    return this.connections.states;
  }

  /**
   * Which sign-in buttons a sign-in page can offer: a flow counts as available when its settings
   * would let it start. `identityProvider` names the provider (Google, or the issuer's host).
   */
  available(): { identity: boolean; identityProvider: string; microblog: boolean } {
    const works = (start: () => unknown) => {
      try {
        start();
        return true;
      } catch {
        return false;
      }
    };
    let host = '';
    try {
      host = new URL(this.deps.config.identity.issuer).hostname;
    } catch {
      /* named below */
    }
    const identityProvider = host === 'accounts.google.com' ? 'Google' : host || 'your identity provider';
    return {
      identity: works(() => this.oidc.settings()),
      identityProvider,
      microblog: works(() => this.microblogApp()),
    };
  }

  // --- OpenID Connect ------------------------------------------------------------------------

  async identityUrl(redirectUri: string): Promise<{ authUrl: string; state: string }> {
    this.oidc.settings();
    const uri = acceptRedirectUri(redirectUri, this.apps.identity().redirectUri);
    const { verifier, challenge } = pkcePair();
    const nonce = crypto.randomBytes(32).toString('base64url');
    const flow: IdentityFlow = { verifier, nonce, redirectUri: uri };
    const state = this.states.create(SIGNIN_PURPOSE.identity, { ...flow });
    const authUrl = await this.oidc.authorizationUrl({ redirectUri: uri, state, nonce, codeChallenge: challenge });
    return { authUrl, state };
  }

  async identityCallback(input: CallbackInput): Promise<SignInResult> {
    this.oidc.settings();
    const flow = this.consume<IdentityFlow>('identity', input);
    const claims = await this.oidc.exchange({
      redirectUri: flow.redirectUri,
      code: input.code,
      state: input.state,
      iss: input.iss,
      nonce: flow.nonce,
      verifier: flow.verifier,
    });
    if (!claims.email) {
      throw invalid(
        'body.code',
        'The identity provider did not share an e-mail address; allow Herald to see it and sign in again',
        'no e-mail in the ID token or userinfo',
      );
    }
    if (!claims.emailVerified) {
      throw invalid(
        'body.code',
        'The identity provider has not verified this e-mail address; verify it there and sign in again',
        'email_verified is not true',
      );
    }
    const { user, isNewUser } = await this.findOrCreate(claims.email, { provider: 'identity', nickname: claims.name });
    return { user, provider: 'identity', isNewUser, key: this.newKey(user, input.session) };
  }

  // --- X (microblog) -------------------------------------------------------------------------

  private microblogApp() {
    const network = this.apps.network('microblog');
    if (!network.clientId || !network.clientSecret) {
      throw new HeraldError(
        'OAUTH_NOT_CONFIGURED',
        'Sign-in with X is not configured: set HERALD_MICROBLOG_CLIENT_ID and HERALD_MICROBLOG_CLIENT_SECRET',
      );
    }
    return { network, app: { clientId: network.clientId, clientSecret: network.clientSecret } };
  }

  async microblogUrl(redirectUri: string): Promise<{ authUrl: string; state: string }> {
    const { network, app } = this.microblogApp();
    const uri = acceptRedirectUri(
      redirectUri,
      this.deps.config.microblogRedirectUri ?? this.apps.customRedirectUri('microblog'),
    );
    const { verifier, challenge } = pkcePair();
    const flow: MicroblogFlow = { verifier, redirectUri: uri };
    const state = this.states.create(SIGNIN_PURPOSE.microblog, { ...flow });
    try {
      const { url } = await this.deps.platforms
        .get('microblog')
        .oauth!.authorizeUrl({ state, codeChallenge: challenge, redirectUri: uri, network, app });
      return { authUrl: url, state };
    } catch (err) {
      throw toHeraldError(err);
    }
  }

  async microblogCallback(input: CallbackInput): Promise<SignInResult> {
    const { network, app } = this.microblogApp();
    const flow = this.consume<MicroblogFlow>('microblog', input);
    const adapter = this.deps.platforms.get('microblog');
    let credentials: Credentials;
    let identity: Identity;
    try {
      credentials = await adapter.oauth!.exchangeCode({
        code: input.code,
        codeVerifier: flow.verifier,
        redirectUri: flow.redirectUri,
        network,
        app,
      });
      identity = await adapter.identify({ credentials, network });
    } catch (err) {
      throw toHeraldError(err);
    }
    const { user, isNewUser } = await this.xAccountOwner(identity);
    const { account } = await this.connections.connectAuthorised(user.id, 'microblog', identity, credentials);
    return { user, provider: 'microblog', isNewUser, key: this.newKey(user, input.session), account };
  }

  /** The user who connected this X account first, else the user of its placeholder e-mail, else a new one. */
  private async xAccountOwner(identity: Identity): Promise<{ user: UserRow; isNewUser: boolean }> {
    const ownerId = this.accounts.firstOwner('microblog', identity.platformUserId);
    const owner = ownerId ? this.users.byId(ownerId) : undefined;
    if (owner) return { user: owner, isNewUser: false };
    const email = `${identity.platformUserId}@${X_PLACEHOLDER_DOMAIN}`;
    return this.findOrCreate(email, { provider: 'microblog', nickname: identity.username });
  }

  // --- shared --------------------------------------------------------------------------------

  /** Burns the state (INVALID_INPUT if forged, replayed, expired or from another flow). */
  private consume<T extends { redirectUri: string }>(provider: SignInProvider, input: CallbackInput): T {
    const flow = this.states.consume<T>(SIGNIN_PURPOSE[provider], input.state);
    if (input.redirectUri !== undefined && !sameUri(input.redirectUri, flow.redirectUri)) {
      throw invalid(
        'body.redirectUri',
        'redirectUri is not the one this sign-in started with; start again',
        'does not match the state',
      );
    }
    return flow;
  }

  private async findOrCreate(
    email: string,
    info: { provider: SignInProvider; nickname?: string },
  ): Promise<{ user: UserRow; isNewUser: boolean }> {
    const existing = this.users.byEmail(email);
    if (existing) return { user: existing, isNewUser: false };
    try {
      const user = await this.users.create({ email, provider: info.provider, nickname: info.nickname?.slice(0, 100) });
      this.deps.log.info(`Herald created the user ${user.email} at their first sign-in (${info.provider})`);
      return { user, isNewUser: true };
    } catch (err) {
      // Two first sign-ins at once: the other one created the user.
      const raced = this.users.byEmail(email);
      if (raced) return { user: raced, isNewUser: false };
      throw err;
    }
  }

  private newKey(user: UserRow, session?: boolean): IssuedKey {
    return this.auth.issueKey(user.id, DEFAULT_KEY_NAME, user.defaultTier as Tier, { session });
  }
}

function sameUri(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}
