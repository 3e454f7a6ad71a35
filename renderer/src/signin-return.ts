/**
 * Signing in with the identity provider or X from the browser UI (`npm run serve`): the page
 * asks the API for the provider's URL with a redirect URI on this very origin (a loopback one,
 * RFC 8252, so the API accepts it), the browser goes there, and the provider sends it back to
 * `/signin/<flow>?code&state`, which the server answers with the UI. The UI then finishes the
 * flow through the API's callback and keeps the key it answers.
 */
import { client } from './api';

export type SignInFlow = 'identity' | 'microblog';

const redirectUri = (flow: SignInFlow) => `${window.location.origin}/signin/${flow}`;

/** Sends the browser to the provider's sign-in page. */
export async function startSignIn(flow: SignInFlow): Promise<void> {
  const body = { redirectUri: redirectUri(flow) };
  const { authUrl } =
    flow === 'identity' ? await client.identitySignInUrl(body) : await client.microblogSignInUrl(body);
  window.location.assign(authUrl);
}

/** The flow whose answer this page load carries, if it is one. */
export function signInReturn(): SignInFlow | undefined {
  const m = /^\/signin\/(identity|microblog)\/?$/.exec(window.location.pathname);
  return m ? (m[1] as SignInFlow) : undefined;
}

/**
 * Finishes the flow the page came back from and answers the new key. The answer's code and
 * state leave the address bar first, so a reload or a bookmark cannot replay them.
 */
export async function finishSignIn(flow: SignInFlow): Promise<string> {
  const params = new URLSearchParams(window.location.search);
  window.history.replaceState(null, '', '/');
  const refused = params.get('error');
  if (refused) {
    const why = params.get('error_description') || refused;
    throw new Error(`Sign-in was not completed at the provider (${why}). Try again.`);
  }
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) throw new Error('The provider sent the browser back without a sign-in code. Try again.');
  const iss = params.get('iss');
  const body = { code, state, redirectUri: redirectUri(flow), session: true, ...(iss ? { iss } : {}) };
  const r =
    flow === 'identity' ? await client.identitySignInCallback(body) : await client.microblogSignInCallback(body);
  return r.apiKey.key;
}
