import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { accountSchema } from './accounts.js';
import { successTrue } from './common.js';

const mode = lazySchema(() =>
  z
    .enum(['create_new', 'add_to_existing'])
    .describe(
      'create_new makes a set named after the handle; add_to_existing (default) adds to socialSetId, else ' +
        'the default set',
    ),
);

export const oauthConnectBody = lazySchema(() =>
  z.object({
    socialSetId: z.string().min(1).max(200).optional(),
    mode: mode.optional(),
    followOnPlatform: z.boolean().optional(),
    reconnect: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'The id of an account of yours on this network to reconnect: its tokens are replaced in place (same ' +
          'id, sets and schedule); signing in at the network as another user is refused (400) and changes ' +
          'nothing',
      ),
  }),
);
/** Threads and LinkedIn: what a connect takes, without the follow choice (only X has one). */
export const oauthStartBody = lazySchema(() => built(oauthConnectBody).omit({ followOnPlatform: true }));
export const fedblogConnectBody = lazySchema(() =>
  built(oauthConnectBody)
    .omit({ followOnPlatform: true })
    .extend({
      instanceUrl: z.string().trim().min(1).max(2048).describe('The Mastodon instance, e.g. https://mastodon.social'),
    }),
);
export const skyblogConnectBody = lazySchema(() =>
  z.object({
    identifier: z.string().trim().min(1).max(320).describe('Handle, e-mail or DID'),
    appPassword: z
      .string()
      .min(1)
      .max(200)
      .describe('An app password (Settings → App passwords), not the main password'),
    service: z.string().trim().min(1).max(2048).optional().describe('PDS or entryway URL; default https://bsky.social'),
    socialSetId: z.string().min(1).max(200).optional(),
    mode: mode.optional(),
    reconnect: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('The id of the Bluesky account to reconnect (see POST /microblog/auth)'),
  }),
);

export const oauthStartResponse = lazySchema(() =>
  z.object({ success: successTrue, authUrl: z.string(), sessionId: z.string() }),
);
export const callbackQuery = lazySchema(() =>
  z.object({
    code: z.string().max(4096).optional(),
    state: z.string().max(200).optional(),
    error: z.string().max(500).optional(),
    error_description: z.string().max(2000).optional(),
  }),
);
/**
 * Connecting a network user that is already an account here is not an error: its tokens are
 * refreshed in place (never a second account) and the answer says so, because the person has just
 * consented at the network and the network may already have retired the old tokens.
 */
const connectedFacts = () => ({
  alreadyConnected: z
    .boolean()
    .describe(
      'true when a fresh Connect found this network user already connected: the same account, its tokens ' +
        'refreshed, no second account',
    ),
  reconnected: z.boolean().describe('true when the flow was started with `reconnect`'),
  message: z
    .string()
    .describe(
      'What happened, in words to show, e.g. "Already connected as @ada on X — tokens refreshed; no second ' +
        'account was added."',
    ),
});
export const callbackResponse = lazySchema(() =>
  z.object({ success: successTrue, accountUuid: z.string(), socialSetId: z.string(), ...connectedFacts() }),
);
export const skyblogConnectResponse = lazySchema(() =>
  z.object({ success: successTrue, account: accountSchema, socialSetId: z.string(), ...connectedFacts() }),
);
export const sessionParam = lazySchema(() => z.object({ sessionId: z.string().min(1).max(200) }));
export const connectStatusResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    status: z
      .enum(['waiting', 'connected', 'failed'])
      .describe('waiting: the person has not come back from the network yet'),
    accountUuid: z.string().optional(),
    socialSetId: z.string().optional(),
    alreadyConnected: z.boolean().optional(),
    reconnected: z.boolean().optional(),
    message: z.string().optional(),
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        details: z
          .array(z.object({ path: z.string(), message: z.string() }))
          .optional()
          .describe('path `analyticsScope`: LinkedIn refused the analytics scope; connecting without it is offered'),
      })
      .optional()
      .describe('failed: the code and message the callback answered (cancelled at the network, wrong app, ...)'),
  }),
);
