import { z } from 'zod';
import { accountSchema } from './accounts.js';
import { successTrue } from './common.js';

const mode = z.enum(['create_new', 'add_to_existing']).describe('create_new makes a set named after the handle; add_to_existing (default) adds to socialSetId, else the default set');

export const oauthConnectBody = z.object({
  socialSetId: z.string().min(1).max(200).optional(),
  mode: mode.optional(),
  followOnPlatform: z.boolean().optional(),
});
export const fedblogConnectBody = oauthConnectBody.omit({ followOnPlatform: true }).extend({
  instanceUrl: z.string().trim().min(1).max(2048).describe('The Mastodon instance, e.g. https://mastodon.social'),
});
export const skyblogConnectBody = z.object({
  identifier: z.string().trim().min(1).max(320).describe('Handle, e-mail or DID'),
  appPassword: z.string().min(1).max(200).describe('An app password (Settings → App passwords), not the main password'),
  service: z.string().trim().min(1).max(2048).optional().describe('PDS or entryway URL; default https://bsky.social'),
  socialSetId: z.string().min(1).max(200).optional(),
  mode: mode.optional(),
});

export const oauthStartResponse = z.object({ success: successTrue, authUrl: z.string(), sessionId: z.string() });
export const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});
export const callbackResponse = z.object({ success: successTrue, accountUuid: z.string(), socialSetId: z.string() });
export const skyblogConnectResponse = z.object({ success: successTrue, account: accountSchema, socialSetId: z.string() });
