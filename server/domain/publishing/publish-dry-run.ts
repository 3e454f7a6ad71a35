/**
 * Dry runs of a publish (docs/decisions.md §11): the real plan and charge, in a transaction rolled
 * back, so nothing is charged, stored or sent; the answer (dry-run.ts) says what each network would
 * receive and what it would cost. What a real publish would refuse (a limit, an account, short
 * credits) is refused the same way, because it is the same code that refuses it.
 */
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import { PUBLISH_COST, type CreditsService } from '../credits/credits.service.js';
import type { PublishCharge } from './charge.js';
import { dryRunAnswer, type CardFacts } from './dry-run.js';
import { checkParts } from './limits.js';
import type { DirectPublish, MediaByUrl, PublishRequest } from './model.js';
import type { PublishPlanner } from './planner.js';
import type { XSpend } from './x-spend.js';

/** Thrown to roll a dry run's transaction back. */
const ROLLBACK = Symbol('dry run');

/** What a dry run works with: the publish service's own planner and charge, and what it was given. */
export interface DryRunParts {
  repos: Pick<PublishingRepos, 'tx'>;
  planner: PublishPlanner;
  charge: PublishCharge;
  credits: CreditsService;
  xSpend: XSpend;
  cardFacts?: CardFacts;
}

/** The publish service's dry runs: a draft publish's and a direct publish's. */
export class PublishDryRun {
  constructor(private readonly parts: DryRunParts) {}

  /** Dry run of a draft publish: begin()'s plan and charge, rolled back. */
  draft(userId: string, req: PublishRequest) {
    const { planner, charge } = this.parts;
    return this.rolledBack(userId, () => {
      const { draft, targets } = planner.plan(userId, req);
      checkParts(targets, planner.checkFacts());
      const { skipped } = charge.prepare(userId, draft.id, targets, {
        jobId: null,
        force: req.force ?? false,
        origin: req.origin ?? 'now',
      });
      const done = new Set(skipped.map((s) => s.target.account.id));
      return this.answer(
        userId,
        targets.map((t) => ({
          ...t,
          credits: done.has(t.account.id) ? 0 : PUBLISH_COST,
          skipped: done.has(t.account.id),
        })),
      );
    });
  }

  /**
   * Dry run of a direct publish: publishDirect()'s plan and charge, rolled back, nothing sent.
   * `byUrl.load` should not fetch (MediaService.refsFromUrls with `fetch: false`): a remote media
   * URL is answered as `{url}`, this server's media by id.
   */
  async direct(userId: string, req: DirectPublish, byUrl?: MediaByUrl) {
    const target = await this.parts.planner.planDirect(userId, req, byUrl);
    return this.rolledBack(userId, () => {
      this.parts.charge.prepare(userId, null, [target], { jobId: null, force: true, origin: 'api' });
      return this.answer(userId, [{ ...target, credits: PUBLISH_COST }]);
    });
  }

  private answer(userId: string, targets: Parameters<typeof dryRunAnswer>[0]) {
    return dryRunAnswer(targets, 0, (parts) => this.parts.xSpend.postsCostUsd(userId, parts), this.parts.cardFacts);
  }

  /**
   * A dry run's plan and charge, in a transaction rolled back (its publications, parts, ledger
   * records and events go with it); the answer carries the balance as it stands after. The
   * month's grant is written first, outside it, as any look at the balance would.
   */
  private rolledBack(userId: string, planAndCharge: () => ReturnType<typeof dryRunAnswer>) {
    const { credits, repos } = this.parts;
    credits.ensureGrant(userId);
    let answer: ReturnType<typeof dryRunAnswer> | undefined;
    try {
      repos.tx.run(() => {
        answer = planAndCharge();
        throw ROLLBACK;
      });
    } catch (err) {
      if (err !== ROLLBACK) throw err;
    }
    answer!.credits.balance = credits.balance(userId).balance;
    return answer!;
  }
}
