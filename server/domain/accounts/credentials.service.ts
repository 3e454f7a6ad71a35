/**
 * Account credentials live only in the secret store. `withCredentials` runs a network call with
 * fresh credentials: it refreshes an access token that is about to expire or that the network
 * refused, at most once at a time per account however many publishes race (single flight), and
 * persists rotated refresh tokens before anything uses the new access token. A refused refresh
 * marks the account `needs_reauth` and fails with TOKEN_EXPIRED.
 */
import type { Transactions } from '../../db/repos/transactions.js';
import type { Deps } from '../deps.js';
import { crashPoint } from '../../core/crash.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';
import type { AccountInfo, CallContext, Credentials } from '../../platforms/adapter.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import { accountSecretName } from '../../secrets/secret-store.js';
import type { Platform } from '../../core/config.js';
import type { AccountRow } from './accounts.service.js';
import type { NetworkAppsService } from '../networks/network-apps.service.js';
import type { EventsService } from '../events/events.service.js';
import { tokenFacts } from './health.js';
import { accountHandle } from '../../core/handles.js';

const REFRESH_EARLY_MS = 60_000;

export function accountInfo(row: AccountRow): AccountInfo {
  let meta: Record<string, unknown> = {};
  try {
    meta = JSON.parse(row.meta) as Record<string, unknown>;
  } catch {
    /* keep empty */
  }
  return {
    id: row.id,
    platform: row.platform as Platform,
    platformUserId: row.platformUserId,
    username: row.username,
    serverUrl: row.serverUrl,
    meta,
  };
}

export class CredentialsService {
  private readonly inflight = new Map<string, Promise<Credentials>>();
  /** How many refresh calls went to networks (tests and figures read it). */
  refreshCalls = 0;

  constructor(
    private readonly deps: Deps,
    private readonly accounts: AccountsRepo,
    private readonly apps: NetworkAppsService,
    private readonly events: EventsService,
    private readonly tx: Transactions,
  ) {}

  async load(accountId: string): Promise<Credentials | null> {
    const raw = await this.deps.secrets.get(accountSecretName(accountId));
    return raw ? (JSON.parse(raw) as Credentials) : null;
  }

  /** Saves the credentials, and their public facts (expiry, how they renew) on the row when it exists. */
  async save(accountId: string, creds: Credentials): Promise<void> {
    await this.deps.secrets.set(accountSecretName(accountId), JSON.stringify(creds));
    const row = this.accounts.byId(accountId);
    if (row)
      this.accounts.setMetaFact(
        accountId,
        'token',
        tokenFacts(this.deps.platforms.get(row.platform as Platform), creds),
      );
  }

  /** Marks the account to be connected again; the first time, with its event. */
  markNeedsReauth(row: AccountRow): void {
    if (row.status === 'needs_reauth') return;
    this.tx.run(() => {
      this.accounts.setStatus(row.id, 'needs_reauth');
      this.events.record(row.userId, 'account.needs_reauth', { accountId: row.id, platform: row.platform });
    });
    row.status = 'needs_reauth';
  }

  private reauthError(row: AccountRow, why?: string): HeraldError {
    return new HeraldError(
      'TOKEN_EXPIRED',
      `The ${NETWORK_NAMES[row.platform as Platform]} account ${accountHandle(row.platform, row.username)} ` +
        `must be connected again` +
        `${why ? ` (${why})` : ''}`,
    );
  }

  /** One refresh per account at a time; callers that raced share its result. */
  refreshOnce(row: AccountRow, stale: Credentials): Promise<Credentials> {
    const running = this.inflight.get(row.id);
    if (running) return running;
    const job = (async () => {
      const current = await this.load(row.id);
      if (!current) throw this.reauthError(row, 'no saved credentials');
      // Someone refreshed while this caller was using the old token: use theirs.
      if (current.accessToken !== stale.accessToken) return current;
      const adapter = this.deps.platforms.get(row.platform as Platform);
      if (!adapter.refresh) {
        this.markNeedsReauth(row);
        throw this.reauthError(row, 'its token expired');
      }
      this.refreshCalls += 1;
      try {
        const next = await adapter.refresh({
          account: accountInfo(row),
          credentials: current,
          network: this.apps.network(row.platform as Platform),
        });
        crashPoint('refresh');
        await this.save(row.id, next);
        return next;
      } catch (err) {
        if (err instanceof PlatformError && (err.kind === 'token_expired' || err.kind === 'permanent')) {
          this.markNeedsReauth(row);
          throw this.reauthError(row, err.message);
        }
        throw err;
      }
    })();
    this.inflight.set(row.id, job);
    job.then(
      () => this.inflight.delete(row.id),
      () => this.inflight.delete(row.id),
    );
    return job;
  }

  async withCredentials<T>(row: AccountRow, fn: (ctx: CallContext) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let creds = await this.load(row.id);
    if (!creds) {
      this.markNeedsReauth(row);
      throw this.reauthError(row, 'no saved credentials');
    }
    const network = this.apps.network(row.platform as Platform);
    const info = accountInfo(row);
    if (
      creds.expiresAt !== undefined &&
      creds.expiresAt - this.deps.clock.now() < REFRESH_EARLY_MS &&
      creds.refreshToken
    ) {
      creds = await this.refreshOnce(row, creds);
    }
    try {
      return await fn({ account: info, credentials: creds, network, signal });
    } catch (err) {
      // The reset the network gave, for the account's health (rate_limited until then).
      if (err instanceof PlatformError && err.kind === 'rate_limited' && err.resetAt)
        this.accounts.setMetaFact(row.id, 'rateLimitedUntil', err.resetAt);
      if (!(err instanceof PlatformError) || err.kind !== 'token_expired') throw err;
      const fresh = await this.refreshOnce(row, creds);
      try {
        return await fn({ account: info, credentials: fresh, network, signal });
      } catch (again) {
        if (again instanceof PlatformError && again.kind === 'token_expired') {
          this.markNeedsReauth(row);
          throw this.reauthError(row, again.message);
        }
        throw again;
      }
    }
  }
}
