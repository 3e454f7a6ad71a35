/** First-run setup, install settings and the online backup: shared by the routes and the client. */
import { z } from 'zod';
import { built, lazySchema } from './lazy.js';
import { loginResponse, sessionFlag, tierSchema } from './auth.js';
import { successTrue } from './common.js';

const wizardStep = lazySchema(() => z.enum(['secrets', 'defaults', 'networks']));
export const wizardBody = lazySchema(() =>
  z.object({
    step: wizardStep.nullable().describe('The step reached; null finishes the wizard'),
  }),
);
export const wizardResponse = lazySchema(() => z.object({ success: successTrue, wizardStep: wizardStep.nullable() }));

export const setupStatusResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    needsSetup: z.boolean(),
    wizardStep: wizardStep
      .nullable()
      .describe(
        'The first-run wizard step to resume at (after the owner is created); null once it is finished or ' +
          'when there is none',
      ),
    signIn: z
      .object({
        identity: z.boolean().describe('Sign-in with the identity provider (OpenID Connect) is configured'),
        identityProvider: z
          .string()
          .describe('What to call that provider on a button: "Google", or the issuer\'s host'),
        microblog: z.boolean().describe('Sign-in with X is configured'),
      })
      .describe('The sign-in flows this install can start (POST /auth/oauth/{identity,microblog}/url)'),
  }),
);
export const setupBody = lazySchema(() =>
  z.object({
    email: z.string().trim().min(3).max(320),
    password: z.string().min(8).max(1024),
    nickname: z.string().trim().max(100).optional(),
    timezone: z
      .string()
      .max(100)
      .optional()
      .describe(
        "IANA zone: sets the zone setting (default the machine's); an unknown zone is 400 naming body.timezone",
      ),
    session: sessionFlag,
  }),
);
export const setupResponse = loginResponse;

const xCapAction = lazySchema(() => z.enum(['warn', 'refuse']));
const xTier = lazySchema(() => z.enum(['pay_per_use', 'free', 'basic', 'pro']));
/** One switch per kind of notification (published, failed, missed, reconnect). */
export const notifications = lazySchema(() =>
  z.object({ published: z.boolean(), failed: z.boolean(), missed: z.boolean(), reconnect: z.boolean() }),
);
const usd = lazySchema(() =>
  z.number().min(0, 'must be zero or more').max(1_000_000).refine(Number.isFinite, 'a number'),
);

export const settingsSchema = lazySchema(() =>
  z.object({
    version: z.string(),
    dataDir: z
      .string()
      .optional()
      .describe('The data folder: shown to the owner only (a path names the person and the machine)'),
    secretStore: z.string().optional().describe('Where secrets are kept: shown to the owner only'),
    secretStoreLocked: z
      .boolean()
      .optional()
      .describe('The encrypted store waits for its passphrase (POST /setup/secrets/unlock): shown to the owner only'),
    graceMinutes: z.number(),
    monthlyCredits: z.number().int(),
    defaultTier: tierSchema,
    timeZone: z
      .string()
      .describe(
        "The user's IANA zone: GET /me answers it, new social sets start in it, the credit month follows it; " +
          'default the zone of the machine Herald runs on',
      ),
    defaultLanguage: z.string().describe('BCP 47 tag new drafts get; default from the system locale'),
    detected: z
      .object({ timeZone: z.string(), defaultLanguage: z.string() })
      .describe('What Herald found on this machine, for the first-run wizard'),
    xPriceUsd: z.number().describe('X pay-per-use: USD per post request (each post of a thread is one); default 0.015'),
    xPriceWithUrlUsd: z.number().describe('USD per post request with a URL in it; default 0.200'),
    xMediaMetadataPriceUsd: z
      .number()
      .describe('USD per Media Metadata request (the alt text of one image, GIF or video); default 0.005'),
    xReadPriceUsd: z.number().describe('USD per post read (owned reads for metrics); default 0.001'),
    xMonthlyCapUsd: z.number().nullable().describe('USD a month spent on X posts; null: no cap'),
    xCapAction: xCapAction.describe(
      'over the cap: "warn" (publish, with a warning) or "refuse" (402 SPEND_CAP_REACHED)',
    ),
    xTier: xTier.describe('the X API tier whose posting caps apply (pay_per_use by default)'),
    notifications: notifications.describe('which notifications the UI and the desktop app show; all on by default'),
    xMetrics: z.boolean().describe('whether Analytics reads X posts’ counts (each read is priced: xReadPriceUsd)'),
    fedblogHandOff: z
      .boolean()
      .describe(
        'Mastodon hand-off: a post due 10 minutes or more ahead is scheduled on the instance, which ' +
          'publishes it even with Herald closed',
      ),
    requireAltText: z
      .boolean()
      .describe('A post with an image, GIF or video without alt text cannot be published, scheduled or queued'),
    linkedinVersion: z
      .string()
      .describe('the LinkedIn API version (YYYYMM) Herald speaks; each ends a year after its month'),
  }),
);
export const settingsResponse = lazySchema(() => z.object({ success: successTrue, settings: settingsSchema }));
export const updateSettingsBody = lazySchema(() =>
  z.object({
    graceMinutes: z
      .number()
      .min(0)
      .max(24 * 60)
      .optional(),
    monthlyCredits: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('credits granted each month (default 10,000); applies at once: the month granted gets the difference'),
    defaultTier: tierSchema.optional(),
    timeZone: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('An IANA zone Intl knows, e.g. "Europe/Berlin"; applies at once'),
    defaultLanguage: z
      .string()
      .trim()
      .min(2)
      .max(35)
      .optional()
      .describe('A well-formed BCP 47 tag, e.g. "de" or "pt-BR"; applies at once'),
    xPriceUsd: usd.optional().describe('USD per X post request; applies at once'),
    xPriceWithUrlUsd: usd.optional().describe('USD per X post request with a URL; applies at once'),
    xMediaMetadataPriceUsd: usd.optional().describe('USD per X Media Metadata request (alt text); applies at once'),
    xReadPriceUsd: usd.optional().describe('USD per X post read; applies at once'),
    xMonthlyCapUsd: usd.nullable().optional().describe('USD a month; null removes the cap; applies at once'),
    xCapAction: xCapAction.optional(),
    xTier: xTier.optional(),
    notifications: built(notifications)
      .partial()
      .strict()
      .optional()
      .describe('only the kinds given change; applies at once'),
    xMetrics: z.boolean().optional().describe('X metrics reads on or off (each read costs xReadPriceUsd)'),
    fedblogHandOff: z
      .boolean()
      .optional()
      .describe('Mastodon hand-off on or off; applies at once to posts not yet handed off'),
    requireAltText: z.boolean().optional().describe('Require alt text on every image, GIF and video; applies at once'),
    linkedinVersion: z
      .string()
      .regex(/^\d{4}(0[1-9]|1[0-2])$/, 'YYYYMM')
      .optional()
      .describe('move to another LinkedIn API version (YYYYMM); applies at once'),
  }),
);
export const updateSettingsResponse = lazySchema(() =>
  z.object({ success: successTrue, settings: settingsSchema, restartRequired: z.boolean() }),
);
export const backupResponse = lazySchema(() =>
  z.object({ success: successTrue, file: z.string(), bytes: z.number().int(), seconds: z.number() }),
);
