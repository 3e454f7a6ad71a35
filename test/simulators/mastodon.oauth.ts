// Mastodon simulator: app registration (POST /api/v1/apps), OAuth (/oauth/authorize with PKCE optional,
// /oauth/token for authorization_code and client_credentials, /oauth/revoke). Codes, client ids and
// secrets and tokens are canaries.
import { canaryToken, s256, str, strList } from './common.js';
import { backTo, htmlPage } from './oauth-pages.js';
import type { Router, SimReply } from './common.js';
import type { MastodonApp, MastodonState } from './mastodon.simulator.js';

export function registerMastodonOAuth(
  router: Router,
  ctx: {
    state: MastodonState;
    err: (status: number, error: string) => SimReply;
    /** The account chosen with setCurrentUser, if any. */
    currentUser: () => string | undefined;
  },
): { registerApp(redirectUris: string[], scopes?: string): MastodonApp } {
  const { state, err } = ctx;
  const codes = new Map<
    string,
    { accountId: string; clientId: string; redirectUri: string; scopes: string[]; challenge?: string }
  >();
  const registerApp = (redirectUris: string[], scopes = 'read'): MastodonApp => {
    const app: MastodonApp = {
      name: 'app',
      clientId: canaryToken('mastodon', 'client'),
      clientSecret: canaryToken('mastodon', 'secret'),
      redirectUris,
      scopes: scopes.split(/\s+/).filter(Boolean),
    };
    state.apps.push(app);
    return app;
  };
  router.on('POST', '/api/v1/apps', (req) => {
    const name = str(req.body.client_name);
    const uris = strList(req.body.redirect_uris)
      .flatMap((u) => u.split(/\s+/))
      .filter(Boolean);
    if (!name) return err(422, "Validation failed: Application name can't be blank");
    if (!uris.length) return err(422, "Validation failed: Redirect URI can't be blank");
    const app = registerApp(uris, str(req.body.scopes) ?? 'read');
    app.name = name;
    return {
      status: 200,
      body: {
        id: String(state.apps.length),
        name,
        website: str(req.body.website) ?? null,
        scopes: app.scopes,
        redirect_uri: uris.join('\n'),
        redirect_uris: uris,
        vapid_key: 'BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        client_secret_expires_at: 0,
      },
    };
  });
  router.on('GET', '/oauth/authorize', (req) => {
    const q = req.query;
    const app = state.apps.find((a) => a.clientId === q.get('client_id'));
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!app || !app.redirectUris.includes(redirectUri))
      return htmlPage(400, '<p>The redirect uri included is not valid.</p>');
    const back = backTo(redirectUri, q);
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type' });
    const scopes = (q.get('scope') ?? 'read').split(/[\s+]+/).filter(Boolean);
    if (!scopes.every((s) => app.scopes.includes(s) || app.scopes.includes(s.split(':')[0]!)))
      return back({ error: 'invalid_scope' });
    const challenge = q.get('code_challenge') ?? undefined;
    if (challenge && q.get('code_challenge_method') !== 'S256') return back({ error: 'invalid_request' });
    const acct = state.accounts.find((a) => a.username === ctx.currentUser()) ?? state.accounts[0]!;
    const code = canaryToken('mastodon', 'code');
    codes.set(code, { accountId: acct.id, clientId: app.clientId, redirectUri, scopes, challenge });
    return back({ code });
  });
  router.on('POST', '/oauth/token', (req) => {
    const b = req.body;
    const app = state.apps.find((a) => a.clientId === str(b.client_id));
    if (!app || app.clientSecret !== str(b.client_secret)) {
      return {
        status: 401,
        body: {
          error: 'invalid_client',
          error_description:
            'Client authentication failed due to unknown client, no client authentication included, or ' +
            'unsupported authentication method.',
        },
      };
    }
    const grant = str(b.grant_type);
    const issue = (accountId: string, scopes: string[]) => {
      const token = canaryToken('mastodon', 'access');
      state.tokens.set(token, { accountId, scopes, clientId: app.clientId });
      state.issuedTokens.push(token);
      return {
        status: 200,
        body: {
          access_token: token,
          token_type: 'Bearer',
          scope: scopes.join(' '),
          created_at: Math.floor(Date.now() / 1000),
        },
      };
    };
    const invalidGrant = {
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI ' +
          'used in the authorization request, or was issued to another client.',
      },
    };
    if (grant === 'authorization_code') {
      const c = codes.get(str(b.code) ?? '');
      if (!c || c.clientId !== app.clientId || c.redirectUri !== str(b.redirect_uri)) return invalidGrant;
      codes.delete(str(b.code)!);
      if (c.challenge && s256(str(b.code_verifier) ?? '') !== c.challenge) return invalidGrant;
      return issue(c.accountId, c.scopes);
    }
    if (grant === 'client_credentials') return issue('', (str(b.scope) ?? 'read').split(/\s+/));
    return {
      status: 400,
      body: {
        error: 'unsupported_grant_type',
        error_description: 'The authorization grant type is not supported by the authorization server.',
      },
    };
  });
  router.on('POST', '/oauth/revoke', (req) => {
    state.tokens.delete(str(req.body.token) ?? '');
    return { status: 200, body: {} };
  });
  return { registerApp };
}
