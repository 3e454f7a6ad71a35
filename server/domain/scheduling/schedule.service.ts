/**
 * The schedule queue in SQLite: one pending entry per (draft, account), each with its own
 * jitter. The database is the truth; the scheduler (jobs/scheduler.ts) only wakes up to fire
 * what is due.
 */
import { machineTimeZone } from '../../../time/zones.js';
import type { Platform } from '../../core/config.js';
import { latestScheduleTime } from '../../contracts/common.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import { HeraldError } from '../../core/errors.js';
import { checkParts } from '../publishing/limits.js';
import { checkAltTexts } from '../publishing/alt-required.js';
import { loadDraft, partsFor } from '../publishing/plan.js';
import type { XPart } from '../publishing/x-spend.js';
import type { PublishService } from '../publishing/publish.service.js';
import type { EventsService } from '../events/events.service.js';
import { PUBLISH_COST } from '../credits/credits.service.js';
import type { CreditsService } from '../credits/credits.service.js';
import { dryRunAnswer } from '../publishing/dry-run.js';
import { LOCKED_WAIT } from '../publishing/scheduled-waits.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import type { XSpend } from '../publishing/x-spend.js';
import { accountHandle } from '../../core/handles.js';

export const JITTER_MS = 180_000;

const publishingNow = () =>
  new HeraldError('INVALID_INPUT', 'The draft is being published right now; schedule it once that is done');

export interface ScheduleRequest {
  draftId: string;
  /** Required unless every targetAccounts item has its own scheduledFor. */
  scheduledFor?: string;
  /** An item's own scheduledFor (docs/decisions.md §13: per-network times) wins over the request's. */
  targetAccounts?: { accountId: string; platform?: Platform; scheduledFor?: string }[];
  accountUuid?: string;
  platform?: Platform;
  priority?: number;
  applyJitter?: boolean;
  /** Validate and answer the plan (docs/decisions.md §11); nothing is scheduled. */
  dryRun?: boolean;
  /** Posts again to accounts the draft was already published to (a new publication each). */
  force?: boolean;
  /** Per account id: the first post's text instead of the draft's (an evergreen variant; not an API field). */
  firstTexts?: Record<string, string>;
}

/**
 * The spec's scheduledFor is ISO 8601 in UTC: a date-time without a zone designator is read as
 * UTC, not in the local time zone of the machine Herald runs on (as Date.parse would).
 */
export function parseUtc(iso: string): number {
  return Date.parse(/(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(iso) ? iso : `${iso}Z`);
}

export class ScheduleService {
  /** Called whenever the queue changes, so the scheduler re-arms its wake-up. */
  onChange: () => void = () => {};
  /** Queue slots a cancel left without any pending entry of the draft (an evergreen fill lets go of them). */
  onSlotsReleased: (userId: string, draftId: string, slots: { setId: string; slotAt: number }[]) => void = () => {};

  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    private readonly publishing: PublishService,
    private readonly events: EventsService,
    private readonly credits: CreditsService,
    private readonly xSpend: XSpend,
  ) {}

  /** Uniform offset in [-180 s, +180 s]. */
  jitter(): number {
    return Math.round((this.deps.random() * 2 - 1) * JITTER_MS);
  }

  /**
   * Validates at once, then writes in the next group commit (db/commits.ts): the requests that
   * arrive together share one fsync, made off the thread that serves the API, and each answers
   * once its entries are on disk.
   */
  async schedule(userId: string, req: ScheduleRequest, queueSetId: string | null = null) {
    const plan = this.prepare(userId, req);
    return 'dryRun' in plan ? plan : this.write(userId, plan, queueSetId);
  }

  /**
   * Every check of schedule(), synchronously (so an import can run it inside its own
   * transaction): a dry run's answer, or what write() needs.
   */
  prepare(userId: string, req: ScheduleRequest) {
    const now = this.deps.clock.now();
    const checkTime = (iso: string, path: string): number => {
      const at = parseUtc(iso);
      if (!(at > now))
        throw new HeraldError('INVALID_INPUT', `${path} must be in the future`, {
          details: [{ path, message: 'in the past' }],
        });
      if (at > latestScheduleTime(now))
        throw new HeraldError('INVALID_INPUT', `${path} must be at most two years ahead`, {
          details: [{ path, message: 'more than two years ahead' }],
        });
      return at;
    };
    const common = req.scheduledFor === undefined ? undefined : checkTime(req.scheduledFor, 'scheduledFor');
    // Per-network times: each target's own time, else the request's.
    const own = new Map<string, number>();
    req.targetAccounts?.forEach((t, i) => {
      if (t.scheduledFor !== undefined && !own.has(t.accountId))
        own.set(t.accountId, checkTime(t.scheduledFor, `targetAccounts.${i}.scheduledFor`));
    });
    if (
      common === undefined &&
      !(req.targetAccounts?.length && req.targetAccounts.every((t) => t.scheduledFor !== undefined))
    ) {
      throw new HeraldError('INVALID_INPUT', 'scheduledFor is required unless every targetAccounts item has its own', {
        details: [{ path: 'scheduledFor', message: 'required' }],
      });
    }
    const draft = loadDraft(this.repos.publishInputs, userId, req.draftId);
    if (draft.status === 'publishing') throw publishingNow();
    checkAltTexts(draft.posts, this.deps.config.requireAltText);
    const targetAccounts =
      req.targetAccounts ??
      (req.accountUuid ? [{ accountId: req.accountUuid, platform: req.platform ?? 'microblog' }] : undefined);
    const targets = this.publishing.resolveTargets(userId, draft, { targetAccounts });
    if (!req.force)
      this.refuseRepeats(
        draft.id,
        targets.map((t) => t.account),
      );
    const planned = targets.map(({ account }) => ({
      account,
      parts: partsFor(account.platform as Platform, draft),
      options: { post: draft.options },
    }));
    checkParts(planned, this.publishing.checkFacts());
    const timeOf = (accountId: string) => own.get(accountId) ?? common!;
    const earliest = Math.min(...targets.map(({ account }) => timeOf(account.id)));
    // X's spend cap, counting what is already scheduled in the month the post fires (x-spend.ts).
    const onX = planned.filter((p) => p.account.platform === 'microblog');
    const xCost = (parts: readonly XPart[]) => this.xSpend.postsCostUsd(userId, parts);
    const onXCost = onX.reduce((n, p) => n + xCost(p.parts), 0);
    const warning =
      onX.length > 0
        ? this.xSpend.check(userId, onXCost, {
            at: Math.min(...onX.map((p) => timeOf(p.account.id))),
            forecast: true,
            except: draft.id,
          })
        : null;
    // Credits are charged as each entry fires: a month they will not cover is said now, not then.
    const short = this.credits.shortfall(
      userId,
      targets.map(({ account }) => timeOf(account.id)),
      draft.id,
    );
    const said = [warning, short].filter((w): w is string => w !== null);
    const warnings = said.length > 0 ? { warnings: said } : {};
    // Each entry is charged when it fires; the dry run says what that will be.
    if (req.dryRun)
      return {
        ...dryRunAnswer(
          planned.map((p) => ({ ...p, credits: PUBLISH_COST })),
          this.credits.balance(userId).balance,
          xCost,
        ),
        ...warnings,
      };
    return { req, now, draftId: draft.id, accounts: targets.map((t) => t.account), timeOf, earliest, warnings };
  }

  /** Writes what prepare() planned, in the next group commit; answers once it is on disk. */
  async write(
    userId: string,
    plan: Exclude<ReturnType<ScheduleService['prepare']>, { dryRun: true }>,
    queueSetId: string | null = null,
  ) {
    const { req, now, draftId, accounts, timeOf, earliest, warnings } = plan;
    const apply = req.applyJitter ?? true;
    const created = nowIso(this.deps.clock);
    const ids: string[] = [];
    const { schedule, draftStatus } = this.repos;
    await this.repos.commits.durable(() => {
      // The draft may have changed since the checks above (they ran a turn of the event loop
      // ago): deleted, or a publish of it began. Then nothing is written.
      if (!draftStatus.setScheduled(draftId, userId, new Date(earliest).toISOString(), created)) {
        loadDraft(this.repos.publishInputs, userId, draftId); // NOT_FOUND when it was deleted
        throw publishingNow();
      }
      // Scheduling again moves the entry: only accounts with one pending are looked up to delete.
      const pending = new Set(schedule.pendingAccounts(draftId));
      for (const account of accounts) {
        const requested = timeOf(account.id);
        // Never in the past: a post due in under 3 minutes can only move later.
        const fireAt = apply ? Math.max(now + 1000, requested + this.jitter()) : requested;
        // Time-ordered: 40 entries of one request land on one page of the primary key.
        const id = this.deps.ids.ordered();
        // A post the network holds for the old time stays there: the hand-off moves it (hand-off.service.ts).
        const was = pending.has(account.id) ? schedule.deletePending(draftId, account.id) : undefined;
        schedule.insert({
          id,
          userId,
          draftId,
          accountId: account.id,
          platform: account.platform,
          fireAt,
          requestedAt: requested,
          priority: req.priority ?? 0,
          createdAt: created,
          queueSetId,
          networkScheduledId: was?.networkScheduledId,
          handedOffFor: was?.handedOffFor,
          force: req.force,
          // Moved, an evergreen repeat keeps the variant chosen for X (which refuses a text twice).
          firstText: req.firstTexts?.[account.id] ?? was?.firstText ?? undefined,
        });
        this.events.post(
          userId,
          'post.scheduled',
          { draftId, accountId: account.id, platform: account.platform },
          { scheduledFor: new Date(fireAt).toISOString() },
        );
        ids.push(id);
      }
    });
    this.onChange();
    return {
      message: `Scheduled for ${ids.length} account(s)`,
      queueIds: ids,
      scheduledFor: req.scheduledFor ?? new Date(earliest).toISOString(),
      accountCount: ids.length,
      ...warnings,
    };
  }

  /**
   * Publishing never sends a draft twice to one account unless forced; a scheduled entry for such
   * an account would fire only to be skipped, so scheduling says so now (decisions §11).
   */
  private refuseRepeats(draftId: string, accounts: { id: string; platform: string; username: string }[]): void {
    const done = accounts.filter((a) => this.repos.publications.latestStatusOf(draftId, a.id) === 'published');
    if (done.length === 0) return;
    const names = done.map(
      (a) => `${accountHandle(a.platform, a.username)} on ${NETWORK_NAMES[a.platform as Platform] ?? a.platform}`,
    );
    throw new HeraldError(
      'ALREADY_PUBLISHED',
      `The draft is already published to ${names.join(', ')}; ` +
        'schedule it with force: true to post it again, or choose other accounts',
      {
        details: done.map((a, i) => ({ path: 'force', message: `already published to ${names[i]} (account ${a.id})` })),
      },
    );
  }

  /** The next pending post and how many are pending (the desktop's tray; one owner per install). */
  outlook(): { next?: { draftTitle: string; scheduledFor: string; platform: string }; pending: number } {
    const next = this.repos.schedule.nextUp();
    return {
      next: next && {
        draftTitle: next.draftTitle,
        scheduledFor: new Date(next.fireAt).toISOString(),
        platform: next.platform,
      },
      pending: this.repos.schedule.pendingTotal(),
    };
  }

  list(userId: string) {
    const rows = this.repos.schedule.listPending(userId);
    // Handed off (docs/decisions.md §14): the instance that publishes it, by its host.
    const host = (url: string | null) => {
      try {
        return url ? new URL(url).host : null;
      } catch {
        return null;
      }
    };
    return rows.map(({ fireAt, serverUrl, setId, timeZone, ...r }) => ({
      ...r,
      scheduledFor: new Date(fireAt).toISOString(),
      handedOffTo: r.networkScheduledId ? host(serverUrl) : null,
      // The set's zone (a set made before zones existed is in the machine's); null without a set.
      timeZone: setId ? (timeZone ?? machineTimeZone()) : null,
    }));
  }

  /**
   * Cancels the draft's pending entries, or only `accountId`'s (one network of a multi-network
   * schedule). The draft returns to `draft` once nothing of it is pending or being fired.
   */
  cancel(userId: string, draftId: string, accountId?: string): number {
    loadDraft(this.repos.publishInputs, userId, draftId);
    const n = this.repos.tx.run(() => {
      const cancelled = this.repos.schedule.cancelPending(userId, draftId, accountId);
      if (!this.repos.schedule.hasActive(draftId))
        this.repos.draftStatus.setBackToDraft(draftId, nowIso(this.deps.clock));
      for (const { networkScheduledId, setId: _s, slotAt: _a, ...c } of cancelled) {
        this.events.post(userId, 'post.cancelled', { draftId, ...c });
        // Handed off: withdrawn from the network too (hand-off.service.ts), tried until it answers.
        if (networkScheduledId)
          this.repos.handOff.addWithdrawal({
            id: this.deps.ids.uuid(),
            userId,
            accountId: c.accountId,
            platform: c.platform as Platform,
            networkScheduledId,
            createdAt: nowIso(this.deps.clock),
          });
      }
      const held = new Map(cancelled.flatMap((c) => (c.setId ? [[`${c.setId}@${c.slotAt}`, c]] : [])));
      const released = [...held.values()].filter(
        (c) => !this.repos.queue.draftsAt(c.setId!, c.slotAt).includes(draftId),
      );
      if (released.length > 0)
        this.onSlotsReleased(
          userId,
          draftId,
          released.map((c) => ({ setId: c.setId!, slotAt: c.slotAt })),
        );
      return cancelled.length;
    });
    this.onChange();
    return n;
  }

  /**
   * The secret store was unlocked (or replaced by one that is open): posts that waited for it
   * fall due now, and the scheduler wakes for them.
   */
  secretsUnlocked(): number {
    if (this.deps.secrets.locked) return 0;
    const n = this.repos.schedule.wakeUnlocked(LOCKED_WAIT, this.deps.clock.now());
    if (n > 0)
      this.deps.log.info(`Herald: the secret store is open; ${n} scheduled post(s) that waited for it are sent now`);
    this.onChange();
    return n;
  }
}
