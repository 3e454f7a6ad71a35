/**
 * Publish now: resolve the targets, check every network's limits, reserve the whole cost in one
 * transaction (short of it: 402 and nothing is sent), then publish to every target in parallel
 * (strictly in order within a thread, a few at a time per network). Failed targets are
 * refunded; a target already published is skipped unless `force`.
 *
 * The steps live in their own modules: plan (planner.ts over plan.ts and limits.ts), charge
 * (charge.ts), send (send.ts: the runner and the outbox), report (report.ts) and dry runs
 * (publish-dry-run.ts); scheduled posts come in through
 * scheduled-runner.ts. This service joins them and owns the publications running in this process.
 * Its parts are its own: what others need (X's spend, the storage waits, the draft's status
 * writer) is built by createServices and given to each that needs it.
 */
import type { Platform } from '../../core/config.js';
import type { Deps } from '../deps.js';
import { HeraldError } from '../../core/errors.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { HistoryFilter } from '../../db/repos/publications.repo.js';
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import { PUBLISH_COST, type CreditsService } from '../credits/credits.service.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import type { EventsService } from '../events/events.service.js';
import { PublishCharge } from './charge.js';
import { PublishReports } from './report.js';
import { PublishSender } from './send.js';
import type {
  CardSource,
  RelaySource,
  DirectPublish,
  MediaByUrl,
  PublicationOptions,
  PublishOutcome,
  PublishRequest,
  Started,
  TargetResult,
} from './model.js';
import { checkParts, type CheckFacts } from './limits.js';
import type { StorageWaits } from './storage-waits.js';
import type { XSpend } from './x-spend.js';
import type { DraftStatusWriter } from './draft-status-writer.js';
import type { Planned } from './model.js';
import { PublishPlanner } from './planner.js';
import { PublishDryRun } from './publish-dry-run.js';

export type { ProgressEntry } from './report.js';
export { resultData } from './send.js';

/**
 * A single-account endpoint's error for a failed target: TOKEN_EXPIRED, RATE_LIMITED (with
 * Retry-After until the network's own reset, when it gave one) or PLATFORM_ERROR.
 */
export function targetError(result: TargetResult, now: number): HeraldError {
  const code =
    result.error?.code === 'TOKEN_EXPIRED' || result.error?.code === 'RATE_LIMITED'
      ? result.error.code
      : 'PLATFORM_ERROR';
  const after = code === 'RATE_LIMITED' ? result.retry?.after : undefined;
  return new HeraldError(
    code,
    result.error?.message ?? 'Publishing failed',
    after ? { retryAfter: Math.max(1, Math.ceil((after - now) / 1000)) } : {},
  );
}

/** What the publish service works with besides its repositories (built by createServices). */
export interface PublishParts {
  credentials: CredentialsService;
  credits: CreditsService;
  sets: SocialSetsService;
  stream: EventsService;
  /** X's spend: the price function's figures and the monthly cap (x-spend.ts). */
  xSpend: XSpend;
  /** Scheduled posts a full disk holds back (the scheduled runner fills it, progress reads it). */
  storageWaits: StorageWaits;
  draftStatus: DraftStatusWriter;
  cards?: CardSource;
  /** The media relay (Threads with uploaded media). */
  relay?: RelaySource;
}

export class PublishService {
  /** Emits `target` with each TargetResult as it settles (desktop notifications, the tray). */
  readonly events;
  /** Publications running in this process, so a double click cannot send twice. */
  private readonly running = new Set<string>();
  private readonly charge: PublishCharge;
  private readonly sender: PublishSender;
  private readonly reports: PublishReports;
  private readonly planner: PublishPlanner;
  private readonly dryRuns: PublishDryRun;
  private readonly credits: CreditsService;
  private readonly draftStatus: DraftStatusWriter;

  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    parts: PublishParts,
  ) {
    const { credentials, credits, stream, cards } = parts;
    ({ credits: this.credits, draftStatus: this.draftStatus } = parts);
    this.charge = new PublishCharge(deps, repos, credits, this.running, stream, parts.xSpend, this.draftStatus);
    this.sender = new PublishSender(deps, repos, credentials, credits, this.running, stream, this.draftStatus, {
      cards,
      relay: parts.relay,
    });
    this.planner = new PublishPlanner(deps, repos, parts.sets, this.charge, parts.relay);
    const cardFacts = cards ? (url: string) => cards.cached(url) : undefined;
    this.dryRuns = new PublishDryRun({
      repos,
      planner: this.planner,
      charge: this.charge,
      credits,
      xSpend: parts.xSpend,
      cardFacts,
    });
    this.reports = new PublishReports(deps, repos, parts.storageWaits);
    this.events = this.sender.events;
  }

  /** What the limit checks need besides the parts (limits.ts). */
  checkFacts(): CheckFacts {
    return this.planner.checkFacts();
  }

  /** Targets: explicit list, else account ids, else the draft's selection, else its set. */
  resolveTargets(
    userId: string,
    draft: { selectedAccountIds: string[]; socialSetId: string | null },
    req: Pick<PublishRequest, 'accountIds' | 'targetAccounts'>,
  ): { account: AccountRow; communityId?: string }[] {
    return this.planner.resolveTargets(userId, draft, req);
  }

  /** Throws INSUFFICIENT_CREDITS unless `targets` publishes could be paid now. */
  assertCredits(userId: string, targets: number, cost = PUBLISH_COST): void {
    this.charge.assertCredits(userId, targets, cost);
  }

  /** Publications a crash left `publishing`: resumed, never re-charged (send.ts). */
  resumeInterrupted(): Promise<TargetResult[]> {
    return this.sender.resumeInterrupted();
  }

  /**
   * A scheduled post refused before anything was begun (credits short, the draft past a limit):
   * kept as a failed publication with the spec's code, so progress and history show it with its
   * reason instead of the entry vanishing. Nothing is charged (nothing was). An account no
   * longer in Herald keeps only its failed schedule entry, which progress shows.
   */
  recordRefusal(
    userId: string,
    draftId: string,
    accountId: string,
    platform: Platform,
    error: { code: string; message: string },
  ): void {
    const exists = this.repos.publishInputs.accountsOf(userId, [accountId]).length > 0;
    if (!exists) return;
    const { outbox } = this.repos;
    this.repos.commits.relaxed(() => {
      const id = outbox.create({
        userId,
        draftId,
        accountId,
        platform,
        jobId: null,
        options: '{}',
        origin: 'schedule',
        status: 'failed',
      });
      outbox.finish(id, 'failed', { error: error.message, data: { error } });
    });
  }

  /** POST /threadblog/publish and /problog/publish with a draftId: one account, single-network answer. */
  async publishDraftTo(
    userId: string,
    draftId: string,
    accountId: string,
    platform: Platform,
    options: PublicationOptions,
  ) {
    const r = await this.publishDraft(userId, { draftId, targetAccounts: [{ accountId, platform }], options });
    const result = r.results[0];
    if (!result.success) throw targetError(result, Date.now());
    return { success: true, platform, accountId, data: result.data ?? {} };
  }

  progress(userId: string, q: { draftId?: string; jobId?: string }) {
    return this.reports.progress(userId, q);
  }

  history(userId: string, q: HistoryFilter) {
    return this.reports.history(userId, q);
  }

  /**
   * The user's answer for a publication held as `needs_review`: the post did go out (mark it
   * published), or it did not (the unconfirmed part may be sent again on the next publish).
   */
  resolveReview(userId: string, publicationId: string, outcome: 'published' | 'not_published'): void {
    const { outbox } = this.repos;
    const pub = outbox.get(publicationId);
    if (!pub || pub.userId !== userId) throw new HeraldError('NOT_FOUND', 'Publication not found');
    if (pub.status !== 'needs_review')
      throw new HeraldError('INVALID_INPUT', `This publication is ${pub.status}, not waiting for review`);
    this.repos.tx.run(() => {
      const parts = outbox.parts(pub.id);
      if (outcome === 'published') {
        outbox.finish(pub.id, 'published', { error: null, url: parts.find((p) => p.url)?.url ?? null });
      } else {
        for (const p of parts) if (p.status === 'sending') outbox.partPending(p.id);
        outbox.finish(pub.id, 'failed', { error: 'Not published (confirmed by you); publish again to send it' });
        // Like any failed target it is refunded: publishing it again charges it again.
        this.credits.refund(userId, PUBLISH_COST, {
          orderNo: pub.id,
          sourceType: pub.platform,
          sourceDetail: 'Refund: not published (confirmed by you)',
        });
      }
    });
    if (pub.draftId) this.draftStatus.afterPublish(pub.draftId);
  }

  /** POST /microblog/publish and /publish/multi-platform. */
  async publishDraft(userId: string, req: PublishRequest, background = false) {
    this.assertUnlocked();
    const started = this.begin(userId, req);
    if (background) {
      this.run(started).catch((err) => this.deps.log.error('Herald background publish failed', err));
      return {
        jobId: started.jobId,
        draftId: started.draftId,
        results: started.skipped,
        pending: started.toRun.length,
        warnings: started.warnings,
      };
    }
    return this.run(started);
  }

  /**
   * Writes (or finds) each user's grant for this month on its own, outside any transaction, so
   * the credits service remembers it. Called before begin() runs for a batch inside one
   * transaction, where a grant could still be rolled back and so is looked up again every time
   * (the first scheduled posts after a start paid a ledger query each).
   */
  ensureGrants(userIds: Iterable<string>): void {
    for (const userId of new Set(userIds)) this.credits.ensureGrant(userId);
  }

  /**
   * A publish's first half: checks the draft, plans each target's parts and charges for them
   * (charge.ts); nothing is sent. Its publications are this process's until run() or release(),
   * so nothing else (a publish-now, a resumption) takes them over meanwhile. The scheduled
   * runner begins every claimed entry at once and runs them in order per account. `planned`:
   * the plan already made for this request (the scheduled runner's, which counted its quota).
   */
  begin(userId: string, req: PublishRequest, planned?: Planned): Started {
    const { draft, targets } = planned ?? this.plan(userId, req);
    checkParts(targets, this.planner.checkFacts());
    const jobId = req.jobId ?? this.deps.ids.uuid();
    const { skipped, toRun, warnings } = this.charge.prepare(userId, draft.id, targets, {
      jobId,
      force: req.force ?? false,
      origin: req.origin ?? 'now',
    });
    const skippedResults: TargetResult[] = skipped.map(({ target, pub }) => ({
      accountId: target.account.id,
      platform: target.account.platform as Platform,
      success: true,
      skipped: true,
      status: 'published',
      data: pub.data ? (JSON.parse(pub.data) as Record<string, unknown>) : undefined,
    }));
    for (const r of toRun) this.running.add(r.pubId);
    return { userId, req, jobId, draftId: draft.id, skipped: skippedResults, toRun, warnings };
  }

  /**
   * Undoes a begun publish before anything was sent (a scheduled post the quota gate holds back):
   * refunded and handed back to its schedule entry (send.ts, giveBack).
   */
  unbegin(started: Started): void {
    this.release(started);
    for (const r of started.toRun) {
      const pub = this.repos.outbox.get(r.pubId);
      if (pub) this.sender.giveBack(pub);
    }
  }

  /**
   * Dry run (docs/decisions.md §11): begin()'s plan and charge, in a transaction rolled back, so nothing
   * is charged, stored or sent; answers what each network would receive and what it would cost.
   * What a real publish would refuse (a limit, an account, short credits) is refused the same way.
   */
  dryRun(userId: string, req: PublishRequest) {
    return this.dryRuns.draft(userId, req);
  }

  /** What each target of a draft publish gets (planner.ts): the draft's parts per network, and its options. */
  plan(
    userId: string,
    req: Pick<PublishRequest, 'draftId' | 'accountIds' | 'targetAccounts' | 'community' | 'options' | 'firstText'>,
  ): Planned {
    return this.planner.plan(userId, req);
  }

  /** A begun publish's second half: sends to every target and settles them. */
  async run(started: Started): Promise<PublishOutcome> {
    const { userId, req, jobId, draftId, toRun } = started;
    this.release(started);
    // Settled meanwhile by something else (begin() keeps that from happening here): start over,
    // so it is planned and charged as it stands now.
    if (toRun.some((r) => this.repos.outbox.get(r.pubId)?.status !== 'publishing'))
      return this.run(this.begin(userId, req));
    const results = [
      ...started.skipped,
      ...(await this.sender.execute(userId, draftId, toRun, req.origin === 'schedule')),
    ];
    const succeeded = results.filter((r) => r.success).length;
    return {
      success: succeeded === results.length,
      jobId,
      draftId,
      results,
      summary: { total: results.length, succeeded, failed: results.length - succeeded },
      ...(started.warnings.length > 0 ? { warnings: started.warnings } : {}),
    };
  }

  /**
   * A publish sent now needs the accounts' tokens: with the encrypted store locked, 423 before
   * anything is charged or sent (a scheduled post waits instead: scheduled-runner.ts).
   */
  private assertUnlocked(): void {
    if (this.deps.secrets.locked) {
      throw new HeraldError(
        'SECRET_STORE_LOCKED',
        "Herald is locked, so it cannot read the accounts' tokens: unlock it (the banner at the top of the " +
          'app, or `herald secrets unlock`) and publish again. Nothing was sent or charged.',
      );
    }
  }

  /** Gives up a begun publish without running it (the scheduler stopping): the next start resumes or gives it back. */
  release(started: Started): void {
    for (const r of started.toRun) this.running.delete(r.pubId);
  }

  /**
   * Single-network endpoints and quotes: text given directly, no draft. Media given by URL is
   * fetched only once the text fits and the credits are there, so a refused request reaches no one.
   */
  async publishDirect(userId: string, req: DirectPublish, byUrl?: MediaByUrl): Promise<TargetResult> {
    this.assertUnlocked();
    const target = await this.planner.planDirect(userId, req, byUrl);
    const { toRun } = this.charge.prepare(userId, null, [target], { jobId: null, force: true, origin: 'api' });
    const [result] = await this.sender.execute(userId, null, toRun);
    return result;
  }

  /**
   * Dry run of a direct publish (docs/decisions.md §11): publishDirect()'s plan and charge, rolled back,
   * nothing sent. `byUrl.load` should not fetch (MediaService.refsFromUrls with `fetch: false`):
   * a remote media URL is answered as `{url}`, this server's media by id.
   */
  dryRunDirect(userId: string, req: DirectPublish, byUrl?: MediaByUrl) {
    return this.dryRuns.direct(userId, req, byUrl);
  }
}
