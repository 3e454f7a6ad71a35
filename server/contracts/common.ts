/**
 * Shared zod pieces. Contracts are the single source for validation, the OpenAPI document, the
 * client library's types and the CLI. Request schemas are strict about types and lenient about
 * unknown keys (they are dropped).
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

export const PLATFORM_VALUES = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'] as const;
export const platformSchema = z.enum(PLATFORM_VALUES).describe('Network: microblog = X, skyblog = Bluesky, fedblog = Mastodon, threadblog = Threads, problog = LinkedIn');

export const timestamp = z.string().describe('ISO 8601 timestamp (UTC)');
export const isoDateInput = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date or date-time');
export const idParam = z.object({ id: z.string().min(1).max(200) });

export const successTrue = z.literal(true);
export const messageResponse = z.object({ success: successTrue, message: z.string() });

export const errorBody = z.object({
  success: z.literal(false),
  error: z.enum(ERROR_CODES as [string, ...string[]]),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
}).describe('Error envelope');

/** A trimmed, non-empty string of at most `max` characters. */
export const name = (max = 200) => z.string().trim().min(1).max(max);
