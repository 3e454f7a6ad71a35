/**
 * Upkeep watches (docs/decisions.md, Alerts): what will stop Herald from publishing if nobody
 * acts, told once each on the event stream (and so to the alerts that ask for it): credits running
 * low this month, X spend near its cap, an account whose sign-in expires within seven days, and
 * the LinkedIn API version within 60 days of its end (a version ends one year after its month).
 * Failed and missed posts are on the stream already. A notice's key is kept (alert_notices), so
 * each is told once, also with two servers on one data folder.
 */
import { HeraldError } from '../../core/errors.js';
import type { AccountsRepo } from '../../db/repos/accounts.repo.js';
import type { AlertsRepo } from '../../db/repos/alerts.repo.js';
import type { Transactions } from '../../db/repos/transactions.js';
import { DEFAULT_LINKEDIN_VERSION } from '../../platforms/problog/rest.js';
import { accountHealth } from '../accounts/health.js';
import type { CreditsService } from '../credits/credits.service.js';
import { monthPeriod } from '../credits/months.js';
import type { Deps } from '../deps.js';
import type { EventsService, EventType } from '../events/events.service.js';
import type { XSpend } from '../publishing/x-spend.js';

const DAY_MS = 86_400_000;
export const VERSION_WARN_DAYS = 60;
/** Credits are low below this share of the monthly grant (or when they do not cover what is scheduled). */
export const CREDITS_LOW_SHARE = 0.1;
/** X spend is near its cap from this share of it. */
export const XSPEND_NEAR_SHARE = 0.8;

/** When a LinkedIn API version (YYYYMM) ends: the start of the same month a year later, UTC. */
export function linkedinVersionEnd(version: string): number {
  const y = Number(version.slice(0, 4));
  const m = Number(version.slice(4, 6));
  return Date.UTC(y + 1, m - 1, 1);
}

/** A version Herald can move to: released (its month has begun) and not ended. */
export function checkLinkedinVersion(version: string, now: number): void {
  const begins = Date.UTC(Number(version.slice(0, 4)), Number(version.slice(4, 6)) - 1, 1);
  const why =
    begins > now ? 'is not out yet' : linkedinVersionEnd(version) <= now ? 'has ended (a year after its month)' : null;
  if (why)
    throw new HeraldError('INVALID_INPUT', `LinkedIn API version ${version} ${why}`, {
      details: [{ path: 'body.linkedinVersion', message: why }],
    });
}

export interface UpkeepParts {
  alerts: AlertsRepo;
  accounts: AccountsRepo;
  tx: Transactions;
  events: EventsService;
  credits: CreditsService;
  xSpend: XSpend;
}

export class UpkeepService {
  constructor(
    private readonly deps: Deps,
    private readonly p: UpkeepParts,
  ) {}

  /** Looks at every user once; answers the notices told this time (`type key`). */
  run(): string[] {
    const told: string[] = [];
    const now = this.deps.clock.now();
    const accounts = this.p.accounts.all();
    for (const userId of this.p.alerts.userIds()) {
      const tell = (type: EventType, key: string, data: Record<string, unknown>) => {
        const fresh = this.p.tx.run(() => {
          if (!this.p.alerts.noticeOnce(userId, key, now)) return false;
          this.p.events.record(userId, type, data);
          return true;
        });
        if (fresh) told.push(`${type} ${key}`);
      };
      const period = monthPeriod(now, this.p.credits.zone()).period;
      const o = this.p.credits.outlook(userId);
      if (o.balance < o.monthlyCredits * CREDITS_LOW_SHARE || o.warning)
        tell('credits.low', `credits.low:${period}`, { balance: o.balance, covers: o.covers, warning: o.warning });
      const x = this.p.xSpend.figures(userId, now);
      if (x.capUsd && x.monthUsd >= x.capUsd * XSPEND_NEAR_SHARE)
        tell('xspend.near_cap', `xspend.near_cap:${period}`, { monthUsd: x.monthUsd, capUsd: x.capUsd });
      const mine = accounts.filter((a) => a.userId === userId);
      for (const a of mine) {
        const h = accountHealth(a, now);
        if (h.state !== 'expiring') continue;
        tell('account.expiring', `account.expiring:${a.id}:${h.expiresAt}`, {
          accountId: a.id,
          platform: a.platform,
          expiresAt: h.expiresAt,
          message: h.message,
        });
      }
      if (mine.some((a) => a.platform === 'problog')) {
        const version = this.deps.config.networks.problog.version ?? DEFAULT_LINKEDIN_VERSION;
        const endsAt = linkedinVersionEnd(version);
        if (endsAt - now <= VERSION_WARN_DAYS * DAY_MS)
          tell('network.version_expiring', `network.version_expiring:${version}`, {
            platform: 'problog',
            version,
            endsAt: new Date(endsAt).toISOString(),
          });
      }
    }
    return told;
  }
}
