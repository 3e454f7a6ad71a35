/**
 * Send: runs prepared publications through the runner and the outbox (every target in parallel,
 * strictly in order within a thread, a few at a time per network), records each outcome and the
 * refund of a failed target, and settles the draft's status (rules/draft-status.ts). Also resumes
 * what a crash interrupted, never re-charging it.
 */
import { EventEmitter } from 'node:events';
import type { Platform } from '../../core/config.js';
import { crashPoint } from '../../core/crash.js';
import { HeraldError, isStorageFull } from '../../core/errors.js';
import type { PublicationRow } from '../../db/repos/outbox.repo.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { AccountRow } from '../../db/repos/publish-inputs.repo.js';
import type { PostRef } from '../../platforms/adapter.js';
import { PlatformError } from '../../platforms/errors.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import { toHeraldError } from '../platform-errors.js';
import { PUBLISH_COST, type CreditsService } from '../credits/credits.service.js';
import type { Deps } from '../deps.js';
import type { EventsService } from '../events/events.service.js';
import type { DraftStatusWriter } from './draft-status-writer.js';
import { quotaHoldOf, retryHint } from './rules/retry.js';
import type { CardSource, RelaySource, TargetResult } from './model.js';
import { PublicationRunner, type TargetOutcome } from './runner.js';

const PER_NETWORK_CONCURRENCY = 8;

/** The `data` object docs/decisions.md §5 gives each network. */
export function resultData(platform: Platform, refs: PostRef[]): Record<string, unknown> {
  const first = refs[0];
  switch (platform) {
    case 'microblog':
      return { tweetId: first.id, url: first.url, tweetIds: refs.map((r) => r.id) };
    case 'skyblog':
      return { uri: first.id, cid: first.cid, url: first.url, uris: refs.map((r) => r.id) };
    default:
      return { id: first.id, url: first.url, ids: refs.map((r) => r.id) };
  }
}

function errorBody(err: unknown): { code: string; message: string } {
  // A local write failed, not the network: the scheduler keeps such a post waiting (storage-waits.ts).
  if (isStorageFull(err))
    return {
      code: 'STORAGE_FULL',
      message: "Waiting: the disk that holds Herald's data folder is full; nothing was sent",
    };
  const mapped = toHeraldError(err);
  if (mapped instanceof HeraldError) return { code: mapped.code, message: mapped.message };
  if (err instanceof PlatformError) return { code: 'PLATFORM_ERROR', message: err.message };
  return { code: 'INTERNAL_ERROR', message: 'Herald failed while publishing; nothing more was sent' };
}

class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.active += 1;
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

export class PublishSender {
  readonly runner: PublicationRunner;
  /** Emits `target` with each TargetResult as it settles (desktop notifications, the tray). */
  readonly events = new EventEmitter();
  private readonly gates = new Map<Platform, Semaphore>();

  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    credentials: CredentialsService,
    private readonly credits: CreditsService,
    private readonly running: Set<string>,
    private readonly stream: EventsService,
    private readonly draftStatus: DraftStatusWriter,
    sources: { cards?: CardSource; relay?: RelaySource } = {},
  ) {
    this.runner = new PublicationRunner(deps, repos.outbox, repos.publishInputs, credentials, repos.usage, sources);
  }

  private gate(platform: Platform): Semaphore {
    let g = this.gates.get(platform);
    if (!g) this.gates.set(platform, (g = new Semaphore(PER_NETWORK_CONCURRENCY)));
    return g;
  }

  /**
   * Runs prepared publications and settles credits and statuses. `scheduled`: the scheduled
   * runner tells of failures itself (it knows the next attempt), so they get no event here, and
   * it writes the draft's status with the entry's outcome (draft-status-writer.ts).
   */
  async execute(
    userId: string,
    draftId: string | null,
    toRun: { target: { account: AccountRow }; pubId: string }[],
    scheduled = false,
    cost = PUBLISH_COST,
  ): Promise<TargetResult[]> {
    const results = await Promise.all(
      toRun.map(async ({ target, pubId }) => {
        this.running.add(pubId);
        try {
          const pub = this.repos.outbox.get(pubId)!;
          const outcome: TargetOutcome = await this.gate(target.account.platform as Platform).run(() =>
            this.runner.run(pub),
          );
          const result = this.settle(userId, target.account, pub, outcome, cost, !scheduled);
          this.events.emit('target', result);
          return result;
        } finally {
          this.running.delete(pubId);
        }
      }),
    );
    if (draftId && !scheduled) this.draftStatus.afterPublish(draftId);
    return results;
  }

  /**
   * Records the outcome (and the refund of a failed target) in one relaxed transaction: the
   * network has answered, so a power cut that drops it leaves the publication `publishing` with
   * its part `sending` or `sent`, which the next start resumes by asking the network, never by
   * sending blindly (runner.ts). A kill keeps it.
   */
  private settle(
    userId: string,
    account: AccountRow,
    pub: PublicationRow,
    outcome: TargetOutcome,
    cost: number,
    tellFailure: boolean,
  ): TargetResult {
    const platform = account.platform as Platform;
    const { outbox, commits } = this.repos;
    const pubId = pub.id;
    const ref = { draftId: pub.draftId, accountId: account.id, platform };
    let result: TargetResult;
    if (outcome.status === 'published') {
      const data = resultData(platform, outcome.refs);
      commits.relaxed(() => {
        outbox.finish(pubId, 'published', { url: outcome.refs[0].url, data });
        this.stream.post(userId, 'post.published', ref, { url: outcome.refs[0].url });
      });
      result = { accountId: account.id, platform, success: true, status: 'published', data };
    } else if (outcome.status === 'needs_review') {
      commits.relaxed(() => {
        outbox.finish(pubId, 'needs_review', { error: outcome.reason });
        if (tellFailure)
          this.stream.post(userId, 'post.failed', ref, {
            error: outcome.reason,
            errorCode: 'NEEDS_REVIEW',
            nextAttemptAt: null,
          });
      });
      result = {
        accountId: account.id,
        platform,
        success: false,
        status: 'needs_review',
        error: { code: 'PLATFORM_ERROR', message: outcome.reason },
      };
    } else {
      const error = errorBody(outcome.error);
      if (error.code === 'INTERNAL_ERROR') this.deps.log.error('Herald publishing failed', outcome.error);
      const retry = retryHint(outcome.error);
      const hold = quotaHoldOf(outcome.error);
      commits.relaxed(() => {
        outbox.finish(pubId, 'failed', { error: error.message, data: { error } });
        this.credits.refund(userId, cost, {
          orderNo: pubId,
          sourceType: platform,
          sourceDetail: `Refund: ${error.message}`.slice(0, 300),
        });
        if (tellFailure)
          this.stream.post(userId, 'post.failed', ref, {
            error: error.message,
            errorCode: error.code,
            nextAttemptAt: null,
          });
      });
      result = { accountId: account.id, platform, success: false, status: 'failed', error, retry, hold };
    }
    crashPoint('finish');
    return result;
  }

  /**
   * Publications a crash left `publishing` (none of them running in this process): resumed from
   * their first unsent part, with `sending` parts reconciled, never re-charged.
   */
  async resumeInterrupted(): Promise<TargetResult[]> {
    const { outbox } = this.repos;
    const stuck = outbox.withStatus('publishing').filter((p) => !this.running.has(p.id));
    const results: TargetResult[] = [];
    for (const pub of stuck) {
      // Taken over while earlier ones ran (a publish of the same draft): never run it twice.
      if (this.running.has(pub.id) || outbox.get(pub.id)?.status !== 'publishing') continue;
      if (this.giveBack(pub)) continue;
      const account = this.repos.publishInputs.accountRow(pub.accountId);
      if (!account) {
        outbox.finish(pub.id, 'failed', { error: 'The account was removed from Herald' });
        continue;
      }
      results.push(...(await this.execute(pub.userId, pub.draftId, [{ target: { account }, pubId: pub.id }])));
    }
    return results;
  }

  /**
   * A scheduled publication begun (planned and charged) when its entry fell due, but stopped before
   * anything was sent: it goes back to its schedule entry (which the scheduler put back in the
   * queue), refunded, instead of being resumed now. The entry fires it again, planned and charged
   * afresh, or marks it missed when Herald was down past the grace period: a post is never sent
   * stale because it had been queued behind its account's earlier posts when Herald stopped.
   * Returns whether it was given back.
   */
  giveBack(pub: PublicationRow): boolean {
    if (pub.origin !== 'schedule' || !pub.draftId) return false;
    if (!this.repos.schedule.hasActiveFor(pub.draftId, pub.accountId)) return false;
    const { outbox } = this.repos;
    if (outbox.parts(pub.id).some((p) => p.status === 'sent' || p.status === 'sending')) return false;
    const draftId = pub.draftId;
    this.repos.tx.run(() => {
      this.credits.refund(pub.userId, PUBLISH_COST, {
        orderNo: pub.id,
        sourceType: pub.platform,
        sourceDetail: 'Refund: stopped before anything was sent; its schedule fires it again',
      });
      // A first attempt leaves no trace (as if it had not fallen due yet); a retry keeps its history.
      if (pub.attempts <= 1) this.repos.publications.delete(pub.id);
      else outbox.finish(pub.id, 'failed', { error: 'Stopped before anything was sent; its schedule fires it again' });
      // Begun, the draft said `publishing`: with its post back in the queue it is scheduled again.
      this.draftStatus.afterEntry(draftId);
    });
    return true;
  }
}
