// Threads simulator: OAuth. /oauth/authorize (redirect URI checks, deny, threads_basic required, "#_"
// appended), POST /oauth/access_token (code → short-lived token, user_id a bare JSON number), GET
// /access_token (th_exchange_token → long-lived) and GET /refresh_access_token (long-lived only, 24 h old).
import { canaryToken, redirect, withQuery } from './common.js';
import type { Router, SimReply, SimRequest } from './common.js';
import { errors, params } from './threads.graph.js';
import type { ThreadsSimulatorOptions, ThreadsState, Token } from './threads.types.js';

export function registerThreadsOAuth(
  router: Router,
  ctx: {
    opts: ThreadsSimulatorOptions;
    clientId: string;
    clientSecret: string;
    state: ThreadsState;
    auth: (req: SimRequest) => { userId: string; token: string } | SimReply;
    /** Age a long-lived token needs before it can be refreshed, ms. */
    minRefreshAge: number;
    /** The user chosen with setCurrentUser, if any. */
    currentUser: () => string | undefined;
  },
): void {
  const { opts, clientId, clientSecret, state, auth, minRefreshAge } = ctx;
  const codes = new Map<string, { userId: string; redirectUri: string }>();

  const issue = (userId: string, kind: Token['kind']) => {
    const token = canaryToken('threads', kind === 'short' ? 'short' : 'long');
    const ttl = kind === 'short' ? 3600 : 5_183_944;
    state.tokens.set(token, { userId, kind, issuedAt: Date.now(), expiresAt: Date.now() + ttl * 1000 });
    state.issuedTokens.push(token);
    return { token, ttl };
  };

  router.on('GET', '/oauth/authorize', (req) => {
    const q = req.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== clientId || !redirectUri) return errors.param('Invalid platform app');
    const blocked = (why: string): SimReply => ({
      status: 400,
      raw: `<h1>URL blocked</h1><p>${why}</p>`,
      headers: { 'content-type': 'text/html' },
    });
    if (opts.httpsRedirectsOnly && !redirectUri.startsWith('https://'))
      return blocked('Insecure redirect URI: redirect URIs must use HTTPS.');
    if (opts.redirectUris && !opts.redirectUris.includes(redirectUri))
      return blocked(
        "This redirect failed because the redirect URI is not whitelisted in the app's client OAuth settings.",
      );
    if (q.get('deny') === '1' || state.denyNext) {
      state.denyNext = false;
      const denied = { error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error' };
      return redirect(`${withQuery(redirectUri, { ...denied, state: q.get('state') ?? undefined })}#_`);
    }
    const scopes = (q.get('scope') ?? '').split(',').filter(Boolean);
    if (!scopes.includes('threads_basic'))
      return redirect(
        withQuery(redirectUri, {
          error: 'invalid_scope',
          error_reason: 'threads_basic is required',
          state: q.get('state') ?? undefined,
        }),
      );
    const u = state.users.find((x) => x.username === ctx.currentUser()) ?? state.users[0]!;
    const code = canaryToken('threads', 'code');
    codes.set(code, { userId: u.id, redirectUri });
    // Threads appends "#_" to the redirect; clients must strip it.
    return redirect(`${withQuery(redirectUri, { code, state: q.get('state') ?? undefined })}#_`);
  });
  router.on('POST', '/oauth/access_token', (req) => {
    const p = params(req);
    if (p.client_id !== clientId) return errors.oauth('Error validating application. Invalid application ID.', 101);
    if (p.client_secret !== clientSecret) return errors.oauth('Error validating client secret.', 1);
    if (p.grant_type !== 'authorization_code') return errors.param('Unsupported grant_type');
    const c = codes.get(p.code ?? '');
    if (!c) return errors.param('Invalid verification code format.');
    if (c.redirectUri !== p.redirect_uri)
      return errors.param(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you ' +
          'used in the OAuth dialog request',
      );
    codes.delete(p.code!);
    const { token } = issue(c.userId, 'short');
    // user_id is a bare JSON number with every digit; above 2^53 a JSON.parse client loses
    // precision (a real pitfall: take the id from /me instead).
    return {
      status: 200,
      raw: `{"access_token":${JSON.stringify(token)},"user_id":${c.userId}}`,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    };
  });
  router.on('GET', '/access_token', (req) => {
    state.exchangeCalls += 1;
    const p = params(req);
    if (p.grant_type !== 'th_exchange_token') return errors.param('Unsupported grant_type');
    if (p.client_secret !== clientSecret) return errors.param('Error validating client secret.');
    const a = auth(req);
    if (!('userId' in a)) return a;
    const { token, ttl } = issue(a.userId, 'long');
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: ttl } };
  });
  router.on('GET', '/refresh_access_token', (req) => {
    state.refreshCalls += 1;
    const p = params(req);
    if (p.grant_type !== 'th_refresh_token') return errors.param('Unsupported grant_type');
    const a = auth(req);
    if (!('userId' in a)) return a;
    const tok = state.tokens.get(a.token)!;
    state.refreshCallsByUser.set(a.userId, (state.refreshCallsByUser.get(a.userId) ?? 0) + 1);
    if (tok.kind !== 'long') return errors.param('Only long-lived tokens can be refreshed');
    if (Date.now() - tok.issuedAt < minRefreshAge)
      return errors.param('Token must be at least 24 hours old to be refreshed');
    const { token, ttl } = issue(a.userId, 'long');
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: ttl } };
  });
}
