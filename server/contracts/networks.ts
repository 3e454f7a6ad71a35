import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue } from './common.js';

export const appPlatform = lazySchema(() => z.enum(['microblog', 'threadblog', 'problog', 'identity']));
/** The networks whose connect flow may end with a pasted redirect. */
export const pastedNetwork = lazySchema(() => z.enum(['microblog', 'threadblog', 'problog']));
export const networkParams = lazySchema(() =>
  z.object({
    platform: appPlatform.describe(
      'microblog (X), threadblog (Threads), problog (LinkedIn) or identity (sign-in provider)',
    ),
  }),
);

export const networkAppSchema = lazySchema(() =>
  z.object({
    platform: appPlatform,
    label: z.string().describe('Its name as people know it (X, Threads, LinkedIn, the sign-in provider)'),
    scopes: z.array(z.string()).describe('The OAuth scopes Herald asks for, to allow in the app at the network'),
    configured: z.boolean().describe('A client id and secret are in force'),
    source: z
      .enum(['app', 'env'])
      .nullable()
      .describe(
        "app: saved in Herald's secret store; env: environment variables (or config.json), which win; null: none",
      ),
    redirectUri: z.string().describe('The redirect URI to register at the network'),
    clientId: z.string().nullable().describe('The client id in force (the secret is never shown)'),
    analyticsScope: z
      .boolean()
      .optional()
      .describe('LinkedIn only: whether sign-in asks for r_member_postAnalytics (post analytics)'),
  }),
);

export const networksResponse = lazySchema(() =>
  z.object({ success: successTrue, networks: z.array(networkAppSchema) }),
);
export const networkResponse = lazySchema(() => z.object({ success: successTrue, network: networkAppSchema }));

export const setNetworkBody = lazySchema(() =>
  z
    .object({
      clientId: z
        .string()
        .max(500)
        .optional()
        .describe(
          'The client id (X: OAuth 2.0 Client ID; Threads: Threads App ID; LinkedIn: Client ID); required with ' +
            'the secret unless only analyticsScope is set',
        ),
      clientSecret: z
        .string()
        .max(1000)
        .optional()
        .describe('The client secret; kept in the secret store, never shown again'),
      redirectUri: z
        .string()
        .max(2048)
        .optional()
        .describe('An own redirect URI (HTTPS for Threads); the connect flow then finishes with a pasted redirect'),
      analyticsScope: z
        .boolean()
        .optional()
        .describe(
          'LinkedIn only: ask for r_member_postAnalytics at sign-in (default true); false when the app lacks ' +
            'the Community Management API product. Alone, it changes only this',
        ),
    })
    .strict(),
);

export const networkTestResponse = lazySchema(() =>
  z.object({ success: successTrue, ok: z.boolean(), message: z.string() }),
);

export const pastedRedirectBody = lazySchema(() =>
  z
    .object({
      redirectUrl: z
        .string()
        .min(1)
        .max(8192)
        .describe('The full address the network sent the browser to, with code and state'),
    })
    .strict(),
);
