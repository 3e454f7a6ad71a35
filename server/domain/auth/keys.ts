/** API key material: `hk_` + 40 base62 characters; only the SHA-256 is ever stored. */
import crypto from 'node:crypto';
import { randomBase62 } from '../../core/ids.js';

export const KEY_PREFIX = 'hk_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(40);
}

/** SHA-256 in hex; crypto.hash (Node 21.7+) is the one-shot form: no Hash object per keyed request. */
export function hashApiKey(key: string): string {
  return crypto.hash('sha256', key, 'hex');
}

/** First 7 and last 4 characters with an ellipsis between (docs/decisions.md §2). */
export function previewApiKey(key: string): string {
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}

/** Cheap shape check before any database lookup. */
export function looksLikeApiKey(value: string): boolean {
  return /^hk_[0-9A-Za-z]{32,64}$/.test(value);
}
