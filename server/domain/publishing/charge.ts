/**
 * Charge: one transaction that either reserves every target's credits and lays out its parts in
 * the outbox, or changes nothing. Short of credits: 402 and nothing is sent.
 */
import { HeraldError } from '../../core/errors.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { PublicationRow } from '../../db/repos/outbox.repo.js';
import type { Deps } from '../deps.js';
import { PUBLISH_COST, type CreditsService } from '../credits/credits.service.js';
import type { EventsService } from '../events/events.service.js';
import type { DraftStatusWriter } from './draft-status-writer.js';
import type { PlannedTarget } from './model.js';
import type { XSpend } from './x-spend.js';
import { accountHandle } from '../../core/handles.js';

export class PublishCharge {
  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    private readonly credits: CreditsService,
    /** Publications running in this process (shared with the sender), so a double click cannot send twice. */
    private readonly running: ReadonlySet<string>,
    private readonly events: EventsService,
    private readonly xSpend: XSpend,
    private readonly draftStatus: DraftStatusWriter,
  ) {}

  /**
   * Plans and charges: one transaction that either reserves every target's credits and lays out
   * its parts, or changes nothing.
   */
  prepare<T extends PlannedTarget>(
    userId: string,
    draftId: string | null,
    targets: T[],
    f: { jobId: string | null; force: boolean; origin: string; cost?: number },
  ) {
    const { outbox } = this.repos;
    // The month's grant is written (and remembered) outside the reservation, so a refused
    // reservation cannot roll back a grant the credits service believes is there.
    this.credits.ensureGrant(userId);
    // Relaxed (db/commits.ts): nothing has been sent yet, and the durable commit of the first
    // part's `sending` mark, before any network call, makes this one durable with it. A kill
    // keeps it; a power cut before that commit loses it whole: nothing sent, nothing charged.
    return this.repos.commits.relaxed(() => {
      const skipped: { target: T; pub: PublicationRow }[] = [];
      const toRun: { target: T; pubId: string }[] = [];
      const charged: { account: AccountRow; pubId: string }[] = [];
      for (const t of targets) {
        const latest = draftId ? outbox.latest(userId, draftId, t.account.id) : undefined;
        if (latest && (this.running.has(latest.id) || latest.status === 'publishing')) {
          if (this.running.has(latest.id))
            throw new HeraldError(
              'INVALID_INPUT',
              `The draft is already being published to ${accountHandle(t.account.platform, t.account.username)}`,
            );
        }
        if (latest?.status === 'published' && !f.force) {
          skipped.push({ target: t, pub: latest });
          continue;
        }
        // needs_review stays on hold until the user decides: only `force` starts it over.
        if (latest?.status === 'needs_review' && !f.force) {
          throw new HeraldError(
            'INVALID_INPUT',
            `Publishing to ${accountHandle(t.account.platform, t.account.username)} is waiting for you to ` +
              `confirm whether an earlier post went ` +
              `out; check the account, then publish with force`,
          );
        }
        const reuse = latest && latest.status !== 'published' && !(f.force && latest.status === 'needs_review');
        const pubId = reuse
          ? latest.id
          : outbox.create({
              userId,
              draftId,
              accountId: t.account.id,
              platform: t.account.platform,
              jobId: f.jobId,
              options: '{}',
              origin: f.origin,
            });
        // A publication left `publishing` by a crash was paid for when it started.
        if (!(reuse && latest.status === 'publishing')) charged.push({ account: t.account, pubId });
        outbox.start(pubId, f.jobId, JSON.stringify(t.options));
        outbox.planParts(pubId, t.parts);
        this.events.post(userId, 'post.sending', { draftId, accountId: t.account.id, platform: t.account.platform });
        toRun.push({ target: t, pubId });
      }
      if (charged.length > 0) {
        // The whole cost is checked at once (one clear answer when short), then one `publish`
        // record per target, as each failed target gets its own `refund`.
        const each = f.cost ?? PUBLISH_COST;
        this.assertCredits(userId, charged.length, each);
        for (const c of charged) {
          this.credits.charge(userId, each, {
            orderNo: f.jobId ?? c.pubId,
            sourceType: c.account.platform,
            sourceDetail: `Publish to ${accountHandle(c.account.platform, c.account.username)}`.slice(0, 300),
          });
        }
      }
      // X's spend cap (x-spend.ts): over it, refused here (nothing charged or sent) or warned of.
      let xCost = 0;
      for (const r of toRun) {
        if (r.target.account.platform === 'microblog') xCost += this.xSpend.postsCostUsd(userId, r.target.parts);
      }
      const warning = this.xSpend.check(userId, xCost);
      if (toRun.length > 0 && draftId) this.draftStatus.begun(draftId);
      return { skipped, toRun, warnings: warning ? [warning] : [] };
    });
  }

  /** Throws INSUFFICIENT_CREDITS unless `targets` publishes could be paid now (the charge itself is in `prepare`). */
  assertCredits(userId: string, targets: number, cost = PUBLISH_COST): void {
    const { balance } = this.credits.balance(userId);
    if (balance < cost * targets) {
      throw new HeraldError(
        'INSUFFICIENT_CREDITS',
        `Publishing to ${targets === 1 ? '1 account' : `${targets} accounts`} needs ${cost * targets} ` +
          `credits and ${balance} are left; nothing was sent`,
      );
    }
  }
}
