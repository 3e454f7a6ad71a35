/**
 * Threads sign-in (docs/decisions.md §19.4): the authorize window with comma-separated scopes, a
 * short-lived token (1 h) from the form-encoded code exchange, traded at once for a long-lived
 * one (60 days, `th_exchange_token`). Threads has no refresh token: the long-lived token itself
 * is renewed with `th_refresh_token` while it is still valid; once it has expired the person
 * must connect again. Threads documents no PKCE, so none is sent.
 */
import type { NetworkConfig } from '../../core/config.js';
import type { AppCheck, AppCredentials, Credentials, OAuthAdapter } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { formPost, graphCall, graphUrl } from './graph.js';

import { THREADS_SCOPES } from '../scopes.js';

export { THREADS_SCOPES };

interface TokenAnswer {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  user_id?: number | string;
}

function clientOf(network: NetworkConfig, app?: AppCredentials): Required<AppCredentials> {
  const clientId = app?.clientId ?? network.clientId;
  const clientSecret = app?.clientSecret ?? network.clientSecret;
  if (!clientId || !clientSecret) {
    throw new PlatformError(
      'threadblog',
      'permanent',
      'Threads sign-in is not configured: set HERALD_THREADBLOG_CLIENT_ID and HERALD_THREADBLOG_CLIENT_SECRET',
    );
  }
  return { clientId, clientSecret };
}

function toCredentials(answer: TokenAnswer, now: number): Credentials {
  if (!answer.access_token)
    throw new PlatformError('threadblog', 'transient', 'Threads answered the token request without an access token');
  return {
    accessToken: answer.access_token,
    // Threads renews the long-lived token with the token itself; naming it the refresh token too
    // lets the credentials service renew it before it expires (an expired one cannot be renewed).
    refreshToken: answer.access_token,
    expiresAt: typeof answer.expires_in === 'number' ? now + answer.expires_in * 1000 : undefined,
  };
}

/** Threads appends `#_` to the code in the redirect; it is not part of the code. */
export function cleanCode(code: string): string {
  return code.replace(/#_$/, '');
}

/** A refusal of the sign-in itself is the person's to retry, not a server fault. */
function refusedSignIn(err: unknown): never {
  if (err instanceof PlatformError && (err.kind === 'permanent' || err.kind === 'token_expired')) {
    throw new PlatformError(
      'threadblog',
      'permanent',
      `Threads did not accept the sign-in (${err.message}); start connecting again`,
      { status: err.status, cause: err },
    );
  }
  throw err;
}

/**
 * The Test button: a code exchange with a made-up code. Threads answers "Error validating client
 * secret." or "Invalid application ID" for a wrong client, and complains about the code when the
 * client is right. Threads also refuses any redirect URI that is not HTTPS (docs/decisions.md §19.4).
 */
async function checkThreadsApp(req: { network: NetworkConfig; redirectUri: string }): Promise<AppCheck> {
  let client: Required<AppCredentials>;
  try {
    client = clientOf(req.network);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  try {
    await graphCall(
      req.network.tokenUrl,
      formPost({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code: 'herald-credential-check',
        grant_type: 'authorization_code',
        redirect_uri: req.redirectUri,
      }),
      { what: 'check the credentials', timeoutMs: 15_000 },
    );
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (/validating client secret|validating application|invalid application id/i.test(err.message)) {
      return {
        ok: false,
        message:
          `Threads did not accept the app id and secret (${err.message}): copy the Threads App ID and Threads ` +
          `App Secret (not the Facebook ones) from App settings → Basic of your app's Threads use case`,
      };
    }
    if (err.status === undefined || err.status >= 500 || err.status === 429)
      return { ok: false, message: `Herald could not check the app with Threads: ${err.message}` };
  }
  if (!req.redirectUri.startsWith('https://')) {
    return {
      ok: false,
      message:
        `Threads accepted the app id and secret, but Threads only accepts HTTPS redirect URIs and ` +
        `${req.redirectUri} is not one: set an HTTPS redirect URI (yours, added under "Redirect Callback ` +
        `URLs"), then after signing in paste the address Threads sent you to into Herald`,
    };
  }
  return { ok: true, message: 'Threads accepted the app id and secret' };
}

export const threadblogOAuth: OAuthAdapter = {
  checkApp: checkThreadsApp,

  async authorizeUrl(req) {
    const client = clientOf(req.network, req.app);
    const url = new URL(req.network.authorizeUrl);
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('redirect_uri', req.redirectUri);
    url.searchParams.set('scope', THREADS_SCOPES.join(','));
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('state', req.state);
    return { url: url.toString() };
  },

  async exchangeCode(req) {
    const client = clientOf(req.network, req.app);
    try {
      const short = await graphCall<TokenAnswer>(
        req.network.tokenUrl,
        formPost({
          client_id: client.clientId,
          client_secret: client.clientSecret,
          code: cleanCode(req.code),
          grant_type: 'authorization_code',
          redirect_uri: req.redirectUri,
        }),
        { what: 'finish connecting the account' },
      );
      if (!short.access_token)
        throw new PlatformError(
          'threadblog',
          'transient',
          'Threads answered the code exchange without an access token',
        );
      const long = await graphCall<TokenAnswer>(
        graphUrl(
          req.network.apiUrl,
          '/access_token',
          {
            grant_type: 'th_exchange_token',
            client_secret: client.clientSecret,
            access_token: short.access_token,
          },
          { versioned: false },
        ),
        { method: 'GET' },
        { what: 'obtain a long-lived token' },
      );
      return toCredentials(long, Date.now());
    } catch (err) {
      refusedSignIn(err);
    }
  },
};

/** Renews the long-lived token; a refusal means the person must connect again. */
export async function refreshThreads(
  network: NetworkConfig,
  credentials: Credentials,
  signal?: AbortSignal,
): Promise<Credentials> {
  try {
    const answer = await graphCall<TokenAnswer>(
      graphUrl(
        network.apiUrl,
        '/refresh_access_token',
        {
          grant_type: 'th_refresh_token',
          access_token: credentials.accessToken,
        },
        { versioned: false },
      ),
      { method: 'GET' },
      { what: 'renew the access token', signal },
    );
    return toCredentials(answer, Date.now());
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'permanent' || err.kind === 'token_expired')) {
      throw new PlatformError(
        'threadblog',
        'token_expired',
        `Threads refused to renew the access token (${err.message}); connect the account again`,
        { status: err.status, cause: err },
      );
    }
    throw err;
  }
}
