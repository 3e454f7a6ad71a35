import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue, timestamp } from './common.js';

/** The events an alert can ask for (docs/decisions.md, Alerts). */
export const ALERT_EVENTS = [
  'post.failed',
  'post.missed',
  'account.needs_reauth',
  'account.expiring',
  'credits.low',
  'xspend.near_cap',
  'network.version_expiring',
] as const;

export const alertBody = lazySchema(() =>
  z.object({
    url: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .describe(
        'ntfy://host/topic (HTTP), ntfys://host/topic (HTTPS), gotify://host/token, ' +
          'telegram://token@telegram?chats=, discord://token@webhookId, matrix://user:password@host/?rooms=, ' +
          'generic+https://... ' +
          '(gotify and matrix use HTTPS unless ?tls=no)',
      ),
    events: z.array(z.enum(ALERT_EVENTS)).min(1).describe('which events this destination gets'),
    secret: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('generic+https only: the HMAC-SHA256 key; X-Herald-Signature: sha256=<hex of the raw body>'),
  }),
);

export const deliverySchema = lazySchema(() =>
  z.object({
    event: z.string().describe('the event type, or `test`'),
    status: z.enum(['sent', 'retrying', 'failed']).describe('retrying: failed, tried again with backoff'),
    attempts: z.number().int(),
    at: timestamp.describe('when the last attempt ended'),
    error: z.string().nullable(),
  }),
);

export const alertSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    kind: z.enum(['ntfy', 'gotify', 'telegram', 'discord', 'matrix', 'generic']),
    url: z.string().describe('the URL with its credentials masked (the whole URL is in the secret store)'),
    events: z.array(z.enum(ALERT_EVENTS)),
    hasSecret: z.boolean().describe('a signing key is set (never answered)'),
    createdAt: timestamp,
    pending: z.number().int().describe('deliveries waiting to be sent or retried'),
    lastDelivery: deliverySchema.nullable(),
  }),
);

export const alertsResponse = lazySchema(() => z.object({ success: successTrue, alerts: z.array(alertSchema) }));
export const alertResponse = lazySchema(() => z.object({ success: successTrue, alert: alertSchema }));
