/**
 * Mastodon OAuth (docs/decisions.md §19.3). Every instance is its own authorization server, so Herald
 * registers itself once per instance (POST /api/v1/apps) and hands the app back to the
 * connections service, which caches it in the secret store. The app remembers the redirect URI
 * it was registered with: if Herald now listens elsewhere, it registers again rather than send
 * the person to an authorize page that will refuse the redirect. Tokens never expire and there
 * is no refresh token.
 */
import type { AppCredentials, AuthorizeRequest, Credentials, OAuthAdapter } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { hostOf, joinUrl } from '../http.js';
import { mastoCall } from './http.js';

export const MASTODON_SCOPES = 'write:statuses write:media profile';
const CLIENT_NAME = 'Herald';

/** The cached app: client credentials plus the redirect URI they were registered for. */
export type MastoApp = AppCredentials & { redirectUri?: string };

function serverOf(serverUrl: string | undefined): string {
  if (!serverUrl)
    throw new PlatformError(
      'fedblog',
      'permanent',
      'Choose the Mastodon instance (for example mastodon.social) to connect to',
    );
  return serverUrl;
}

async function registerApp(serverUrl: string, redirectUri: string): Promise<MastoApp> {
  const { body } = await mastoCall<{ client_id?: string; client_secret?: string }>(
    joinUrl(serverUrl, '/api/v1/apps'),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_name: CLIENT_NAME, redirect_uris: redirectUri, scopes: MASTODON_SCOPES }),
    },
    { what: 'register Herald as an app' },
  );
  if (!body.client_id || !body.client_secret) {
    throw new PlatformError(
      'fedblog',
      'permanent',
      `${hostOf(serverUrl)} did not register Herald (no client id in its answer); is this a Mastodon instance?`,
    );
  }
  return { clientId: body.client_id, clientSecret: body.client_secret, redirectUri };
}

export const fedblogOAuth: OAuthAdapter = {
  async authorizeUrl(req: AuthorizeRequest) {
    const server = serverOf(req.serverUrl);
    const cached = req.app as MastoApp | undefined;
    const usable = cached && (!cached.redirectUri || cached.redirectUri === req.redirectUri);
    const app = usable ? cached! : await registerApp(server, req.redirectUri);
    const url = new URL(joinUrl(server, '/oauth/authorize'));
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('redirect_uri', req.redirectUri);
    url.searchParams.set('scope', MASTODON_SCOPES);
    url.searchParams.set('state', req.state);
    url.searchParams.set('code_challenge', req.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return { url: url.toString(), app: usable ? undefined : app };
  },

  async exchangeCode(req): Promise<Credentials> {
    const server = serverOf(req.serverUrl);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: req.code,
      client_id: req.app.clientId,
      client_secret: req.app.clientSecret ?? '',
      redirect_uri: req.redirectUri,
      code_verifier: req.codeVerifier,
      scope: MASTODON_SCOPES,
    });
    let body: { access_token?: string };
    try {
      ({ body } = await mastoCall<{ access_token?: string }>(
        joinUrl(server, '/oauth/token'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form.toString(),
        },
        { what: 'finish connecting the account' },
      ));
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind === 'transient' || err.kind === 'rate_limited') throw err;
      throw new PlatformError(
        'fedblog',
        'permanent',
        `${hostOf(server)} did not accept the sign-in (${err.message}); start connecting again`,
        { status: err.status, cause: err },
      );
    }
    if (!body.access_token)
      throw new PlatformError(
        'fedblog',
        'transient',
        `${hostOf(server)} answered the token request without an access token`,
      );
    return { accessToken: body.access_token };
  },
};
