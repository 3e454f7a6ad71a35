/**
 * Bluesky app-password sessions (docs/decisions.md §19.2): createSession at the service the user
 * named (a PDS or an entryway), then every later call goes to the account's own PDS, taken from
 * the `#atproto_pds` service entry of the DID document the session returns. refreshSession
 * rotates both JWTs; when the refresh JWT is dead too, Herald signs in again with the stored app
 * password (createSession is tightly rate-limited, so only then).
 */
import type { Credentials } from '../adapter.js';
import { PlatformError } from '../errors.js';
import { hostOf } from '../http.js';
import { serverMessage, xrpc } from './xrpc.js';

export interface SessionReply {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
  didDoc?: unknown;
  active?: boolean;
  status?: string;
}

/** The PDS endpoint from a DID document (`service` entry `#atproto_pds`), if there is a usable one. */
export function pdsFromDidDoc(doc: unknown): string | undefined {
  const services = (doc as { service?: unknown } | undefined)?.service;
  if (!Array.isArray(services)) return undefined;
  for (const s of services as { id?: unknown; type?: unknown; serviceEndpoint?: unknown }[]) {
    const id = typeof s.id === 'string' ? s.id : '';
    if (!(id === '#atproto_pds' || id.endsWith('#atproto_pds'))) continue;
    if (typeof s.serviceEndpoint !== 'string') continue;
    try {
      const url = new URL(s.serviceEndpoint);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    } catch {
      /* not a URL: ignore the entry */
    }
  }
  return undefined;
}

/** Epoch ms of a JWT's `exp` claim (read only, not verified: the PDS verifies). */
export function jwtExpiry(jwt: string): number | undefined {
  const payload = jwt.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export function createSession(
  service: string,
  identifier: string,
  password: string,
  signal?: AbortSignal,
): Promise<SessionReply> {
  return xrpc<SessionReply>(service, 'com.atproto.server.createSession', {
    what: 'sign in',
    json: { identifier, password },
    signal,
  });
}

/** Credentials from a session answer; `service` is where the session was opened. */
export function sessionCredentials(
  session: SessionReply,
  service: string,
  identifier: string,
  appPassword: string,
): Credentials {
  if (!session.did || !session.accessJwt || !session.refreshJwt) {
    throw new PlatformError('skyblog', 'transient', `${hostOf(service)} answered the sign-in without a session`);
  }
  const pds = pdsFromDidDoc(session.didDoc) ?? service;
  return {
    accessToken: session.accessJwt,
    refreshToken: session.refreshJwt,
    expiresAt: jwtExpiry(session.accessJwt),
    extra: { did: session.did, service: pds, identifier, appPassword },
  };
}

/** The reason to show when the PDS refuses an identifier / app password pair. */
export function signInRefusal(err: PlatformError, identifier: string, host: string): string {
  const why = serverMessage(err);
  if (err.opts.code === 'AuthFactorTokenRequired') {
    return (
      `${host} asks for a sign-in code for ${identifier}; use an app password (Settings → App passwords), ` +
      `which does not need one`
    );
  }
  if (err.opts.code === 'AccountTakedown') return `${host} has taken down the account ${identifier}`;
  return (
    `${host} refused the sign-in for ${identifier} (${why}); check the handle and use an app password ` +
    `(Settings → App passwords), not the main password`
  );
}

/** New credentials: refreshSession first, a fresh sign-in with the app password when that is refused. */
export async function refreshCredentials(
  creds: Credentials,
  fallbackService: string,
  handle: string,
  signal?: AbortSignal,
): Promise<Credentials> {
  const extra = creds.extra ?? {};
  const service = extra.service || fallbackService;
  if (creds.refreshToken) {
    try {
      const s = await xrpc<SessionReply>(service, 'com.atproto.server.refreshSession', {
        what: 'renew the session',
        token: creds.refreshToken,
        post: true,
        signal,
      });
      const next = sessionCredentials(s, service, extra.identifier ?? s.handle, extra.appPassword ?? '');
      return {
        ...next,
        extra: {
          ...extra,
          ...next.extra,
          appPassword: extra.appPassword ?? '',
          identifier: extra.identifier ?? s.handle,
        },
      };
    } catch (err) {
      // A dead refresh JWT (expired, revoked, rotated away) answers like a dead access token.
      if (!(err instanceof PlatformError) || err.kind !== 'token_expired') throw err;
    }
  }
  const identifier = extra.identifier || extra.did;
  if (!identifier || !extra.appPassword) {
    throw new PlatformError(
      'skyblog',
      'token_expired',
      `The Bluesky session of @${handle} ended and Herald has no app password to sign in again; connect the ` +
        `account again`,
    );
  }
  try {
    const s = await createSession(service, identifier, extra.appPassword, signal);
    return sessionCredentials(s, service, identifier, extra.appPassword);
  } catch (err) {
    if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'permanent')) {
      throw new PlatformError(
        'skyblog',
        'token_expired',
        `${signInRefusal(err, `@${handle}`, hostOf(service))}; create a new app password and connect the account again`,
        { status: err.status, code: err.opts.code, cause: err },
      );
    }
    throw err;
  }
}
