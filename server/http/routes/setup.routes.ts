import { setupBody, setupResponse, setupStatusResponse, wizardBody, wizardResponse } from '../../contracts/settings.js';
import {
  chooseSecretStoreBody,
  chooseSecretStoreResponse,
  secretSetupResponse,
  unlockSecretsBody,
  unlockSecretsResponse,
} from '../../contracts/setup.js';
import { DEFAULT_KEY_NAME, KEY_WARNING } from '../../domain/auth/auth.service.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';
import { HeraldError } from '../../core/errors.js';
import { canonicalTimeZone } from '../../../time/zones.js';

const tag = 'Sign-in and keys';

/**
 * First-run onboarding for the UI: creates the owner once, on an install with no user. It is
 * not a registration endpoint: with any user present it refuses.
 */
export const setupRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/auth/setup',
    tag,
    auth: false,
    summary: 'Whether this install still needs its owner (first run)',
    response: setupStatusResponse,
    errors: [],
    handler: () => ({
      success: true,
      needsSetup: s.users.count() === 0,
      wizardStep: s.wizard.step(),
      signIn: s.signIn.available(),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/setup',
    tag,
    auth: false,
    summary: 'Create the owner on a new install and sign in (refused once any user exists)',
    body: setupBody,
    description:
      'One-shot: of any number of concurrent calls on a new install exactly one creates the owner; the ' +
      'others, and every later call, get 409 ALREADY_SET_UP.',
    response: setupResponse,
    errors: ['INVALID_INPUT', 'ALREADY_SET_UP'],
    handler: async ({ body }) => {
      const zone = body.timezone === undefined ? undefined : canonicalTimeZone(body.timezone);
      if (body.timezone !== undefined && !zone) {
        throw new HeraldError(
          'INVALID_INPUT',
          `"${body.timezone}" is not a time zone this system knows; use an IANA name such as Europe/Berlin`,
          {
            details: [{ path: 'body.timezone', message: 'unknown IANA zone' }],
          },
        );
      }
      const user = await s.users.create(
        { email: body.email, password: body.password, nickname: body.nickname },
        { first: true },
      );
      // A zone given here is the owner's choice of the zone setting (the default is the machine's).
      if (zone) s.settings.update(user.id, { timeZone: zone });
      // The app's wizard (a session sign-in) goes on to its next steps; `herald init` and scripts have none.
      if (body.session) s.wizard.begin();
      const key = s.auth.issueKey(user.id, DEFAULT_KEY_NAME, user.defaultTier as 'pro', { session: body.session });
      return {
        success: true,
        user: { uuid: user.id, email: user.email },
        apiKey: { key: key.key, name: key.name, createdAt: key.createdAt, lastUsed: null, expiresAt: key.expiresAt },
        warning: KEY_WARNING,
      };
    },
  }),
];

const secretsTag = 'Settings';

/** The wizard's progress and its secret-store step, which Settings → Data also uses (owner only). */
export const secretSetupRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'put',
    path: '/setup/wizard',
    tag: secretsTag,
    summary: "Record the first-run wizard's step, so a reload resumes there; null finishes it",
    body: wizardBody,
    response: wizardResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED'],
    handler: ({ auth, body }) => ({ success: true, wizardStep: s.wizard.set(auth.user.id, body.step) }),
  }),
  defineRoute({
    method: 'get',
    path: '/setup/secrets',
    tag: secretsTag,
    summary:
      'Where secrets live now, and whether the OS keychain works here (checked by a write/read/delete round trip)',
    response: secretSetupResponse,
    errors: ['UNAUTHORIZED'],
    handler: async ({ auth }) => ({ success: true, ...(await s.secretSetup.status(auth.user.id)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/setup/secrets',
    tag: secretsTag,
    summary: 'Choose or change where secrets live: keychain, encrypted file (with a passphrase), plain file, or none',
    description:
      'May be called at any time by the owner. Takes effect at once; every saved secret moves across; saved ' +
      'to config.json for the next start. Choosing the keychain where none works is a 409 naming the ' +
      'alternatives.',
    body: chooseSecretStoreBody,
    response: chooseSecretStoreResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED', 'INVALID_CREDENTIALS', 'SECRET_STORE_UNAVAILABLE', 'SECRET_STORE_LOCKED'],
    handler: async ({ auth, body }) => ({
      success: true,
      ...(await s.secretSetup.choose(auth.user.id, body.store, body.passphrase)),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/setup/secrets/unlock',
    tag: secretsTag,
    summary: 'Unlock the encrypted secret store with its passphrase (after each start)',
    body: unlockSecretsBody,
    response: unlockSecretsResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED', 'INVALID_CREDENTIALS'],
    handler: async ({ auth, body }) => ({
      success: true,
      ...(await s.secretSetup.unlock(auth.user.id, body.passphrase)),
    }),
  }),
];
