/**
 * Reads the counts of published posts from their networks into the time series. It runs apart
 * from publishing (its own job, jobs/metrics.job.ts): a pass takes the due posts a few hundred at
 * a time, groups them by account, asks each network for as many posts per call as it takes
 * (Bluesky 25), and yields to the event loop between calls, pausing `spacingMs` so a long
 * catch-up after the app was closed is a steady trickle, not a burst. A rate limit moves the
 * account's posts to the network's reset; other failures back off; a post gone from the network
 * is marked deleted and never read again.
 */
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { Platform } from '../../core/config.js';
import type { Repos } from '../../db/repos/index.js';
import type { DueTrack } from '../../db/repos/metrics.repo.js';
import type { PostRef } from '../../platforms/adapter.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import type { Deps } from '../deps.js';
import { backoffMs, HOUR_MS, MAX_FAILURES, nextRead } from './metrics-plan.js';

export interface CollectorOptions {
  /** Pause between two network calls (default 250 ms). */
  spacingMs?: number;
  /** Posts taken from the database at a time (default 200). */
  chunk?: number;
}

export interface PassReport {
  /** Posts whose counts were stored. */
  read: number;
  /** Calls made to networks. */
  requests: number;
  gone: number;
  failed: number;
}

export class MetricsCollector {
  private running: Promise<PassReport> | null = null;
  private again = false;
  /** Set at shutdown: a pass ends before its next request and writes nothing more. */
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly deps: Deps,
    private readonly repos: Pick<Repos, 'metrics' | 'accounts' | 'afterPublish' | 'usage' | 'tx'>,
    private readonly credentials: CredentialsService,
    /** Changeable until the first pass (the server's options set the pace). */
    readonly opts: CollectorOptions = {},
  ) {}

  /**
   * Ends the collector for good (the server is closing): the request in flight is cancelled, the pass
   * stops before writing its answer, and no pass starts again. Resolves once the pass has let go of
   * the database, so the caller may close it then.
   */
  stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    return (this.running ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  /** One pass over every due post; a call while a pass runs makes that pass go round once more. */
  run(): Promise<PassReport> {
    if (this.stopped) return Promise.resolve({ read: 0, requests: 0, gone: 0, failed: 0 });
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      const total: PassReport = { read: 0, requests: 0, gone: 0, failed: 0 };
      do {
        this.again = false;
        const r = await this.pass();
        for (const k of Object.keys(total) as (keyof PassReport)[]) total[k] += r[k];
      } while (this.again && !this.stopped);
      return total;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<PassReport> {
    const report: PassReport = { read: 0, requests: 0, gone: 0, failed: 0 };
    const chunk = this.opts.chunk ?? 200;
    while (!this.stopped && this.repos.metrics.adopt(HOUR_MS, chunk) > 0) await yieldToLoop();
    const now = this.deps.clock.now();
    while (!this.stopped) {
      const due = this.repos.metrics.due(now, chunk);
      if (!due.length) break;
      const byAccount = new Map<string, DueTrack[]>();
      for (const d of due) byAccount.set(d.accountId, [...(byAccount.get(d.accountId) ?? []), d]);
      for (const tracks of byAccount.values()) {
        if (this.stopped) break;
        await this.readAccount(tracks, report);
      }
    }
    return report;
  }

  private async readAccount(tracks: DueTrack[], report: PassReport): Promise<void> {
    const platform = tracks[0]!.platform as Platform;
    const network = NETWORK_NAMES[platform];
    const adapter = this.deps.platforms.get(platform);
    const account = this.repos.accounts.byId(tracks[0]!.accountId);
    const stopAll = (reason: string) =>
      this.repos.tx.run(() => {
        for (const t of tracks) this.repos.metrics.stop(t.publicationId, 'unavailable', reason);
      });
    if (!adapter.readMetrics) return stopAll(`${network} does not give Herald post counts`);
    if (!account) return stopAll(`The ${network} account of this post is no longer connected`);
    if (adapter.metricsReadPriceKey && !this.deps.config.xMetrics)
      return stopAll(`${network} counts are off: turn on X metrics in Settings (each read costs money)`);
    const size = Math.max(1, adapter.metricsBatch ?? 1);
    for (let i = 0; i < tracks.length && !this.stopped; i += size) {
      const batch = tracks.slice(i, i + size);
      const refs = batch.map((t) => this.refOf(t)).filter((r): r is PostRef & { track: DueTrack } => r !== null);
      if (!refs.length) continue;
      const calls = adapter.metricsBatch ? 1 : refs.length;
      try {
        const read = await this.credentials.withCredentials(
          account,
          (ctx) => adapter.readMetrics!(ctx, refs),
          this.abort.signal,
        );
        report.requests += calls;
        // Closing meanwhile: the answer is dropped (the database may be closing); the next start reads again.
        if (this.stopped) return;
        // One commit for the batch: a commit per post's row held the event loop for seconds over 10,000.
        this.repos.tx.run(() => {
          this.store(refs, read, report);
          if (adapter.metricsReadPriceKey) this.charge(account, refs.length, adapter.metricsReadPriceKey);
        });
      } catch (err) {
        report.requests += 1;
        if (this.stopped) return;
        if (this.repos.tx.run(() => this.failed(tracks.slice(i), err, report)) === 'stop-account') return;
      }
      await yieldToLoop();
      if (this.opts.spacingMs !== 0) await sleep(this.opts.spacingMs ?? 250, undefined, { ref: false });
    }
  }

  private refOf(t: DueTrack): (PostRef & { track: DueTrack }) | null {
    const first = this.repos.afterPublish.sentParts(t.publicationId)[0];
    if (!first) {
      this.repos.metrics.stop(t.publicationId, 'unavailable', 'Herald has no network id for this post');
      return null;
    }
    return { id: first.networkId, cid: first.networkCid ?? undefined, url: first.url ?? '', track: t };
  }

  private store(
    refs: (PostRef & { track: DueTrack })[],
    read: Awaited<ReturnType<NonNullable<ReturnType<Deps['platforms']['get']>['readMetrics']>>>,
    report: PassReport,
  ): void {
    const now = this.deps.clock.now();
    for (const ref of refs) {
      const t = ref.track;
      const m = read.get(ref.id);
      if (m === 'gone') {
        this.repos.metrics.stop(t.publicationId, 'deleted', 'The post is no longer on its network');
        this.repos.afterPublish.markDeleted(t.publicationId, new Date(now).toISOString());
        report.gone += 1;
        continue;
      }
      if (!m) {
        // Not in the answer (not indexed yet): tried again after the usual wait.
        this.retryLater(t, 'The network did not answer for this post yet', report);
        continue;
      }
      this.repos.metrics.record(t.publicationId, now, m);
      const next = nextRead(Date.parse(t.publishedAt), now);
      this.repos.metrics.plan(t.publicationId, {
        step: next?.step ?? t.step,
        nextAt: next?.at ?? null,
        state: next ? 'tracking' : 'done',
      });
      report.read += 1;
    }
  }

  private retryLater(t: DueTrack, reason: string, report: PassReport, resetAt?: number): void {
    const failures = t.failures + 1;
    report.failed += 1;
    if (failures >= MAX_FAILURES && resetAt === undefined) {
      this.repos.metrics.stop(t.publicationId, 'unavailable', reason);
      return;
    }
    const now = this.deps.clock.now();
    this.repos.metrics.plan(t.publicationId, {
      step: t.step,
      nextAt: Math.max(resetAt ?? 0, now + backoffMs(failures)),
      state: 'tracking',
      error: reason,
      failures,
    });
  }

  /** A failed call: the rest of the account's due posts wait (a rate limit, an expired sign-in) or stop. */
  private failed(rest: DueTrack[], err: unknown, report: PassReport): 'stop-account' {
    const reason = err instanceof Error ? err.message : String(err);
    if (err instanceof PlatformError && err.opts.code === 'missing_scope') {
      for (const t of rest) this.repos.metrics.stop(t.publicationId, 'unavailable', reason);
      return 'stop-account';
    }
    const resetAt = err instanceof PlatformError && err.kind === 'rate_limited' ? err.resetAt : undefined;
    for (const t of rest) this.retryLater(t, reason, report, resetAt);
    return 'stop-account';
  }

  /** X prices each post read: recorded as usage, so the month's X spend counts it. */
  private charge(account: { id: string; userId: string; platform: string }, posts: number, key: 'xReadPriceUsd') {
    const price = key === 'xReadPriceUsd' ? this.deps.config.x.readPriceUsd : 0;
    const at = this.deps.clock.now();
    for (let i = 0; i < posts; i++)
      this.repos.usage.record({
        userId: account.userId,
        accountId: account.id,
        platform: account.platform,
        partId: null,
        kind: 'read',
        costUsd: price,
        at,
      });
  }
}
