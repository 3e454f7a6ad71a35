/** API key material: `hk_` + 40 base62 characters; only the SHA-256 is ever stored. */
import crypto from 'node:crypto';
import { randomBase62 } from '../../core/ids.js';

export const KEY_PREFIX = 'hk_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(40);
}

// crypto.hash (Node 20.12+) is the one-shot form: no Hash object per keyed request.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function hashApiKey(key: string): string {
  return oneShot ? oneShot('sha256', key, 'hex') : crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

/** First 7 and last 4 characters with an ellipsis between (decisions §2). */
export function previewApiKey(key: string): string {
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}

/** Cheap shape check before any database lookup. */
export function looksLikeApiKey(value: string): boolean {
  return /^hk_[0-9A-Za-z]{32,64}$/.test(value);
}
