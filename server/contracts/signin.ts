/**
 * Sign-in by OAuth (docs/decisions.md §2). The callbacks answer the same
 * shape for new and existing users; microblog adds the connected `account`.
 */
import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { accountSchema } from './accounts.js';
import { sessionFlag } from './auth.js';
import { successTrue, timestamp } from './common.js';

export const signInUrlBody = lazySchema(() =>
  z.object({
    redirectUri: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .describe(
        'Where the provider sends the browser back: a loopback URI (http://127.0.0.1:<port>/…, ' +
          'http://[::1]:<port>/…, http://localhost:<port>/…, RFC 8252) or the configured ' +
          'HERALD_IDENTITY_REDIRECT_URI / HERALD_MICROBLOG_REDIRECT_URI; no query or fragment',
      ),
  }),
);

export const signInUrlResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    authUrl: z.string(),
    state: z.string().describe('base64url; single-use, valid 10 minutes, bound to this flow and redirectUri'),
  }),
);

export const signInCallbackBody = lazySchema(() =>
  z.object({
    code: z.string().min(1).max(4096),
    state: z.string().min(1).max(512),
    redirectUri: z
      .string()
      .max(2000)
      .optional()
      .describe('Optional; when given it must equal the redirectUri the flow started with'),
    iss: z
      .string()
      .max(2000)
      .optional()
      .describe('Optional (identity): the `iss` parameter of the authorization response (RFC 9207)'),
    session: sessionFlag,
  }),
);

const signInUser = lazySchema(() =>
  z.object({
    uuid: z.string(),
    email: z.string().describe('for a new X sign-in user: `<X user id>@users.x.invalid` (X shares no e-mail address)'),
    provider: z.enum(['identity', 'microblog']).describe('the provider of this sign-in'),
    isNewUser: z.boolean(),
  }),
);

const issuedKey = lazySchema(() =>
  z.object({ key: z.string(), name: z.string(), createdAt: timestamp, lastUsed: timestamp.nullable() }),
);

export const identityCallbackResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    user: signInUser,
    apiKey: issuedKey,
    message: z.string(),
  }),
);

export const microblogCallbackResponse = lazySchema(() =>
  built(identityCallbackResponse).extend({ account: accountSchema }),
);
