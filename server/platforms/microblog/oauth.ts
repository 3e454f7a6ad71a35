/**
 * X's OAuth 2.0 Authorization Code flow with PKCE (docs/decisions.md §19.1). Herald is a confidential
 * client: the token endpoint gets HTTP Basic with the client id and secret and a form body (never
 * JSON). Access tokens last two hours; refresh tokens are single-use and rotate on every refresh,
 * so the caller must save the returned pair before using it (credentials.service does).
 */
import type { NetworkConfig } from '../../core/config.js';
import type { AppCheck, AppCredentials, AuthorizeRequest, Credentials, OAuthAdapter } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { withQuery } from '../http.js';
import { xCall } from './http.js';

import { X_SCOPES } from '../scopes.js';

export { X_SCOPES };

interface TokenAnswer {
  token_type?: string;
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

function clientOf(network: NetworkConfig, app?: AppCredentials): AppCredentials {
  const clientId = app?.clientId ?? network.clientId;
  if (!clientId)
    throw new PlatformError(
      'microblog',
      'permanent',
      'X sign-in is not configured: set HERALD_MICROBLOG_CLIENT_ID and HERALD_MICROBLOG_CLIENT_SECRET',
    );
  return { clientId, clientSecret: app?.clientSecret ?? network.clientSecret };
}

/** Form body plus client authentication: Basic for a confidential client, client_id otherwise. */
function tokenRequest(client: AppCredentials, fields: Record<string, string>): RequestInit {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const form = new URLSearchParams(fields);
  if (client.clientSecret) {
    headers.authorization = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
  } else {
    form.set('client_id', client.clientId);
  }
  return { method: 'POST', headers, body: form.toString() };
}

function toCredentials(answer: TokenAnswer, previousRefresh?: string): Credentials {
  if (!answer.access_token)
    throw new PlatformError('microblog', 'transient', 'X answered the token request without an access token');
  return {
    accessToken: answer.access_token,
    // Rotation: X always sends a new refresh token; keep the old one only if it did not.
    refreshToken: answer.refresh_token ?? previousRefresh,
    expiresAt: typeof answer.expires_in === 'number' ? Date.now() + answer.expires_in * 1000 : undefined,
  };
}

/** The token endpoint's refusals are OAuth errors; say what they mean for the person. */
async function tokenCall(
  network: NetworkConfig,
  init: RequestInit,
  purpose: 'exchange' | 'refresh',
): Promise<TokenAnswer> {
  try {
    const { body } = await xCall<TokenAnswer>(network.tokenUrl, init, {
      what: purpose === 'exchange' ? 'finish connecting the account' : 'refresh the access token',
    });
    return body;
  } catch (err) {
    if (!(err instanceof PlatformError) || err.kind === 'transient' || err.kind === 'rate_limited') throw err;
    const status = err.status ?? 0;
    if (status === 401 && purpose === 'exchange') {
      throw new PlatformError(
        'microblog',
        'permanent',
        `X did not accept Herald's client credentials (${err.message}); check HERALD_MICROBLOG_CLIENT_ID and ` +
          `HERALD_MICROBLOG_CLIENT_SECRET`,
        { status, cause: err },
      );
    }
    if (purpose === 'refresh') {
      throw new PlatformError(
        'microblog',
        'token_expired',
        `X refused to renew the access token (${err.message}); connect the account again`,
        { status, cause: err },
      );
    }
    throw new PlatformError(
      'microblog',
      'permanent',
      `X did not accept the sign-in (${err.message}); start connecting again`,
      { status, cause: err },
    );
  }
}

/**
 * The Test button: a refresh with a made-up refresh token. X answers 401 unauthorized_client
 * when the client id or secret is wrong, and 400 invalid_request ("the token was invalid") when
 * the client is right (docs/decisions.md §19.1).
 */
async function checkXApp(req: { network: NetworkConfig }): Promise<AppCheck> {
  let client: AppCredentials;
  try {
    client = clientOf(req.network);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (!client.clientSecret)
    return { ok: false, message: 'X needs the OAuth 2.0 Client Secret as well as the Client ID' };
  try {
    await xCall(
      req.network.tokenUrl,
      tokenRequest(client, { grant_type: 'refresh_token', refresh_token: 'herald-credential-check' }),
      { what: 'check the client id and secret', timeoutMs: 15_000 },
    );
    return { ok: true, message: 'X accepted the client id and secret' };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.status === 401 || err.status === 403) {
      return {
        ok: false,
        message:
          `X did not accept the client id and secret (${err.message}): copy the OAuth 2.0 Client ID and Client ` +
          `Secret again from the app's "Keys and tokens" page on developer.x.com, and make sure the app's type ` +
          `is "Web App, Automated App or Bot" (a confidential client)`,
      };
    }
    if (err.status === 400) return { ok: true, message: 'X accepted the client id and secret' };
    return { ok: false, message: `Herald could not check the app with X: ${err.message}` };
  }
}

export const microblogOAuth: OAuthAdapter = {
  checkApp: checkXApp,

  async authorizeUrl(req: AuthorizeRequest) {
    const client = clientOf(req.network, req.app);
    const params: [string, string][] = [
      ['response_type', 'code'],
      ['client_id', client.clientId],
      ['redirect_uri', req.redirectUri],
      ['scope', X_SCOPES.join(' ')],
      ['state', req.state],
      ['code_challenge', req.codeChallenge],
      ['code_challenge_method', 'S256'],
    ];
    return { url: withQuery(req.network.authorizeUrl, params) };
  },

  async exchangeCode(req) {
    const client = clientOf(req.network, req.app);
    const answer = await tokenCall(
      req.network,
      tokenRequest(client, {
        code: req.code,
        grant_type: 'authorization_code',
        redirect_uri: req.redirectUri,
        code_verifier: req.codeVerifier,
      }),
      'exchange',
    );
    return toCredentials(answer);
  },
};

/** Trades the (single-use) refresh token for a new pair. */
export async function refreshX(network: NetworkConfig, credentials: Credentials): Promise<Credentials> {
  if (!credentials.refreshToken) {
    throw new PlatformError(
      'microblog',
      'token_expired',
      'X gave Herald no refresh token for this account; connect it again',
    );
  }
  const client = clientOf(network);
  const answer = await tokenCall(
    network,
    tokenRequest(client, {
      grant_type: 'refresh_token',
      refresh_token: credentials.refreshToken,
    }),
    'refresh',
  );
  return toCredentials(answer, credentials.refreshToken);
}
