/**
 * The daily credential check (issue #21): renews every token that can be renewed and is within
 * seven days of its expiry (a Threads long-lived token must be renewed while still valid; X and
 * Bluesky sessions are kept alive), and warns in the log about every account whose sign-in
 * expires within seven days, has expired or was revoked, so the person reconnects in time. The
 * clock is the injected one: tests move it instead of waiting.
 */
import type { Platform } from '../../core/config.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import type { Deps } from '../deps.js';
import type { CredentialsService } from './credentials.service.js';
import { accountHealth, EXPIRING_WINDOW_MS, type TokenFacts } from './health.js';

export interface CheckReport {
  refreshed: string[];
  failed: { accountId: string; message: string }[];
  attention: { accountId: string; state: string; message: string }[];
}

export class CredentialCheckService {
  constructor(
    private readonly deps: Deps,
    private readonly accounts: AccountsRepo,
    private readonly creds: CredentialsService,
  ) {}

  async run(): Promise<CheckReport> {
    const report: CheckReport = { refreshed: [], failed: [], attention: [] };
    if (this.deps.secrets.kind === 'unavailable' || this.deps.secrets.locked) return report;
    for (const row of this.accounts.all()) {
      let facts: TokenFacts | undefined;
      try {
        facts = (JSON.parse(row.meta) as { token?: TokenFacts }).token;
      } catch {
        /* none */
      }
      const now = this.deps.clock.now();
      const due =
        row.status === 'active' &&
        facts?.expiresAt !== undefined &&
        facts.refresh !== 'none' &&
        facts.expiresAt - now <= EXPIRING_WINDOW_MS &&
        !(facts.refresh === 'before_expiry' && facts.expiresAt <= now);
      if (due && this.deps.platforms.get(row.platform as Platform).refresh) {
        try {
          const current = await this.creds.load(row.id);
          if (current) {
            await this.creds.refreshOnce(row, current);
            report.refreshed.push(row.id);
          }
        } catch (err) {
          report.failed.push({ accountId: row.id, message: (err as Error).message });
        }
      }
      const health = accountHealth(this.accounts.byId(row.id) ?? row, this.deps.clock.now());
      if (health.state === 'expiring' || health.state === 'expired' || health.state === 'revoked') {
        report.attention.push({ accountId: row.id, state: health.state, message: health.message });
        this.deps.log.warn(`Herald: ${health.message}`);
      }
    }
    return report;
  }
}
