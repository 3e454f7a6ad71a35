/**
 * The sending side of HeraldClient: credits, publishing now or later (schedule, queue, slots) and
 * the stream of events that reports how it went. Types only from the contracts, so it stays browser-safe.
 */
import type * as credits from '../server/contracts/credits.js';
import type * as publishing from '../server/contracts/publishing.js';
import type * as schedule from '../server/contracts/schedule.js';
import type * as queue from '../server/contracts/queue.js';
import type * as sets from '../server/contracts/social-sets.js';
import {
  ClientCore,
  type In,
  type Out,
  type Message,
  type QueryOf,
  type Query,
  type WriteOptions,
  HeraldError,
} from './client-core.js';
import { parseEventStream, type HeraldEvent } from './event-stream.js';

/**
 * HeraldClient's methods for credits, publishing, the event stream and scheduling (one area of
 * the class; see herald-client.ts).
 */
export class PublishingMethods extends ClientCore {
  // Credits
  credits() {
    return this.request<Out<typeof credits.creditsResponse>>('POST', '/credits');
  }
  /** The same answer by GET /credits (docs/decisions.md §15 names it so): balance, schedule, xSpend. */
  getCredits() {
    return this.request<Out<typeof credits.creditsResponse>>('GET', '/credits');
  }
  /** Adds (or, below zero, removes) credits: owner keys only; a result below 0 is refused. */
  adjustCredits(body: In<typeof credits.adjustBody>) {
    return this.request<Out<typeof credits.creditsResponse>>('POST', '/credits/adjust', { body });
  }
  creditsUsage(query: QueryOf<typeof credits.usageQuery> = {}) {
    return this.request<Out<typeof credits.usageResponse>>('GET', '/credits/usage', { query: query as Query });
  }

  // Publishing
  /** Publishes a draft to its accounts (or `accountIds`) and answers when every target is done. */
  publish(
    draftId: string,
    opts: Omit<In<typeof publishing.publishBody>, 'draftId' | 'async'> = {},
    write: WriteOptions = {},
  ) {
    return this.request<Out<typeof publishing.publishResponse>>('POST', '/microblog/publish', {
      body: { ...opts, draftId },
      idempotent: write,
    });
  }
  /** Starts publishing and answers at once with the job id; follow `publishProgress`. */
  publishAsync(
    draftId: string,
    opts: Omit<In<typeof publishing.publishBody>, 'draftId' | 'async'> = {},
    write: WriteOptions = {},
  ) {
    return this.request<Out<typeof publishing.acceptedResponse>>('POST', '/microblog/publish', {
      body: { ...opts, draftId, async: true },
      idempotent: write,
    });
  }
  /** What publishing would send and cost, per account (dryRun: nothing is sent, charged or stored). */
  publishDryRun(draftId: string, opts: Omit<In<typeof publishing.publishBody>, 'draftId' | 'async' | 'dryRun'> = {}) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/microblog/publish', {
      body: { ...opts, draftId, dryRun: true },
    });
  }
  publishMultiPlatform(body: In<typeof publishing.multiPublishBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.multiPublishResponse>>('POST', '/publish/multi-platform', {
      body,
      idempotent: write,
    });
  }
  quote(body: Omit<In<typeof publishing.quoteBody>, 'dryRun'>, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.quoteResponse>>('POST', '/microblog/quote', { body, idempotent: write });
  }
  /** What quoting would send and cost (dryRun: nothing is sent, charged or stored). */
  quoteDryRun(body: Omit<In<typeof publishing.quoteBody>, 'dryRun'>) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/microblog/quote', {
      body: { ...body, dryRun: true },
    });
  }
  publishSkyblog(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/skyblog/publish', {
      body,
      idempotent: write,
    });
  }
  /**
   * What publishing this text to Bluesky would send and cost (dryRun: media URLs are checked, not fetched; nothing is
   * sent, charged or stored).
   */
  publishSkyblogDryRun(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/skyblog/publish', {
      body: { ...body, dryRun: true },
    });
  }
  publishFedblog(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/fedblog/publish', {
      body,
      idempotent: write,
    });
  }
  /** What publishing this text to Mastodon would send and cost (dryRun, as publishSkyblogDryRun). */
  publishFedblogDryRun(body: Omit<In<typeof publishing.textPublishBody>, 'dryRun'>) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/fedblog/publish', {
      body: { ...body, dryRun: true },
    });
  }
  publishThreadblog(body: Omit<In<typeof publishing.threadblogPublishBody>, 'dryRun'>, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/threadblog/publish', {
      body,
      idempotent: write,
    });
  }
  /**
   * What publishing a draft, or text and mediaUrls, to Threads would send and cost (dryRun, as publishSkyblogDryRun).
   */
  publishThreadblogDryRun(body: Omit<In<typeof publishing.threadblogPublishBody>, 'dryRun'>) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/threadblog/publish', {
      body: { ...body, dryRun: true },
    });
  }
  publishProblog(body: Omit<In<typeof publishing.problogPublishBody>, 'dryRun'>, write: WriteOptions = {}) {
    return this.request<Out<typeof publishing.singlePublishResponse>>('POST', '/problog/publish', {
      body,
      idempotent: write,
    });
  }
  /**
   * What publishing a draft, or text and mediaUrls, to LinkedIn would send and cost (dryRun, as publishSkyblogDryRun).
   */
  publishProblogDryRun(body: Omit<In<typeof publishing.problogPublishBody>, 'dryRun'>) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/problog/publish', {
      body: { ...body, dryRun: true },
    });
  }
  publishProgress(query: QueryOf<typeof publishing.progressQuery>) {
    return this.request<Out<typeof publishing.progressResponse>>('GET', '/microblog/publish/progress', {
      query: query as Query,
    });
  }

  publishHistory(query: QueryOf<typeof publishing.historyQuery> = {}) {
    return this.request<Out<typeof publishing.historyResponse>>('GET', '/publish/history', { query: query as Query });
  }
  resolveReview(body: In<typeof publishing.reviewBody>) {
    return this.request<Message>('POST', '/publish/review', { body });
  }

  // Events
  /**
   * The stream of this user's events (GET /events), as they happen: post.scheduled,
   * post.sending, post.published, post.failed, post.missed, post.cancelled,
   * account.needs_reauth, credits.changed. `lastEventId` resumes after that id (kept 7 days);
   * without it the stream starts with the next event. Ends when `signal` aborts or the server
   * closes it (then resume with the last id seen).
   */
  async *events(
    opts: { lastEventId?: number; signal?: AbortSignal; onOpen?: () => void } = {},
  ): AsyncGenerator<HeraldEvent> {
    if (!this.apiKey)
      throw new HeraldError(
        'INVALID_API_KEY',
        401,
        'No API key: pass apiKey, set HERALD_API_KEY, or run `herald login`',
      );
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      ...this.opts.headers,
      'svc-key': this.apiKey,
    };
    if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
    let res: Response;
    try {
      res = await this.fetchImpl(this.baseUrl + '/events', { headers, signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) return;
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new HeraldError(
        'NETWORK_ERROR',
        0,
        `Herald is not reachable at ${this.baseUrl} (${cause}); is it running?`,
      );
    }
    if (!res.ok || !res.body) {
      const text = await res.text();
      let data: any;
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
      throw new HeraldError(data?.error ?? 'HTTP_ERROR', res.status, data?.message ?? `HTTP ${res.status}`);
    }
    opts.onOpen?.();
    yield* parseEventStream(res.body, opts.signal);
  }

  // Scheduling
  schedule(body: In<typeof schedule.scheduleBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof schedule.scheduleResponse>>('POST', '/microblog/schedule', {
      body,
      idempotent: write,
    });
  }
  /** What scheduling would plan and cost (dryRun: nothing is scheduled). */
  scheduleDryRun(body: Omit<In<typeof schedule.scheduleBody>, 'dryRun'>) {
    return this.request<Out<typeof publishing.dryRunResponse>>('POST', '/microblog/schedule', {
      body: { ...body, dryRun: true },
    });
  }
  listSchedules() {
    return this.request<Out<typeof schedule.scheduleListResponse>>('GET', '/microblog/schedule');
  }
  /** Cancels the draft's pending entries, or only `accountId`'s (one network). */
  cancelSchedule(draftId: string, accountId?: string) {
    return this.request<Out<typeof schedule.cancelResponse>>('DELETE', '/microblog/schedule', {
      query: { draftId, accountId },
    });
  }
  /** A social set's weekly queue slots (`{day: 1-7, time: "HH:MM"}` in its time zone). */
  getSlots(socialSetId: string) {
    return this.request<Out<typeof sets.slotsResponse>>('GET', `/social-sets/${encodeURIComponent(socialSetId)}/slots`);
  }
  setSlots(socialSetId: string, body: In<typeof sets.putSlotsBody>) {
    return this.request<Out<typeof sets.slotsResponse>>(
      'PUT',
      `/social-sets/${encodeURIComponent(socialSetId)}/slots`,
      { body },
    );
  }
  /** Schedules a draft in its set's next free slot. */
  addToQueue(body: In<typeof queue.queueAddBody>, write: WriteOptions = {}) {
    return this.request<Out<typeof queue.queueAddResponse>>('POST', '/microblog/queue', { body, idempotent: write });
  }
  listQueue(query: QueryOf<typeof queue.queueListQuery> = {}) {
    return this.request<Out<typeof queue.queueListResponse>>('GET', '/microblog/queue', { query });
  }
  /** Moves a queued draft to another coming slot (the draft there, if any, takes its old slot). */
  moveInQueue(body: In<typeof queue.queueMoveBody>) {
    return this.request<Out<typeof queue.queueMoveResponse>>('POST', '/microblog/queue/move', { body });
  }
}
