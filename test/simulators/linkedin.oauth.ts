// LinkedIn simulator: 3-legged OAuth (no PKCE) at /oauth/v2/authorization (the app's scopes and
// redirect URLs checked, Cancel on request) and /oauth/v2/accessToken (authorization code, id_token
// for openid, non-rotating refresh tokens for apps with programmatic refresh), and OpenID /v2/userinfo.
import { canaryToken, randomId, str } from './common.js';
import { backTo, htmlPage } from './oauth-pages.js';
import type { Router, SimRequest } from './common.js';
import type { LinkedInSimulatorOptions, LinkedInState, LinkedInWho } from './linkedin.types.js';

export function registerLinkedInOAuth(
  router: Router,
  ctx: {
    opts: LinkedInSimulatorOptions;
    clientId: string;
    clientSecret: string;
    state: LinkedInState;
    auth: (req: SimRequest) => LinkedInWho;
    /** The simulator's URL (known once it listens). */
    base: () => string;
    /** The member chosen with setCurrentUser, if any. */
    currentUser: () => string | undefined;
  },
): void {
  const { opts, clientId, clientSecret, state, auth } = ctx;
  const codes = new Map<string, { sub: string; redirectUri: string; scopes: string[] }>();

  router.on('GET', '/oauth/v2/authorization', (req) => {
    const q = req.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== clientId || !redirectUri) return htmlPage(400, '<h1>Bummer, something went wrong.</h1>');
    if (opts.redirectUris && !opts.redirectUris.includes(redirectUri))
      return htmlPage(
        400,
        '<h1>Bummer, something went wrong.</h1><p>The redirect_uri does not match the registered value</p>',
      );
    const back = backTo(redirectUri, q);
    if (state.cancelNext) {
      state.cancelNext = false;
      return back({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' });
    }
    if (q.get('response_type') !== 'code')
      return back({ error: 'invalid_request', error_description: 'response_type must be code' });
    const scopes = (q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
    const allowed = ['openid', 'profile', 'email', 'w_member_social', 'r_basicprofile'];
    // Member post analytics come with the Community Management API product, which an app may lack.
    if (!state.noAnalyticsProduct) allowed.push('r_member_postAnalytics');
    if (!scopes.length || !scopes.every((s) => allowed.includes(s))) {
      const refused = scopes.find((s) => !allowed.includes(s)) ?? '';
      return back({
        error: 'unauthorized_scope_error',
        error_description: `Scope "${refused}" is not authorized for your application`,
      });
    }
    const m = state.members.find((x) => x.name === ctx.currentUser()) ?? state.members[0]!;
    const code = canaryToken('linkedin', 'code');
    codes.set(code, { sub: m.sub, redirectUri, scopes });
    return back({ code });
  });
  const issue = (sub: string, scopes: string[], refresh?: string) => {
    const token = canaryToken('linkedin', 'access');
    state.tokens.set(token, { sub, scopes, expiresAt: Date.now() + 5_184_000_000 });
    state.issuedTokens.push(token);
    const body: Record<string, unknown> = {
      access_token: token,
      expires_in: 5_184_000,
      scope: scopes.join(','),
      token_type: 'Bearer',
    };
    if (scopes.includes('openid')) {
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      body.id_token =
        `${enc({ alg: 'RS256', typ: 'JWT' })}.` +
        `${enc({ iss: 'https://www.linkedin.com/oauth', aud: clientId, sub, iat: Math.floor(Date.now() / 1000) })}.` +
        `${randomId(32)}`;
    }
    if (opts.programmaticRefresh) {
      const rt = refresh ?? canaryToken('linkedin', 'refresh');
      if (!refresh) {
        state.refreshTokens.set(rt, { sub, scopes });
        state.issuedTokens.push(rt);
      }
      Object.assign(body, { refresh_token: rt, refresh_token_expires_in: 31_536_000 });
    }
    return { status: 200, body };
  };
  router.on('POST', '/oauth/v2/accessToken', (req) => {
    const oauthErr = (status: number, error: string, d: string) => ({ status, body: { error, error_description: d } });
    if (req.bodyKind !== 'form')
      return oauthErr(
        400,
        'invalid_request',
        'Unable to retrieve access token: content type must be application/x-www-form-urlencoded',
      );
    const b = req.body;
    if (str(b.client_id) !== clientId || str(b.client_secret) !== clientSecret)
      return oauthErr(401, 'invalid_client', 'Client authentication failed');
    if (str(b.grant_type) === 'authorization_code') {
      const c = codes.get(str(b.code) ?? '');
      if (!c || c.redirectUri !== str(b.redirect_uri))
        return oauthErr(
          400,
          'invalid_request',
          'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization ' +
            'code. Or authorization code expired. Or external member binding exists',
        );
      codes.delete(str(b.code)!);
      return issue(c.sub, c.scopes);
    }
    if (str(b.grant_type) === 'refresh_token') {
      state.refreshCalls += 1;
      const rt = state.refreshTokens.get(str(b.refresh_token) ?? '');
      if (rt) state.refreshCallsByUser.set(rt.sub, (state.refreshCallsByUser.get(rt.sub) ?? 0) + 1);
      if (!opts.programmaticRefresh || !rt)
        return oauthErr(400, 'invalid_request', 'The provided refresh token is invalid');
      return issue(rt.sub, rt.scopes, str(b.refresh_token));
    }
    return oauthErr(400, 'unsupported_grant_type', 'grant_type is not supported');
  });
  router.on('GET', '/v2/userinfo', (req) => {
    const a = auth(req);
    if (!('sub' in a)) return a;
    const m = state.members.find((x) => x.sub === a.sub)!;
    return {
      status: 200,
      body: {
        sub: m.sub,
        email_verified: true,
        name: m.name,
        locale: { country: 'US', language: 'en' },
        given_name: m.givenName,
        family_name: m.familyName,
        email: m.email,
        picture: `${ctx.base()}/media/${m.sub}.jpg`,
      },
    };
  });
}
