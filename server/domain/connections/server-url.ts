/**
 * The instance / PDS address a person types when connecting (Mastodon, Bluesky): normalised, and
 * checked against the address policy after DNS before anything connects to it.
 */
import { HeraldError } from '../../core/errors.js';
import type { GuardedFetcher } from '../../net/guarded-fetch.js';

/** Normalises an instance / PDS URL the user typed (`mastodon.social` → `https://mastodon.social`). */
export function normaliseServerUrl(input: string, field: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new HeraldError('INVALID_INPUT', `${field} is not a valid URL`, {
      details: [{ path: field, message: 'not a URL' }],
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new HeraldError('INVALID_INPUT', `${field} must be an http(s) URL`, {
      details: [{ path: field, message: 'http(s) only' }],
    });
  if (url.username || url.password)
    throw new HeraldError('INVALID_INPUT', `${field} must not contain credentials`, {
      details: [{ path: field, message: 'no credentials in URL' }],
    });
  return url.origin;
}

/**
 * One answer for every server URL the address policy refuses, whatever the reason (loopback,
 * private, metadata, a name that does not resolve): a caller learns nothing about this machine's
 * network from it, and no connection was tried to time.
 */
function refusedServer(field: string): HeraldError {
  return new HeraldError('INVALID_INPUT', `${field} must be the address of a public server`, {
    details: [{ path: field, message: 'not a public address' }],
  });
}

/** A user-given instance / PDS URL, normalised and checked after DNS before anything connects. */
export async function publicServerUrl(guard: GuardedFetcher, input: string, field: string): Promise<string> {
  const url = normaliseServerUrl(input, field);
  try {
    await guard.check(url);
  } catch (err) {
    if (err instanceof HeraldError) throw refusedServer(field);
    throw err;
  }
  return url;
}
