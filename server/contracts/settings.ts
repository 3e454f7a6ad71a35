/** First-run setup, install settings and the online backup: shared by the routes and the client. */
import { z } from 'zod';
import { loginResponse, sessionFlag, tierSchema } from './auth.js';
import { successTrue } from './common.js';

export const setupStatusResponse = z.object({
  success: successTrue,
  needsSetup: z.boolean(),
  signIn: z.object({
    identity: z.boolean().describe('Sign-in with the identity provider (OpenID Connect) is configured'),
    identityProvider: z.string().describe('What to call that provider on a button: "Google", or the issuer\'s host'),
    microblog: z.boolean().describe('Sign-in with X is configured'),
  }).describe('The sign-in flows this install can start (POST /auth/oauth/{identity,microblog}/url)'),
});
export const setupBody = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(8).max(1024),
  nickname: z.string().trim().max(100).optional(),
  timezone: z.string().max(100).optional(),
  session: sessionFlag,
});
export const setupResponse = loginResponse;

export const settingsSchema = z.object({
  version: z.string(),
  dataDir: z.string().optional().describe('The data folder: shown to the owner only (a path names the person and the machine)'),
  secretStore: z.string().optional().describe('Where secrets are kept: shown to the owner only'),
  graceMinutes: z.number(), monthlyCredits: z.number().int(),
  defaultTier: tierSchema,
  timeZone: z.string().describe('IANA zone schedules are shown and typed in; default the zone of the machine Herald runs on'),
  defaultLanguage: z.string().describe('BCP 47 tag new drafts get; default from the system locale'),
  detected: z.object({ timeZone: z.string(), defaultLanguage: z.string() }).describe('What Herald found on this machine, for the first-run wizard'),
  fedblogHandOff: z.boolean().describe('Mastodon hand-off: a post due 10 minutes or more ahead is scheduled on the instance, which publishes it even with Herald closed'),
});
export const settingsResponse = z.object({ success: successTrue, settings: settingsSchema });
export const updateSettingsBody = z.object({
  graceMinutes: z.number().min(0).max(24 * 60).optional(),
  monthlyCredits: z.number().int().min(0).max(1_000_000).optional(),
  defaultTier: tierSchema.optional(),
  timeZone: z.string().trim().min(1).max(100).optional().describe('An IANA zone Intl knows, e.g. "Europe/Berlin"; applies at once'),
  defaultLanguage: z.string().trim().min(2).max(35).optional().describe('A well-formed BCP 47 tag, e.g. "de" or "pt-BR"; applies at once'),
  fedblogHandOff: z.boolean().optional().describe('Mastodon hand-off on or off; applies at once to posts not yet handed off'),
});
export const updateSettingsResponse = z.object({ success: successTrue, settings: settingsSchema, restartRequired: z.boolean() });
export const backupResponse = z.object({ success: successTrue, file: z.string(), bytes: z.number().int(), seconds: z.number() });
