/**
 * Credential health (docs/decisions.md §18): every account's `health` from the token's real life, as
 * recorded on the account row (`meta.token`: expiry and how it can be renewed, never the token)
 * and the account's status. One pure function with a table test; the clock comes in.
 */
import { accountHandle } from '../../core/handles.js';
import type { Platform } from '../../core/config.js';
import type { PlatformAdapter as Adapter, Credentials, RefreshMode } from '../../platforms/adapter.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';

export const EXPIRING_WINDOW_MS = 7 * 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export type HealthState = 'ok' | 'expiring' | 'expired' | 'revoked' | 'rate_limited';
export interface Health {
  state: HealthState;
  expiresAt: string | null;
  message: string;
}

/** What the row keeps about the token: public facts only. */
export interface TokenFacts {
  expiresAt?: number;
  refresh: RefreshMode;
  /** The scopes granted, where the network lists them (what the account may do, e.g. read analytics). */
  scopes?: string[];
}

/** How these credentials can be renewed: the adapter says, else a refresh token means any time. */
export function refreshModeOf(adapter: Pick<Adapter, 'refresh' | 'refreshMode'>, creds: Credentials): RefreshMode {
  if (!adapter.refresh) return 'none';
  if (adapter.refreshMode) return adapter.refreshMode(creds);
  return creds.refreshToken ? 'any_time' : 'none';
}

export const tokenFacts = (adapter: Pick<Adapter, 'refresh' | 'refreshMode'>, creds: Credentials): TokenFacts => ({
  ...(creds.expiresAt !== undefined ? { expiresAt: creds.expiresAt } : {}),
  refresh: refreshModeOf(adapter, creds),
  ...(creds.scopes ? { scopes: creds.scopes } : {}),
});

const days = (ms: number) => Math.max(1, Math.ceil(ms / DAY_MS));

/** The health of an account row at `now`. */
export function accountHealth(
  row: { platform: string; username: string; status: string; meta: string },
  now: number,
): Health {
  let meta: { token?: TokenFacts; rateLimitedUntil?: number } = {};
  try {
    meta = JSON.parse(row.meta) as typeof meta;
  } catch {
    /* no facts */
  }
  const name = NETWORK_NAMES[row.platform as Platform] ?? row.platform;
  const who = accountHandle(row.platform, row.username);
  const t = meta.token;
  const expiresAt = t?.expiresAt ?? null;
  const iso = expiresAt === null ? null : new Date(expiresAt).toISOString();
  // A token that renews itself after expiry has no end the person must act on.
  const hardEnd = t && expiresAt !== null && t.refresh !== 'any_time' ? expiresAt : null;
  if (row.status === 'needs_reauth') {
    if (hardEnd !== null && hardEnd <= now)
      return { state: 'expired', expiresAt: iso, message: `The ${name} sign-in expired: reconnect ${who}` };
    return {
      state: 'revoked',
      expiresAt: iso,
      message: `${name} no longer accepts Herald's access for ${who} (revoked or signed out): reconnect it`,
    };
  }
  if (hardEnd !== null && hardEnd <= now)
    return { state: 'expired', expiresAt: iso, message: `The ${name} sign-in expired: reconnect ${who}` };
  if (meta.rateLimitedUntil && meta.rateLimitedUntil > now) {
    return {
      state: 'rate_limited',
      expiresAt: iso,
      message:
        `${name} limits ${who} until ${new Date(meta.rateLimitedUntil).toISOString()}; posts wait and go after ` +
        `that`,
    };
  }
  if (hardEnd !== null && hardEnd - now <= EXPIRING_WINDOW_MS) {
    const n = days(hardEnd - now);
    const how =
      t!.refresh === 'before_expiry'
        ? 'Herald renews it in its daily check; if that fails, reconnect'
        : 'reconnect before then';
    return {
      state: 'expiring',
      expiresAt: iso,
      message: `The ${name} sign-in of ${who} expires in ${n} day${n === 1 ? '' : 's'}: ${how}`,
    };
  }
  return { state: 'ok', expiresAt: iso, message: 'Connected' };
}

/** Whether posts can go out on an account in this state now. */
export const canPost = (h: Health) => h.state === 'ok' || h.state === 'expiring' || h.state === 'rate_limited';
