/**
 * POST /auth/oauth/{identity,microblog}/{url,callback}: sign-in by OAuth, no key needed.
 * Error choices (docs/decisions.md §2 leaves them to us): a bad, reused, expired or swapped state, a
 * redirectUri that is neither loopback nor configured, an ID token that fails validation and
 * an e-mail the provider has not verified are 400 INVALID_INPUT; a provider that refuses the
 * code or cannot be reached is 502 PLATFORM_ERROR; missing client id/secret is 501.
 */
import * as c from '../../contracts/signin.js';
import { KEY_WARNING } from '../../domain/auth/auth.service.js';
import type { SignInResult } from '../../domain/auth/signin.service.js';
import type { Services } from '../../domain/services.js';
import type { ErrorCode } from '../../core/errors.js';
import { defineRoute } from '../route.js';

const TAG = 'Sign-in and keys';
const URL_ERRORS: ErrorCode[] = ['INVALID_INPUT', 'OAUTH_NOT_CONFIGURED', 'PLATFORM_ERROR'];
const STATE_NOTE =
  'The state is single-use and valid 10 minutes; a forged, reused, expired or other-flow state is 400 ' +
  'INVALID_INPUT and nothing is sent to the provider.';

function answer(r: SignInResult) {
  const who = r.provider === 'identity' ? 'your identity provider' : 'X';
  return {
    success: true as const,
    user: { uuid: r.user.id, email: r.user.email, provider: r.provider, isNewUser: r.isNewUser },
    apiKey: { key: r.key.key, name: r.key.name, createdAt: r.key.createdAt, lastUsed: r.key.lastUsed },
    ...(r.account ? { account: r.account } : {}),
    message:
      `${r.isNewUser ? 'Welcome: your Herald user was created and you are signed in' : 'Signed in'} with ` +
      `${who}. ${KEY_WARNING}`,
  };
}

export const signInRoutes = (s: Services) => {
  const { signIn } = s;
  return [
    defineRoute({
      method: 'post',
      path: '/auth/oauth/identity/url',
      tag: TAG,
      auth: false,
      summary: 'Start signing in with an OpenID Connect provider (authorization code + PKCE, state, nonce)',
      description: 'The provider is found by discovery from HERALD_IDENTITY_ISSUER (Google by default).',
      body: c.signInUrlBody,
      response: c.signInUrlResponse,
      errors: URL_ERRORS,
      handler: async ({ body }) => ({ success: true, ...(await signIn.identityUrl(body.redirectUri)) }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/oauth/identity/callback',
      tag: TAG,
      auth: false,
      summary: 'Finish signing in with the OpenID Connect provider; creates the user at the first sign-in',
      description:
        `The ID token is validated (signature, issuer, audience, nonce, expiry) and a verified e-mail is ` +
        `required (400 INVALID_INPUT otherwise). The user with that e-mail is signed in (isNewUser false), or ` +
        `created (isNewUser true); either way a new "Default API Key" is issued. ${STATE_NOTE}`,
      body: c.signInCallbackBody,
      response: c.identityCallbackResponse,
      errors: URL_ERRORS,
      handler: async ({ body }) => answer(await signIn.identityCallback(body)),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/oauth/microblog/url',
      tag: TAG,
      auth: false,
      summary: 'Start signing in with an X account (OAuth 2.0 + PKCE)',
      body: c.signInUrlBody,
      response: c.signInUrlResponse,
      errors: URL_ERRORS,
      handler: async ({ body }) => ({ success: true, ...(await signIn.microblogUrl(body.redirectUri)) }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/oauth/microblog/callback',
      tag: TAG,
      auth: false,
      summary:
        'Finish signing in with X: signs in the owner of that X account, or creates a user, and connects the account',
      description:
        `A new user's e-mail is the placeholder \`<X user id>@users.x.invalid\` (X shares no e-mail address). ` +
        `The account's tokens go to the secret store. ${STATE_NOTE}`,
      body: c.signInCallbackBody,
      response: c.microblogCallbackResponse,
      errors: [...URL_ERRORS, 'RATE_LIMITED'],
      handler: async ({ body }) => answer(await signIn.microblogCallback(body)),
    }),
  ];
};
