import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { platformSchema, successTrue, timestamp } from './common.js';

export const accountSchema = lazySchema(() =>
  z.object({
    uuid: z.string(),
    platform: platformSchema,
    platform_user_id: z.string(),
    username: z.string(),
    display_name: z.string(),
    avatar: z.string(),
    status: z.enum(['active', 'needs_reauth']),
    followers_count: z.number().int(),
    following_count: z.number().int(),
    created_at: timestamp,
    server_url: z.string().nullable().describe('The Mastodon instance or Bluesky PDS the account lives on'),
    limits: z
      .object({
        maxCharacters: z.number().int().optional(),
        charactersReservedPerUrl: z.number().int().optional(),
        maxMediaAttachments: z.number().int().optional(),
        altTextLimit: z.number().int().optional().describe("Mastodon: the instance's description_limit for alt text"),
      })
      .describe(
        "What the account's own server says about its posts (a Mastodon instance's max_characters, " +
          "characters_reserved_per_url, max_media_attachments; X's longer limit); empty when it said nothing",
      ),
    health: z
      .object({
        state: z
          .enum(['ok', 'expiring', 'expired', 'revoked', 'rate_limited'])
          .describe('expiring: within 7 days of an expiry Herald cannot renew by itself'),
        expiresAt: z.string().nullable().describe('When the access token expires, if the network said'),
        message: z.string().describe('What it means and what to do, for a person'),
      })
      .describe("Credential health from the token's real life"),
    analytics: z
      .object({
        available: z.boolean(),
        reason: z.string().optional().describe('Why not, and what to do (X metrics off, a scope not granted)'),
      })
      .describe("Whether Herald can read the metrics of this account's posts"),
  }),
);
export type Account = z.infer<typeof accountSchema>;

export const accountListResponse = lazySchema(() =>
  z.object({ success: successTrue, accounts: z.array(accountSchema) }),
);
export const accountResponse = lazySchema(() => z.object({ success: successTrue, account: accountSchema }));
