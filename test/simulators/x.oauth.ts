// X simulator: OAuth 2.0 with PKCE (S256 only). /i/oauth2/authorize answers a code for the current
// user; POST /2/oauth2/token (form-encoded; a public client, or Basic auth or a body secret when the
// simulator has one) trades it, and rotates refresh tokens (a reused one can revoke its whole chain);
// POST /2/oauth2/revoke.
import { canaryToken, s256, str, redirect, withQuery, basicAuth } from './common.js';
import type { Router, SimReply } from './common.js';
import type { XSimulatorOptions, XState } from './x.types.js';

export function registerXOAuth(
  router: Router,
  ctx: {
    opts: XSimulatorOptions;
    clientId: string;
    /** Access-token lifetime, seconds. */
    ttl: number;
    state: XState;
    /** The user chosen with setCurrentUser, if any. */
    currentUser: () => string | undefined;
  },
): void {
  const { opts, clientId, ttl, state } = ctx;
  const codes = new Map<
    string,
    { userId: string; clientId: string; redirectUri: string; challenge: string; scopes: string[]; exp: number }
  >();

  const oauthError = (status: number, error: string, description: string): SimReply => ({
    status,
    body: { error, error_description: description },
  });
  router.on('GET', '/i/oauth2/authorize', (req) => {
    const q = req.query;
    if (q.get('client_id') !== clientId)
      return { status: 400, raw: 'Something went wrong: invalid client_id', headers: { 'content-type': 'text/plain' } };
    const redirectUri = q.get('redirect_uri');
    if (redirectUri && opts.redirectUris && !opts.redirectUris.includes(redirectUri)) {
      return {
        status: 400,
        raw: 'Something went wrong: redirect_uri is not registered',
        headers: { 'content-type': 'text/plain' },
      };
    }
    if (!redirectUri) return { status: 400, raw: 'missing redirect_uri', headers: { 'content-type': 'text/plain' } };
    const fail = (error: string) => redirect(withQuery(redirectUri, { error, state: q.get('state') ?? undefined }));
    if (q.get('response_type') !== 'code') return fail('unsupported_response_type');
    // X accepts the method case-insensitively (twitter-api-v2 sends 's256').
    if ((q.get('code_challenge_method') ?? '').toUpperCase() !== 'S256' || !q.get('code_challenge'))
      return fail('invalid_request');
    const scopes = (q.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (!scopes.length) return fail('invalid_scope');
    const user = state.users.find((u) => u.username === ctx.currentUser()) ?? state.users[0];
    if (!user) return fail('access_denied');
    const code = canaryToken('x', 'code');
    codes.set(code, {
      userId: user.id,
      clientId,
      redirectUri,
      challenge: q.get('code_challenge')!,
      scopes,
      exp: Date.now() + 30_000,
    });
    return redirect(withQuery(redirectUri, { state: q.get('state') ?? undefined, code }));
  });

  const issue = (userId: string, scopes: string[], chain = canaryToken('x', 'grant')) => {
    const access = canaryToken('x', 'access');
    state.accessTokens.set(access, { userId, scopes, chain, expiresAt: Date.now() + ttl * 1000 });
    state.issuedTokens.push(access);
    const body: Record<string, unknown> = {
      token_type: 'bearer',
      expires_in: ttl,
      access_token: access,
      scope: scopes.join(' '),
    };
    if (scopes.includes('offline.access')) {
      const refresh = canaryToken('x', 'refresh');
      state.refreshTokens.set(refresh, { userId, scopes, used: false, chain });
      state.issuedTokens.push(refresh);
      body.refresh_token = refresh;
    }
    return body;
  };

  router.on('POST', '/2/oauth2/token', (req) => {
    if (req.bodyKind !== 'form')
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    const b = req.body as Record<string, string>;
    const basic = basicAuth(req);
    const cid = basic?.id ?? str(b.client_id);
    if (cid !== clientId) return oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    if (opts.clientSecret !== undefined) {
      const secret = basic?.secret ?? str(b.client_secret);
      if (secret !== opts.clientSecret)
        return oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    }
    const grant = str(b.grant_type);
    if (grant === 'authorization_code') {
      const c = codes.get(str(b.code) ?? '');
      if (!c || c.exp < Date.now())
        return oauthError(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      codes.delete(str(b.code)!);
      if (c.redirectUri !== str(b.redirect_uri))
        return oauthError(
          400,
          'invalid_request',
          'Value passed for the redirect uri did not match the uri of the authorization code.',
        );
      const verifier = str(b.code_verifier) ?? '';
      if (s256(verifier) !== c.challenge)
        return oauthError(
          400,
          'invalid_request',
          'Value passed for the code verifier did not match the code challenge.',
        );
      return { status: 200, body: issue(c.userId, c.scopes) };
    }
    if (grant === 'refresh_token') {
      state.refreshCalls += 1;
      const rt = state.refreshTokens.get(str(b.refresh_token) ?? '');
      if (rt) state.refreshCallsByUser.set(rt.userId, (state.refreshCallsByUser.get(rt.userId) ?? 0) + 1);
      if (rt?.used && opts.reuseRevokesChain) {
        for (const [k, t] of state.accessTokens) if (t.chain === rt.chain) state.accessTokens.delete(k);
        for (const t of state.refreshTokens.values()) if (t.chain === rt.chain) t.used = true;
      }
      if (!rt || rt.used) return oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');
      rt.used = true; // rotation: the old refresh token dies now
      return { status: 200, body: issue(rt.userId, rt.scopes, rt.chain) };
    }
    return oauthError(400, 'unsupported_grant_type', 'grant_type not supported');
  });

  router.on('POST', '/2/oauth2/revoke', (req) => {
    const t = str(req.body?.token) ?? '';
    const existed = state.accessTokens.delete(t) || state.refreshTokens.delete(t);
    return { status: 200, body: { revoked: existed } };
  });
}
