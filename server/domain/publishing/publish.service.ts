/**
 * Publish now: resolve the targets, check every network's limits, reserve the whole cost in one
 * transaction (short of it: 402 and nothing is sent), then publish to every target in parallel
 * (strictly in order within a thread, a few at a time per network). Failed targets are
 * refunded; a target already published is skipped unless `force`.
 */
import { EventEmitter } from 'node:events';
import { eq } from 'drizzle-orm';
import type { Platform } from '../../core/config.js';
import type { Deps } from '../deps.js';
import { accounts } from '../../db/schema.js';
import { HeraldError, isStorageFull } from '../../core/errors.js';
import type { PostRef } from '../../platforms/adapter.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import { targetStatusText } from '../../../text/status-text.js';
import type { AccountRow } from '../accounts/accounts.service.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import { toHeraldError } from '../platform-errors.js';
import { PUBLISH_COST, type CreditsService } from '../credits/credits.service.js';
import type { SocialSetsService } from '../social-sets/social-sets.service.js';
import { OutboxRepo, type PublicationRow, type PublicationStatus } from './outbox.repo.js';
import { loadDraft, partsFor, partsFromTexts, withKinds, type PartPlan } from './plan.js';
import { ACCOUNT_COLS, PublicationRunner, type MediaRef, type PublicationOptions, type TargetOutcome } from './runner.js';
import { checkParts } from './limits.js';
import { StorageWaits, type WaitingFor } from './storage-waits.js';
import { crashPoint } from '../../core/crash.js';

export interface TargetRequest {
  accountId: string;
  platform?: Platform;
  communityId?: string;
}

export interface PublishRequest {
  draftId: string;
  accountIds?: string[];
  targetAccounts?: TargetRequest[];
  jobId?: string;
  community?: { id: string; name?: string; description?: string };
  force?: boolean;
  options?: PublicationOptions;
  origin?: 'now' | 'schedule';
}

export interface TargetResult {
  accountId: string;
  platform: Platform;
  success: boolean;
  skipped?: boolean;
  status: PublicationStatus;
  data?: Record<string, unknown>;
  error?: { code: string; message: string };
  /** Set on failures worth another attempt later (network trouble, 5xx, 429). */
  retry?: { after?: number };
}

const PER_NETWORK_CONCURRENCY = 8;

/**
 * A single-account endpoint's error for a failed target: TOKEN_EXPIRED, RATE_LIMITED (with
 * Retry-After until the network's own reset, when it gave one) or PLATFORM_ERROR.
 */
export function targetError(result: TargetResult, now: number): HeraldError {
  const code = result.error?.code === 'TOKEN_EXPIRED' || result.error?.code === 'RATE_LIMITED' ? result.error.code : 'PLATFORM_ERROR';
  const after = code === 'RATE_LIMITED' ? result.retry?.after : undefined;
  return new HeraldError(code, result.error?.message ?? 'Publishing failed', after ? { retryAfter: Math.max(1, Math.ceil((after - now) / 1000)) } : {});
}

/** A draft's status once its targets have ended: all published, some, or none. */
export function draftStatusOf(published: number, targets: number): 'published' | 'partially_published' | 'failed' {
  return published === targets ? 'published' : published > 0 ? 'partially_published' : 'failed';
}

/** The `data` object decisions §5 gives each network. */
export function resultData(platform: Platform, refs: PostRef[]): Record<string, unknown> {
  const first = refs[0];
  switch (platform) {
    case 'microblog': return { tweetId: first.id, url: first.url, tweetIds: refs.map((r) => r.id) };
    case 'skyblog': return { uri: first.id, cid: first.cid, url: first.url, uris: refs.map((r) => r.id) };
    default: return { id: first.id, url: first.url, ids: refs.map((r) => r.id) };
  }
}

function errorBody(err: unknown): { code: string; message: string } {
  // A local write failed, not the network: the scheduler keeps such a post waiting (storage-waits.ts).
  if (isStorageFull(err)) return { code: 'STORAGE_FULL', message: 'Waiting: the disk that holds Herald\'s data folder is full; nothing was sent' };
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
    try { return await fn(); } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

export class PublishService {
  readonly outbox: OutboxRepo;
  readonly runner: PublicationRunner;
  /** Emits `target` with each TargetResult as it settles (desktop notifications, the tray). */
  readonly events = new EventEmitter();
  /** Scheduled posts a full disk holds back (the scheduler fills it, progress reads it). */
  readonly storageWaits = new StorageWaits();
  private readonly gates = new Map<Platform, Semaphore>();
  /** Publications running in this process, so a double click cannot send twice. */
  private readonly running = new Set<string>();
  private readonly stmts;

  constructor(readonly deps: Deps, credentials: CredentialsService, private readonly credits: CreditsService, private readonly sets: SocialSetsService) {
    this.outbox = new OutboxRepo(deps);
    this.runner = new PublicationRunner(deps, this.outbox, credentials);
    this.stmts = {
      latestStatuses: deps.sqlite.prepare(`SELECT p.account_id AS accountId, p.status FROM publications p WHERE p.draft_id = ? AND p.created_at = (
        SELECT MAX(q.created_at) FROM publications q WHERE q.draft_id = p.draft_id AND q.account_id = p.account_id)`),
      setDraftStatus: deps.sqlite.prepare('UPDATE drafts SET status = ?, updated_at = ? WHERE id = ?'),
      // One statement for every target (a schedule request may name dozens of accounts).
      accounts: deps.sqlite.prepare(`SELECT ${ACCOUNT_COLS} FROM accounts WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`),
      setDraftPublishing: deps.sqlite.prepare("UPDATE drafts SET status = 'publishing', updated_at = ? WHERE id = ?"),
      activeEntry: deps.sqlite.prepare("SELECT 1 FROM schedule_entries WHERE draft_id = ? AND account_id = ? AND status IN ('pending', 'claimed') LIMIT 1"),
      deletePub: deps.sqlite.prepare('DELETE FROM publications WHERE id = ?'),
      draftRescheduled: deps.sqlite.prepare("UPDATE drafts SET status = 'scheduled', updated_at = ? WHERE id = ? AND status = 'publishing'"),
    };
  }

  private gate(platform: Platform): Semaphore {
    let g = this.gates.get(platform);
    if (!g) this.gates.set(platform, (g = new Semaphore(PER_NETWORK_CONCURRENCY)));
    return g;
  }

  /** Targets: explicit list, else account ids, else the draft's selection, else its set. */
  resolveTargets(userId: string, draft: { selectedAccountIds: string[]; socialSetId: string | null }, req: Pick<PublishRequest, 'accountIds' | 'targetAccounts'>): { account: AccountRow; communityId?: string }[] {
    let wanted: TargetRequest[];
    if (req.targetAccounts?.length) wanted = req.targetAccounts;
    else if (req.accountIds?.length) wanted = req.accountIds.map((accountId) => ({ accountId }));
    else if (draft.selectedAccountIds.length) wanted = draft.selectedAccountIds.map((accountId) => ({ accountId }));
    else if (draft.socialSetId) wanted = this.sets.get(userId, draft.socialSetId).accounts.map((a) => ({ accountId: a.accountId }));
    else wanted = [];
    if (wanted.length === 0) throw new HeraldError('INVALID_INPUT', 'No target accounts: pass accountIds or targetAccounts, or put accounts in the draft\'s social set');
    const byId = new Map<string, TargetRequest>();
    for (const w of wanted) if (!byId.has(w.accountId)) byId.set(w.accountId, w);
    const rows = new Map((this.stmts.accounts.all(userId, JSON.stringify([...byId.keys()])) as AccountRow[]).map((r) => [r.id, r]));
    return [...byId.values()].map((w) => {
      const id = w.accountId;
      const row = rows.get(id);
      if (!row) throw new HeraldError('NOT_FOUND', `Account ${id} not found`);
      if (w.platform && w.platform !== row.platform) {
        throw new HeraldError('INVALID_INPUT', `Account ${id} is a ${row.platform} account, not ${w.platform}`, { details: [{ path: 'targetAccounts', message: 'platform does not match the account' }] });
      }
      return { account: row, communityId: w.communityId };
    });
  }

  /**
   * Plans and charges: one transaction that either reserves every target's credits and lays out
   * its parts, or changes nothing.
   */
  prepare(userId: string, draftId: string | null, targets: { account: AccountRow; parts: PartPlan[]; options: PublicationOptions }[], f: { jobId: string | null; force: boolean; origin: string; cost?: number }) {
    // The month's grant is written (and remembered) outside the reservation, so a refused
    // reservation cannot roll back a grant the credits service believes is there.
    this.credits.ensureGrant(userId);
    // Relaxed (db/commits.ts): nothing has been sent yet, and the durable commit of the first
    // part's `sending` mark, before any network call, makes this one durable with it. A kill
    // keeps it; a power cut before that commit loses it whole: nothing sent, nothing charged.
    return this.outbox.commits.relaxed(() => {
      const skipped: { target: (typeof targets)[number]; pub: PublicationRow }[] = [];
      const toRun: { target: (typeof targets)[number]; pubId: string }[] = [];
      const charged: { account: AccountRow; pubId: string }[] = [];
      for (const t of targets) {
        const latest = draftId ? this.outbox.latest(userId, draftId, t.account.id) : undefined;
        if (latest && (this.running.has(latest.id) || latest.status === 'publishing')) {
          if (this.running.has(latest.id)) throw new HeraldError('INVALID_INPUT', `The draft is already being published to @${t.account.username}`);
        }
        if (latest?.status === 'published' && !f.force) {
          skipped.push({ target: t, pub: latest });
          continue;
        }
        // needs_review stays on hold until the user decides: only `force` starts it over.
        if (latest?.status === 'needs_review' && !f.force) {
          throw new HeraldError('INVALID_INPUT', `Publishing to @${t.account.username} is waiting for you to confirm whether an earlier post went out; check the account, then publish with force`);
        }
        const reuse = latest && latest.status !== 'published' && !(f.force && latest.status === 'needs_review');
        const pubId = reuse ? latest.id : this.outbox.create({ userId, draftId, accountId: t.account.id, platform: t.account.platform, jobId: f.jobId, options: '{}', origin: f.origin });
        // A publication left `publishing` by a crash was paid for when it started.
        if (!(reuse && latest.status === 'publishing')) charged.push({ account: t.account, pubId });
        this.outbox.start(pubId, f.jobId, JSON.stringify(t.options));
        this.outbox.planParts(pubId, t.parts);
        toRun.push({ target: t, pubId });
      }
      if (charged.length > 0) {
        // The whole cost is checked at once (one clear answer when short), then one `publish`
        // record per target, as each failed target gets its own `refund`.
        const each = f.cost ?? PUBLISH_COST;
        this.assertCredits(userId, charged.length, each);
        for (const c of charged) {
          this.credits.charge(userId, each, { orderNo: f.jobId ?? c.pubId, sourceType: c.account.platform, sourceDetail: `Publish to @${c.account.username}`.slice(0, 300) });
        }
      }
      if (toRun.length > 0) {
        if (draftId) this.stmts.setDraftPublishing.run(new Date(this.deps.clock.now()).toISOString(), draftId);
      }
      return { skipped, toRun };
    });
  }

  /** Throws INSUFFICIENT_CREDITS unless `targets` publishes could be paid now (the charge itself is in `prepare`). */
  assertCredits(userId: string, targets: number, cost = PUBLISH_COST): void {
    const { balance } = this.credits.balance(userId);
    if (balance < cost * targets) {
      throw new HeraldError('INSUFFICIENT_CREDITS', `Publishing to ${targets === 1 ? '1 account' : `${targets} accounts`} needs ${cost * targets} credits and ${balance} are left; nothing was sent`);
    }
  }

  /** Runs prepared publications and settles credits and statuses. */
  async execute(userId: string, draftId: string | null, toRun: { target: { account: AccountRow }; pubId: string }[], cost = PUBLISH_COST): Promise<TargetResult[]> {
    const results = await Promise.all(toRun.map(async ({ target, pubId }) => {
      this.running.add(pubId);
      try {
        const pub = this.outbox.get(pubId)!;
        const outcome: TargetOutcome = await this.gate(target.account.platform as Platform).run(() => this.runner.run(pub));
        const result = this.settle(userId, target.account, pubId, outcome, cost);
        this.events.emit('target', result);
        return result;
      } finally {
        this.running.delete(pubId);
      }
    }));
    if (draftId) this.updateDraftStatus(draftId);
    return results;
  }

  /**
   * Records the outcome (and the refund of a failed target) in one relaxed transaction: the
   * network has answered, so a power cut that drops it leaves the publication `publishing` with
   * its part `sending` or `sent`, which the next start resumes by asking the network, never by
   * sending blindly (runner.ts). A kill keeps it.
   */
  private settle(userId: string, account: AccountRow, pubId: string, outcome: TargetOutcome, cost: number): TargetResult {
    const platform = account.platform as Platform;
    let result: TargetResult;
    if (outcome.status === 'published') {
      const data = resultData(platform, outcome.refs);
      this.outbox.commits.relaxed(() => this.outbox.finish(pubId, 'published', { url: outcome.refs[0].url, data }));
      result = { accountId: account.id, platform, success: true, status: 'published', data };
    } else if (outcome.status === 'needs_review') {
      this.outbox.commits.relaxed(() => this.outbox.finish(pubId, 'needs_review', { error: outcome.reason }));
      result = { accountId: account.id, platform, success: false, status: 'needs_review', error: { code: 'PLATFORM_ERROR', message: outcome.reason } };
    } else {
      const error = errorBody(outcome.error);
      if (error.code === 'INTERNAL_ERROR') this.deps.log.error('Herald publishing failed', outcome.error);
      const pe = outcome.error instanceof PlatformError ? outcome.error : undefined;
      const retry = pe?.retryable ? { after: pe.resetAt } : undefined;
      this.outbox.commits.relaxed(() => {
        this.outbox.finish(pubId, 'failed', { error: error.message, data: { error } });
        this.credits.refund(userId, cost, { orderNo: pubId, sourceType: platform, sourceDetail: `Refund: ${error.message}`.slice(0, 300) });
      });
      result = { accountId: account.id, platform, success: false, status: 'failed', error, retry };
    }
    crashPoint('finish');
    return result;
  }

  /** The draft's status from its publications' (relaxed: it follows from them, see settle()). */
  updateDraftStatus(draftId: string): void {
    const latest = this.latestPublications(draftId);
    if (latest.size === 0) return;
    if ([...latest.values()].includes('publishing')) return;
    const published = [...latest.values()].filter((st) => st === 'published').length;
    const status = draftStatusOf(published, latest.size);
    this.outbox.commits.relaxed(() => this.stmts.setDraftStatus.run(status, new Date(this.deps.clock.now()).toISOString(), draftId));
  }

  /** Each account's latest publication of the draft: its status, by account id. */
  latestPublications(draftId: string): Map<string, PublicationStatus> {
    const rows = this.stmts.latestStatuses.all(draftId) as { accountId: string; status: PublicationStatus }[];
    return new Map(rows.map((r) => [r.accountId, r.status]));
  }

  /**
   * Publications a crash left `publishing` (none of them running in this process): resumed from
   * their first unsent part, with `sending` parts reconciled, never re-charged.
   */
  async resumeInterrupted(): Promise<TargetResult[]> {
    const stuck = this.outbox.withStatus('publishing').filter((p) => !this.running.has(p.id));
    const results: TargetResult[] = [];
    for (const pub of stuck) {
      // Taken over while earlier ones ran (a publish of the same draft): never run it twice.
      if (this.running.has(pub.id) || this.outbox.get(pub.id)?.status !== 'publishing') continue;
      if (this.giveBack(pub)) continue;
      const account = this.deps.db.select().from(accounts).where(eq(accounts.id, pub.accountId)).get();
      if (!account) {
        this.outbox.finish(pub.id, 'failed', { error: 'The account was removed from Herald' });
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
  private giveBack(pub: PublicationRow): boolean {
    if (pub.origin !== 'schedule' || !pub.draftId) return false;
    if (!this.stmts.activeEntry.get(pub.draftId, pub.accountId)) return false;
    if (this.outbox.parts(pub.id).some((p) => p.status === 'sent' || p.status === 'sending')) return false;
    this.deps.sqlite.transaction(() => {
      this.credits.refund(pub.userId, PUBLISH_COST, { orderNo: pub.id, sourceType: pub.platform, sourceDetail: 'Refund: stopped before anything was sent; its schedule fires it again' });
      // A first attempt leaves no trace (as if it had not fallen due yet); a retry keeps its history.
      if (pub.attempts <= 1) this.stmts.deletePub.run(pub.id);
      else this.outbox.finish(pub.id, 'failed', { error: 'Stopped before anything was sent; its schedule fires it again' });
      // Begun, the draft said `publishing`: with its post back in the queue it is scheduled again.
      this.stmts.draftRescheduled.run(new Date(this.deps.clock.now()).toISOString(), pub.draftId);
    })();
    return true;
  }

  /**
   * A scheduled post refused before anything was begun (credits short, the draft past a limit):
   * kept as a failed publication with the spec's code, so progress and history show it with its
   * reason instead of the entry vanishing. Nothing is charged (nothing was). An account no
   * longer in Herald keeps only its failed schedule entry, which progress shows.
   */
  recordRefusal(userId: string, draftId: string, accountId: string, platform: Platform, error: { code: string; message: string }): void {
    const exists = this.stmts.accounts.all(userId, JSON.stringify([accountId])).length > 0;
    if (!exists) return;
    this.outbox.commits.relaxed(() => {
      const id = this.outbox.create({ userId, draftId, accountId, platform, jobId: null, options: '{}', origin: 'schedule', status: 'failed' });
      this.outbox.finish(id, 'failed', { error: error.message, data: { error } });
    });
  }

  /** POST /threadblog/publish and /problog/publish with a draftId: one account, single-network answer. */
  async publishDraftTo(userId: string, draftId: string, accountId: string, platform: Platform, options: PublicationOptions) {
    const r = await this.publishDraft(userId, { draftId, targetAccounts: [{ accountId, platform }], options });
    const result = r.results[0];
    if (!result.success) throw targetError(result, Date.now());
    return { success: true, platform, accountId, data: result.data ?? {} };
  }

  /** Progress of a draft or job: the latest publication per account, plus pending schedule entries. */
  progress(userId: string, q: { draftId?: string; jobId?: string }) {
    if (q.draftId) loadDraft(this.deps, userId, q.draftId);
    const pubs = q.draftId ? this.outbox.forDraft(userId, q.draftId) : this.outbox.forJob(userId, q.jobId!);
    const latest = new Map<string, PublicationRow>();
    for (const p of pubs) latest.set(`${p.draftId}:${p.accountId}`, p);
    const entries: ProgressEntry[] = [...latest.values()].map((p) => ({
      id: p.id, draftId: p.draftId, status: p.status, platform: p.platform as Platform, accountUuid: p.accountId,
      scheduledFor: p.scheduledFor, publishedAt: p.publishedAt, url: p.url, error: p.error, attempts: p.attempts,
      waitingFor: null as WaitingFor | null, nextAttemptAt: null as string | null,
      errorCode: errorCodeOf(p),
    }));
    const retryAt = new Map<string, number>();
    if (q.draftId) {
      // Claimed entries are pending to the person: being fired, or held back by a full disk.
      const pending = this.deps.sqlite.prepare(`SELECT id, draft_id AS draftId, account_id AS accountId, platform, fire_at AS fireAt, due_at AS dueAt, attempts, status,
          last_error AS lastError, next_attempt_at AS nextAttemptAt, waiting_for AS waitingFor
        FROM schedule_entries WHERE user_id = ? AND draft_id = ? AND status IN ('pending', 'claimed', 'missed', 'failed', 'needs_review') ORDER BY created_at, rowid`).all(userId, q.draftId) as {
          id: string; draftId: string; accountId: string; platform: Platform; fireAt: number; dueAt: number; attempts: number;
          status: 'pending' | 'claimed' | 'missed' | 'failed' | 'needs_review'; lastError: string | null; nextAttemptAt: number | null; waitingFor: WaitingFor | null }[];
      const now = this.deps.clock.now();
      // Oldest first: an entry scheduled again after one was missed stands for its account.
      for (const e of pending) {
        const key = `${e.draftId}:${e.accountId}`;
        const pub = latest.get(key);
        if (pub && (pub.status === 'published' || pub.status === 'publishing')) continue;
        // An entry that ended (failed, held) stands only where no publication tells its story:
        // refused before it began, or its account gone.
        if ((e.status === 'failed' || e.status === 'needs_review') && pub) continue;
        const status = e.status === 'claimed' ? 'pending' : e.status;
        const wait = status === 'pending' ? this.waitOf(e, now) : undefined;
        if (wait) retryAt.set(key, wait.nextAttemptAt);
        const entry: ProgressEntry = {
          id: e.id, draftId: e.draftId, status, platform: e.platform, accountUuid: e.accountId, scheduledFor: new Date(e.fireAt).toISOString(),
          publishedAt: null, url: null, error: e.lastError, attempts: e.attempts, errorCode: null,
          waitingFor: wait?.waitingFor ?? null, nextAttemptAt: wait ? new Date(wait.nextAttemptAt).toISOString() : null,
        };
        const at = entries.findIndex((x) => `${x.draftId}:${x.accountUuid}` === key);
        if (at >= 0) entries[at] = entry; else entries.push(entry);
      }
    }
    for (const e of entries) {
      const at = retryAt.get(`${e.draftId}:${e.accountUuid}`);
      e.statusText = targetStatusText({
        status: e.status, network: NETWORK_NAMES[e.platform], reason: e.error, errorCode: e.errorCode,
        nextAttemptAt: at === undefined ? null : new Date(at).toISOString(), scheduledFor: e.status === 'pending' ? e.scheduledFor : null,
      }).text;
    }
    const count = (...st: string[]) => entries.filter((e) => st.includes(e.status)).length;
    return {
      entries,
      summary: { total: entries.length, completed: count('published'), failed: count('failed', 'missed', 'needs_review'), pending: count('pending', 'publishing') },
    };
  }

  /**
   * What a pending entry waits for: a full disk this process saw (which the database may not have
   * been able to record yet), else what the scheduler recorded; a retry recorded before the
   * column existed waited for the network.
   */
  private waitOf(e: { id: string; dueAt: number; attempts: number; nextAttemptAt: number | null; waitingFor: WaitingFor | null }, now: number) {
    const mem = this.storageWaits.of(e.id, e.dueAt, now);
    if (mem) return mem;
    if (e.nextAttemptAt === null) return undefined;
    const waitingFor = e.waitingFor ?? (e.attempts > 0 ? 'network' : null);
    return waitingFor ? { waitingFor, nextAttemptAt: e.nextAttemptAt } : undefined;
  }

  /** Recent publications, newest first, with what went wrong in words. */
  /**
   * Recent publications, newest first, with what went wrong in words, the automatic retry queued
   * for it if any (then it offers no Retry), and entries missed while Herald was closed (which
   * never became publications).
   */
  history(userId: string, q: { limit: number; status?: string }) {
    const rows = this.deps.sqlite.prepare(`SELECT * FROM (
      SELECT p.id, p.draft_id AS draftId, d.title AS draftTitle, p.account_id AS accountId, a.username, p.platform, p.status,
        p.error, p.url, p.attempts, p.published_at AS publishedAt, p.updated_at AS updatedAt, p.data,
        (SELECT MIN(e.next_attempt_at) FROM schedule_entries e WHERE e.draft_id = p.draft_id AND e.account_id = p.account_id
          AND e.status = 'pending' AND e.next_attempt_at IS NOT NULL) AS nextAttemptAt
      FROM publications p LEFT JOIN drafts d ON d.id = p.draft_id LEFT JOIN accounts a ON a.id = p.account_id
      WHERE p.user_id = @userId AND (@status IS NULL OR p.status = @status)
      UNION ALL
      SELECT e.id, e.draft_id, d.title, e.account_id, a.username, e.platform, e.status, e.last_error, NULL, e.attempts, NULL,
        strftime('%Y-%m-%dT%H:%M:%fZ', e.due_at / 1000.0, 'unixepoch'), NULL, NULL
      FROM schedule_entries e LEFT JOIN drafts d ON d.id = e.draft_id LEFT JOIN accounts a ON a.id = e.account_id
      WHERE e.user_id = @userId AND e.status = 'missed' AND (@status IS NULL OR @status = 'missed')
    ) ORDER BY updatedAt DESC, id LIMIT @limit`).all({ userId, status: q.status ?? null, limit: q.limit }) as (HistoryRow & { data: string | null; nextAttemptAt: number | null })[];
    return rows.map(({ data, nextAttemptAt, ...r }) => {
      const errorCode = errorCodeOf({ status: r.status, data });
      const next = nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString();
      const s = targetStatusText({ status: r.status, network: NETWORK_NAMES[r.platform], reason: r.error, errorCode, nextAttemptAt: next });
      return { ...r, errorCode, nextAttemptAt: next, statusText: s.text, canRetry: s.canRetry && r.draftId !== null };
    });
  }

  /**
   * The user's answer for a publication held as `needs_review`: the post did go out (mark it
   * published), or it did not (the unconfirmed part may be sent again on the next publish).
   */
  resolveReview(userId: string, publicationId: string, outcome: 'published' | 'not_published'): void {
    const pub = this.outbox.get(publicationId);
    if (!pub || pub.userId !== userId) throw new HeraldError('NOT_FOUND', 'Publication not found');
    if (pub.status !== 'needs_review') throw new HeraldError('INVALID_INPUT', `This publication is ${pub.status}, not waiting for review`);
    this.deps.sqlite.transaction(() => {
      const parts = this.outbox.parts(pub.id);
      if (outcome === 'published') {
        this.outbox.finish(pub.id, 'published', { error: null, url: parts.find((p) => p.url)?.url ?? null });
      } else {
        for (const p of parts) if (p.status === 'sending') this.outbox.partPending(p.id);
        this.outbox.finish(pub.id, 'failed', { error: 'Not published (confirmed by you); publish again to send it' });
        // Like any failed target it is refunded: publishing it again charges it again.
        this.credits.refund(userId, PUBLISH_COST, { orderNo: pub.id, sourceType: pub.platform, sourceDetail: 'Refund: not published (confirmed by you)' });
      }
    })();
    if (pub.draftId) this.updateDraftStatus(pub.draftId);
  }

  /** POST /microblog/publish and /publish/multi-platform. */
  async publishDraft(userId: string, req: PublishRequest, background = false) {
    const started = this.begin(userId, req);
    if (background) {
      this.run(started).catch((err) => this.deps.log.error('Herald background publish failed', err));
      return { jobId: started.jobId, draftId: started.draftId, results: started.skipped, pending: started.toRun.length };
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
   * (prepare); nothing is sent. Its publications are this process's until run() or release(),
   * so nothing else (a publish-now, a resumption) takes them over meanwhile. The scheduler
   * begins every claimed entry at once and runs them in order per account.
   */
  begin(userId: string, req: PublishRequest): Started {
    const draft = loadDraft(this.deps, userId, req.draftId);
    const targets = this.resolveTargets(userId, draft, req).map(({ account, communityId }) => {
      const platform = account.platform as Platform;
      const options: PublicationOptions = { ...req.options };
      if (platform === 'microblog') {
        const community = communityId ?? req.community?.id;
        if (community) options.communityId = community;
      }
      return { account, parts: partsFor(platform, draft), options };
    });
    checkParts(targets);
    const jobId = req.jobId ?? this.deps.ids.uuid();
    const { skipped, toRun } = this.prepare(userId, draft.id, targets, { jobId, force: req.force ?? false, origin: req.origin ?? 'now' });
    const skippedResults: TargetResult[] = skipped.map(({ target, pub }) => ({
      accountId: target.account.id, platform: target.account.platform as Platform, success: true, skipped: true, status: 'published',
      data: pub.data ? (JSON.parse(pub.data) as Record<string, unknown>) : undefined,
    }));
    for (const r of toRun) this.running.add(r.pubId);
    return { userId, req, jobId, draftId: draft.id, skipped: skippedResults, toRun };
  }

  /** A begun publish's second half: sends to every target and settles them. */
  async run(started: Started): Promise<PublishOutcome> {
    const { userId, req, jobId, draftId, toRun } = started;
    this.release(started);
    // Settled meanwhile by something else (begin() keeps that from happening here): start over,
    // so it is planned and charged as it stands now.
    if (toRun.some((r) => this.outbox.get(r.pubId)?.status !== 'publishing')) return this.run(this.begin(userId, req));
    const results = [...started.skipped, ...(await this.execute(userId, draftId, toRun))];
    const succeeded = results.filter((r) => r.success).length;
    return {
      success: succeeded === results.length,
      jobId, draftId, results,
      summary: { total: results.length, succeeded, failed: results.length - succeeded },
    };
  }

  /** Gives up a begun publish without running it (the scheduler stopping): the next start resumes or gives it back. */
  release(started: Started): void {
    for (const r of started.toRun) this.running.delete(r.pubId);
  }
}

interface HistoryRow { id: string; draftId: string | null; draftTitle: string | null; accountId: string; username: string | null; platform: Platform; status: PublicationStatus; error: string | null; url: string | null; attempts: number; publishedAt: string | null; updatedAt: string }

export interface ProgressEntry {
  id: string; draftId: string | null; status: PublicationStatus; platform: Platform; accountUuid: string; scheduledFor: string | null;
  publishedAt: string | null; url: string | null; error: string | null; attempts: number; errorCode: string | null; statusText?: string;
  waitingFor: WaitingFor | null; nextAttemptAt: string | null;
}

/** The spec's code of a failure recorded with one (recordRefusal keeps it in `data`). */
function errorCodeOf(p: { status: string; data: string | null }): string | null {
  if (p.status !== 'failed' || !p.data) return null;
  try {
    const code = (JSON.parse(p.data) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

export interface PublishOutcome {
  success: boolean;
  jobId: string;
  draftId: string;
  results: TargetResult[];
  summary: { total: number; succeeded: number; failed: number };
}

/** A publish begun (planned and charged), not yet sent: see PublishService.begin(). */
export interface Started {
  userId: string;
  req: PublishRequest;
  jobId: string;
  draftId: string;
  skipped: TargetResult[];
  toRun: { target: { account: AccountRow }; pubId: string }[];
}

export interface DirectPublish {
  platform: Platform;
  accountId: string;
  texts: string[];
  media: MediaRef[];
  options: PublicationOptions;
}

/**
 * Single-network endpoints and quotes: text given directly, no draft. Media given by URL is
 * fetched only once the text fits and the credits are there, so a refused request reaches no one.
 */
export async function publishDirect(service: PublishService, userId: string, req: DirectPublish, byUrl?: { urls: string[]; load: (urls: string[]) => Promise<MediaRef[]> }) {
  const [{ account }] = service.resolveTargets(userId, { selectedAccountIds: [], socialSetId: null }, { targetAccounts: [{ accountId: req.accountId, platform: req.platform }] });
  let given = req.media;
  if (byUrl && byUrl.urls.length > 0) {
    // The URLs stand for their media (kind guessed from the name) until they are fetched.
    checkParts([{ account, parts: partsFromTexts(req.platform, req.texts, [...given, ...byUrl.urls.map((url) => ({ url }))]) }]);
    service.assertCredits(userId, 1);
    given = [...given, ...(await byUrl.load(byUrl.urls))];
  }
  const media = given.map(withKinds(service.deps, userId, given));
  const target = { account, parts: partsFromTexts(req.platform, req.texts, media), options: req.options };
  checkParts([target]);
  const { toRun } = service.prepare(userId, null, [target], { jobId: null, force: true, origin: 'api' });
  const [result] = await service.execute(userId, null, toRun);
  return result;
}
