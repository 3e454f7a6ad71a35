/**
 * The Test button for the identity provider (sign-in with Google or another OpenID Connect
 * provider): discovery at the issuer, then a code exchange with a made-up code. Providers answer
 * `invalid_client` (401, or 400) for a wrong client id or secret and `invalid_grant` for a right
 * client with a bad code (RFC 6749 §5.2).
 */
const TIMEOUT_MS = 15_000;

export async function checkIdentityApp(identity: {
  issuer: string;
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
}): Promise<{ ok: boolean; message: string }> {
  const { issuer, clientId, clientSecret } = identity;
  if (!clientId || !clientSecret)
    return { ok: false, message: 'The identity provider needs a client id and a client secret' };
  let tokenEndpoint: string;
  try {
    const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
    if (!res.ok)
      return {
        ok: false,
        message:
          `The identity provider at ${issuer} has no OpenID configuration (HTTP ${res.status}); check ` +
          `HERALD_IDENTITY_ISSUER`,
      };
    const meta = (await res.json()) as { token_endpoint?: unknown };
    if (typeof meta.token_endpoint !== 'string')
      return { ok: false, message: `The identity provider at ${issuer} names no token endpoint` };
    tokenEndpoint = meta.token_endpoint;
  } catch (err) {
    return {
      ok: false,
      message: `Herald could not reach the identity provider at ${issuer}: ${(err as Error).message}`,
    };
  }
  try {
    const res = await fetch(tokenEndpoint, {
      method: 'POST',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'herald-credential-check',
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uri: identity.redirectUri ?? 'http://127.0.0.1/',
      }).toString(),
    });
    let body: { error?: string; error_description?: string } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      /* not JSON */
    }
    if (body.error === 'invalid_client' || body.error === 'unauthorized_client' || res.status === 401) {
      return {
        ok: false,
        message:
          `The identity provider did not accept the client id and secret (` +
          `${body.error_description ?? body.error ?? `HTTP ${res.status}`}): copy them again from the OAuth ` +
          `client on the provider's console`,
      };
    }
    if (res.status >= 500)
      return { ok: false, message: `The identity provider had a problem (HTTP ${res.status}); try again later` };
    return { ok: true, message: 'The identity provider accepted the client id and secret' };
  } catch (err) {
    return {
      ok: false,
      message: `Herald could not reach the identity provider's token endpoint: ${(err as Error).message}`,
    };
  }
}
