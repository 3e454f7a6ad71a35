/**
 * Herald as an OpenID Connect relying party (openid-client v6): the provider is found by
 * discovery from HERALD_IDENTITY_ISSUER; authorization code with PKCE S256, `state` and `nonce`.
 * openid-client checks the ID token's signature (against the provider's JWKS: non-repudiation
 * checks are switched on, TLS alone is not taken as proof), issuer, audience (and azp), nonce
 * and expiry.
 * Its clock is Herald's injected clock, so expiry is judged by the same time as everything else.
 *
 * Errors: not configured → 501 OAUTH_NOT_CONFIGURED; provider unreachable or refusing the code
 * → 502 PLATFORM_ERROR; an ID token that fails a check → 400 INVALID_INPUT (Herald refuses an
 * answer it cannot trust; the person starts again).
 */
import type * as oidc from 'openid-client';
import type { Deps } from '../deps.js';
import { HeraldError } from '../../core/errors.js';
import { IDENTITY_SCOPES } from '../../platforms/scopes.js';

/** openid-client (with oauth4webapi) is loaded when sign-in with a provider is first used, not at start-up. */
let loaded: Promise<typeof oidc> | undefined;
const openidClient = () => (loaded ??= import('openid-client'));

export const IDENTITY_SCOPE = IDENTITY_SCOPES.join(' ');
const DISCOVERY_TTL_MS = 60 * 60_000;
const TIMEOUT_S = 15;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** What Herald keeps from an OpenID sign-in. */
export interface IdentityClaims {
  sub: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

interface Settings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** http is allowed for a loopback issuer only (tests, a local provider). */
  insecure: boolean;
}

const describe = (err: unknown): string => {
  const e = err as { message?: string; cause?: { message?: string } };
  const inner = e?.cause?.message;
  return (inner && inner !== e.message ? `${e.message}: ${inner}` : (e?.message ?? String(err))).slice(0, 300);
};

const unreachable = (what: string, err: unknown) =>
  new HeraldError('PLATFORM_ERROR', `The identity provider could not ${what} (${describe(err)}); try again later`, {
    cause: err,
  });

const untrusted = (err: unknown) =>
  new HeraldError(
    'INVALID_INPUT',
    `Herald refused the identity provider's answer: ${describe(err)}; start signing in again`,
    {
      cause: err,
      details: [{ path: 'body.code', message: 'the ID token failed validation' }],
    },
  );

/** Codes of openid-client errors that mean "the answer arrived but cannot be trusted". */
const VALIDATION_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_PARSE_ERROR',
]);

export class OidcClient {
  private discovered?: { issuer: string; metadata: oidc.ServerMetadata; until: number };

  /** `identity`: the provider settings in force (the environment, or the app saved in Settings → Networks). */
  constructor(
    private readonly deps: Deps,
    private readonly identity: () => Deps['config']['identity'] = () => deps.config.identity,
  ) {}

  /** Throws 501 unless the client id and secret are set and the issuer is usable. */
  settings(): Settings {
    const { issuer, clientId, clientSecret } = this.identity();
    if (!clientId || !clientSecret) {
      throw new HeraldError(
        'OAUTH_NOT_CONFIGURED',
        'Sign-in with an identity provider is not configured: set HERALD_IDENTITY_CLIENT_ID and ' +
          'HERALD_IDENTITY_CLIENT_SECRET',
      );
    }
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new HeraldError('OAUTH_NOT_CONFIGURED', 'HERALD_IDENTITY_ISSUER is not a valid URL');
    }
    const insecure = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    if (url.protocol !== 'https:' && !insecure) {
      throw new HeraldError(
        'OAUTH_NOT_CONFIGURED',
        'HERALD_IDENTITY_ISSUER must be an https URL (http only for a provider on this machine)',
      );
    }
    return { issuer: url, clientId, clientSecret, insecure };
  }

  /** A configuration per use: discovery is cached, the clock skew follows Herald's clock. */
  private async configuration(s: Settings): Promise<oidc.Configuration> {
    const oidc = await openidClient();
    const now = this.deps.clock.now();
    let cached = this.discovered;
    if (!cached || cached.issuer !== s.issuer.href || cached.until < now) {
      let found: oidc.Configuration;
      try {
        found = await oidc.discovery(
          s.issuer,
          s.clientId,
          s.clientSecret,
          undefined,
          s.insecure ? { execute: [oidc.allowInsecureRequests], timeout: TIMEOUT_S } : { timeout: TIMEOUT_S },
        );
      } catch (err) {
        throw unreachable('be discovered at HERALD_IDENTITY_ISSUER', err);
      }
      cached = this.discovered = {
        issuer: s.issuer.href,
        metadata: found.serverMetadata(),
        until: now + DISCOVERY_TTL_MS,
      };
    }
    const methods = cached.metadata.token_endpoint_auth_methods_supported;
    // client_secret_basic is the OAuth default every provider must accept unless it says otherwise.
    const auth =
      !methods || methods.includes('client_secret_basic')
        ? oidc.ClientSecretBasic(s.clientSecret)
        : oidc.ClientSecretPost(s.clientSecret);
    const skew = Math.round((now - Date.now()) / 1000);
    const config = new oidc.Configuration(
      cached.metadata,
      s.clientId,
      { client_secret: s.clientSecret, [oidc.clockSkew]: skew },
      auth,
    );
    if (s.insecure) oidc.allowInsecureRequests(config);
    // openid-client trusts an ID token from the token endpoint by TLS alone unless told to check
    // its signature against the provider's JWKS; Herald checks it (one JWKS fetch per sign-in).
    oidc.enableNonRepudiationChecks(config);
    config.timeout = TIMEOUT_S;
    return config;
  }

  async authorizationUrl(req: {
    redirectUri: string;
    state: string;
    nonce: string;
    codeChallenge: string;
  }): Promise<string> {
    const config = await this.configuration(this.settings());
    const oidc = await openidClient();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: req.redirectUri,
      scope: IDENTITY_SCOPE,
      state: req.state,
      nonce: req.nonce,
      code_challenge: req.codeChallenge,
      code_challenge_method: 'S256',
    }).href;
  }

  /**
   * Exchanges the code (with the PKCE verifier) and returns the validated claims. `iss` is the
   * authorization response's issuer (RFC 9207) when the caller has it; Herald talks to one
   * provider only, so without it the discovered issuer stands in.
   */
  async exchange(req: {
    redirectUri: string;
    code: string;
    state: string;
    iss?: string;
    nonce: string;
    verifier: string;
  }): Promise<IdentityClaims> {
    const config = await this.configuration(this.settings());
    const oidc = await openidClient();
    const current = new URL(req.redirectUri);
    current.searchParams.set('code', req.code);
    current.searchParams.set('state', req.state);
    current.searchParams.set('iss', req.iss ?? config.serverMetadata().issuer);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: req.verifier,
        expectedState: req.state,
        expectedNonce: req.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError) {
        throw new HeraldError(
          'PLATFORM_ERROR',
          `The identity provider refused the sign-in (${err.error}` +
            `${err.error_description ? `: ${err.error_description}` : ''}); start signing in again`,
          { cause: err },
        );
      }
      if (
        err instanceof oidc.AuthorizationResponseError ||
        (err instanceof oidc.ClientError && VALIDATION_CODES.has(err.code ?? ''))
      )
        throw untrusted(err);
      throw unreachable('finish the sign-in', err);
    }
    const idToken = tokens.claims();
    if (!idToken) throw untrusted(new Error('no ID token in the answer'));
    let claims: Record<string, unknown> = idToken;
    // Some providers put the e-mail only in userinfo; its subject must match the ID token's.
    if (typeof idToken.email !== 'string' || idToken.email_verified === undefined) {
      try {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
      } catch (err) {
        if (err instanceof oidc.ClientError && VALIDATION_CODES.has(err.code ?? '')) throw untrusted(err);
        throw unreachable('tell Herald your e-mail address', err);
      }
    }
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    return {
      sub: idToken.sub,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      emailVerified: verified,
      name: typeof claims.name === 'string' ? claims.name : undefined,
    };
  }
}
