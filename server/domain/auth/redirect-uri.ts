/**
 * Which redirect URIs a sign-in flow may send the browser back to. A desktop app receives the
 * code on a loopback listener (RFC 8252 §7.3: http, 127.0.0.1 / [::1] / localhost, any port);
 * anything else must be the one URI configured for that flow. Parsed with `new URL`, never
 * compared by prefix: `http://127.0.0.1.evil.example/` and `http://127.0.0.1@evil.example/`
 * are not loopback.
 */
import { HeraldError } from '../../core/errors.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_LENGTH = 2000;

const refuse = (why: string) =>
  new HeraldError('INVALID_INPUT', `redirectUri ${why}`, { details: [{ path: 'body.redirectUri', message: why }] });

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** True for an http URL on a loopback address, without credentials. */
export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && !url.username && !url.password;
}

/**
 * Returns the redirect URI in its normalised form (what is sent to the provider and bound into
 * the state), or throws INVALID_INPUT.
 */
export function acceptRedirectUri(value: string, configured: string | undefined): string {
  if (value.length > MAX_LENGTH) throw refuse(`must be at most ${MAX_LENGTH} characters`);
  const url = parse(value);
  if (!url) throw refuse('is not a valid absolute URL');
  // The code and state arrive as query parameters; a URI with its own query or fragment would
  // not come back byte for byte to the token request.
  if (url.search || url.hash || value.includes('#') || value.includes('?'))
    throw refuse('must not have a query or fragment');
  if (isLoopbackRedirect(url)) return url.href;
  const mine = configured ? parse(configured) : undefined;
  if (mine && mine.href === url.href) return url.href;
  throw refuse(
    'must be a loopback address (http://127.0.0.1:<port>/…, http://[::1]:<port>/… or ' +
      'http://localhost:<port>/…) or the configured redirect URI',
  );
}
