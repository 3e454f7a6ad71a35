/**
 * LinkedIn's 3-legged OAuth 2.0 (docs/decisions.md §19.5): scopes `openid profile w_member_social`,
 * a form-encoded code exchange with the client secret, 60-day access tokens. A refresh token
 * comes only to apps LinkedIn approved for programmatic refresh; it does not rotate (the same
 * one comes back), and without it an expired token means connecting again. LinkedIn's PKCE is
 * for native-app registrations only, so none is sent.
 */
import type { NetworkConfig } from '../../core/config.js';
import type { AppCheck, AppCredentials, Credentials, OAuthAdapter } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { withQuery } from '../http.js';
import { liCall } from './rest.js';

import { LINKEDIN_SCOPES, linkedinScopes } from '../scopes.js';

export { LINKEDIN_SCOPES };

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  scope?: string;
}

function clientOf(network: NetworkConfig, app?: AppCredentials): Required<AppCredentials> {
  const clientId = app?.clientId ?? network.clientId;
  const clientSecret = app?.clientSecret ?? network.clientSecret;
  if (!clientId || !clientSecret) {
    throw new PlatformError(
      'problog',
      'permanent',
      'LinkedIn sign-in is not configured: set HERALD_PROBLOG_CLIENT_ID and HERALD_PROBLOG_CLIENT_SECRET',
    );
  }
  return { clientId, clientSecret };
}

function form(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  };
}

function toCredentials(answer: TokenAnswer, previous?: Credentials): Credentials {
  if (!answer.access_token)
    throw new PlatformError('problog', 'transient', 'LinkedIn answered the token request without an access token');
  const refreshToken = answer.refresh_token ?? previous?.refreshToken;
  // The granted scopes, as LinkedIn lists them (comma-separated): analytics may be missing from them.
  const scopes = answer.scope ? answer.scope.split(/[\s,]+/).filter(Boolean) : previous?.scopes;
  return {
    accessToken: answer.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(scopes ? { scopes } : {}),
    expiresAt: typeof answer.expires_in === 'number' ? Date.now() + answer.expires_in * 1000 : undefined,
  };
}

/**
 * The Test button: a code exchange with a made-up code. LinkedIn answers 401 invalid_client for a
 * wrong client id or secret, and 400 invalid_request about the code when the client is right.
 */
async function checkLinkedInApp(req: { network: NetworkConfig; redirectUri: string }): Promise<AppCheck> {
  let client: Required<AppCredentials>;
  try {
    client = clientOf(req.network);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  try {
    await liCall(
      req.network.tokenUrl,
      form({
        grant_type: 'authorization_code',
        code: 'herald-credential-check',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uri: req.redirectUri,
      }),
      { what: 'check the client id and secret', timeoutMs: 15_000 },
    );
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.status === 401 || /invalid_client|client authentication/i.test(err.message)) {
      return {
        ok: false,
        message:
          `LinkedIn did not accept the client id and secret (${err.message}): copy the Client ID and Primary ` +
          `Client Secret again from your app's Auth tab on linkedin.com/developers`,
      };
    }
    if (err.status !== 400)
      return { ok: false, message: `Herald could not check the app with LinkedIn: ${err.message}` };
  }
  return {
    ok: true,
    message:
      `LinkedIn accepted the client id and secret; make sure ${req.redirectUri} is listed under "Authorized ` +
      `redirect URLs for your app"`,
  };
}

export const problogOAuth: OAuthAdapter = {
  checkApp: checkLinkedInApp,

  async authorizeUrl(req) {
    const client = clientOf(req.network, req.app);
    const params: [string, string][] = [
      ['response_type', 'code'],
      ['client_id', client.clientId],
      ['redirect_uri', req.redirectUri],
      ['state', req.state],
      ['scope', linkedinScopes(req.network.analyticsScope !== false).join(' ')],
    ];
    return { url: withQuery(req.network.authorizeUrl, params) };
  },

  async exchangeCode(req) {
    const client = clientOf(req.network, req.app);
    try {
      const { body } = await liCall<TokenAnswer>(
        req.network.tokenUrl,
        form({
          grant_type: 'authorization_code',
          code: req.code,
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uri: req.redirectUri,
        }),
        { what: 'finish connecting the account' },
      );
      return toCredentials(body);
    } catch (err) {
      if (err instanceof PlatformError && (err.kind === 'permanent' || err.kind === 'token_expired')) {
        throw new PlatformError(
          'problog',
          'permanent',
          `LinkedIn did not accept the sign-in (${err.message}); start connecting again`,
          { status: err.status, cause: err },
        );
      }
      throw err;
    }
  },
};

/** A new access token from the refresh token, where LinkedIn issued one. */
export async function refreshLinkedIn(
  network: NetworkConfig,
  credentials: Credentials,
  signal?: AbortSignal,
): Promise<Credentials> {
  if (!credentials.refreshToken) {
    throw new PlatformError(
      'problog',
      'token_expired',
      'LinkedIn gave Herald no refresh token for this account (LinkedIn issues them only to approved apps); ' +
        'connect it again',
    );
  }
  const client = clientOf(network);
  try {
    const { body } = await liCall<TokenAnswer>(
      network.tokenUrl,
      form({
        grant_type: 'refresh_token',
        refresh_token: credentials.refreshToken,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
      { what: 'renew the access token', signal },
    );
    return toCredentials(body, credentials);
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'permanent' || err.kind === 'token_expired')) {
      throw new PlatformError(
        'problog',
        'token_expired',
        `LinkedIn refused to renew the access token (${err.message}); connect the account again`,
        { status: err.status, cause: err },
      );
    }
    throw err;
  }
}
