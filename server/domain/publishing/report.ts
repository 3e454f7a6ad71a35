/**
 * Report: where each target of a draft (or job) stands, and the history of publications, each
 * with what went wrong and what happens next in the words of text/status-text.ts.
 */
import { isProcessing } from './processing-waits.js';
import type { Platform } from '../../core/config.js';
import type { PartStatus, PublicationRow, PublicationStatus } from '../../db/repos/outbox.repo.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { HistoryFilter } from '../../db/repos/publications.repo.js';
import type { WaitingFor } from '../../db/repos/schedule.repo.js';
import { NETWORK_NAMES } from '../../platforms/errors.js';
import { partsTally, targetStatusText } from '../../../text/status-text.js';
import type { Deps } from '../deps.js';
import { loadDraft } from './plan.js';
import type { StorageWaits } from './storage-waits.js';

export interface ProgressEntry {
  id: string;
  draftId: string | null;
  status: PublicationStatus | 'handed_off';
  platform: Platform;
  accountUuid: string;
  scheduledFor: string | null;
  publishedAt: string | null;
  url: string | null;
  error: string | null;
  attempts: number;
  errorCode: string | null;
  statusText?: string;
  waitingFor: WaitingFor | null;
  nextAttemptAt: string | null;
  networkScheduledId?: string | null;
  handedOffTo?: string | null;
  handOffNote?: string | null;
  parts?: ThreadPart[];
}

export interface ThreadPart {
  position: number;
  status: PartStatus | 'unconfirmed';
  url: string | null;
  sentAs: 'post' | 'reply' | 'comment';
}

const hostOf = (url: string | null | undefined) => {
  try {
    return url ? new URL(url).host : null;
  } catch {
    return null;
  }
};

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

export class PublishReports {
  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    private readonly storageWaits: StorageWaits,
  ) {}

  /** Progress of a draft or job: the latest publication per account, plus pending schedule entries. */
  progress(userId: string, q: { draftId?: string; jobId?: string }) {
    const { outbox } = this.repos;
    if (q.draftId) loadDraft(this.repos.publishInputs, userId, q.draftId);
    const pubs = q.draftId ? outbox.forDraft(userId, q.draftId) : outbox.forJob(userId, q.jobId!);
    const latest = new Map<string, PublicationRow>();
    for (const p of pubs) latest.set(`${p.draftId}:${p.accountId}`, p);
    const entries: ProgressEntry[] = [...latest.values()].map((p) => ({
      id: p.id,
      draftId: p.draftId,
      status: p.status,
      platform: p.platform as Platform,
      accountUuid: p.accountId,
      scheduledFor: p.scheduledFor,
      publishedAt: p.publishedAt,
      url: p.url,
      error: p.error,
      attempts: p.attempts,
      // Being sent while the network processes its video.
      waitingFor: (p.status === 'publishing' && isProcessing(p.id) ? 'processing' : null) as WaitingFor | null,
      nextAttemptAt: null as string | null,
      errorCode: errorCodeOf(p),
    }));
    // A thread's parts stand for its account also when a schedule entry replaces the publication below.
    const threads = new Map<string, ThreadPart[]>();
    for (const p of latest.values()) {
      const parts = outbox.parts(p.id);
      if (parts.length < 2) continue;
      threads.set(
        `${p.draftId}:${p.accountId}`,
        parts.map((x) => ({
          position: x.position,
          // Left `sending` by an attempt that ended: the next attempt asks the network before sending it again.
          status: x.status === 'sending' && p.status !== 'publishing' ? 'unconfirmed' : x.status,
          url: x.url,
          // LinkedIn has no threads: its later parts are comments on the post.
          sentAs: x.position === 0 ? 'post' : p.platform === 'problog' ? 'comment' : 'reply',
        })),
      );
    }
    const retryAt = new Map<string, number>();
    if (q.draftId) {
      // Claimed entries are pending to the person: being fired, or held back by a full disk.
      const pending = this.repos.schedule.forProgress(userId, q.draftId);
      const now = this.deps.clock.now();
      // Oldest first: an entry scheduled again after one was missed stands for its account.
      for (const e of pending) {
        const key = `${e.draftId}:${e.accountId}`;
        const pub = latest.get(key);
        if (pub && (pub.status === 'published' || pub.status === 'publishing')) continue;
        // An entry that ended (failed, held) stands only where no publication tells its story:
        // refused before it began, or its account gone.
        if ((e.status === 'failed' || e.status === 'needs_review') && pub) continue;
        // Handed off (docs/decisions.md §14): the network holds it until its time; firing it confirms it.
        const status =
          e.status === 'claimed' ? 'pending' : e.status === 'pending' && e.networkScheduledId ? 'handed_off' : e.status;
        const wait = status === 'pending' ? this.waitOf(e, now) : undefined;
        if (wait) retryAt.set(key, wait.nextAttemptAt);
        const entry: ProgressEntry = {
          id: e.id,
          draftId: e.draftId,
          status,
          platform: e.platform,
          accountUuid: e.accountId,
          scheduledFor: new Date(e.fireAt).toISOString(),
          publishedAt: null,
          url: null,
          error: e.lastError,
          attempts: e.attempts,
          errorCode: null,
          waitingFor: wait?.waitingFor ?? null,
          nextAttemptAt: wait ? new Date(wait.nextAttemptAt).toISOString() : null,
          networkScheduledId: e.networkScheduledId,
          handOffNote: e.handOffNote,
          handedOffTo: e.networkScheduledId ? hostOf(this.repos.publishInputs.account(e.accountId)?.serverUrl) : null,
        };
        const at = entries.findIndex((x) => `${x.draftId}:${x.accountUuid}` === key);
        if (at >= 0) entries[at] = entry;
        else entries.push(entry);
      }
    }
    for (const e of entries) {
      const key = `${e.draftId}:${e.accountUuid}`;
      const at = retryAt.get(key);
      e.parts = threads.get(key);
      e.statusText = targetStatusText({
        status: e.status,
        network: NETWORK_NAMES[e.platform],
        reason: e.error,
        errorCode: e.errorCode,
        nextAttemptAt: at === undefined ? null : new Date(at).toISOString(),
        scheduledFor: e.status === 'pending' || e.status === 'handed_off' ? e.scheduledFor : null,
        instance: e.handedOffTo,
        notice: e.handOffNote,
        parts: e.parts && partsTally(e.parts),
      }).text;
    }
    const count = (...st: string[]) => entries.filter((e) => st.includes(e.status)).length;
    return {
      entries,
      summary: {
        total: entries.length,
        completed: count('published'),
        failed: count('failed', 'missed', 'needs_review'),
        pending: count('pending', 'handed_off', 'publishing'),
      },
    };
  }

  /**
   * What a pending entry waits for: a full disk this process saw (which the database may not have
   * been able to record yet), else what the scheduler recorded; a retry recorded before the
   * column existed waited for the network.
   */
  private waitOf(
    e: { id: string; dueAt: number; attempts: number; nextAttemptAt: number | null; waitingFor: WaitingFor | null },
    now: number,
  ) {
    const mem = this.storageWaits.of(e.id, e.dueAt, now);
    if (mem) return mem;
    if (e.nextAttemptAt === null) return undefined;
    const waitingFor = e.waitingFor ?? (e.attempts > 0 ? 'network' : null);
    return waitingFor ? { waitingFor, nextAttemptAt: e.nextAttemptAt } : undefined;
  }

  /**
   * Recent publications, newest first, with what went wrong in words, the automatic retry queued
   * for it if any (then it offers no Retry), and entries missed while Herald was closed (which
   * never became publications).
   */
  history(userId: string, q: HistoryFilter) {
    // Stored instants are ISO strings in UTC: bounds with an offset are compared as the same.
    const utc = (iso: string | undefined) => (iso === undefined ? undefined : new Date(Date.parse(iso)).toISOString());
    const rows = this.repos.publications.history(userId, { ...q, from: utc(q.from), to: utc(q.to) });
    return rows.map(({ data, nextAttemptAt, partsSent, partsTotal, origin, ...r }) => {
      const parts = partsTotal > 1 ? { sent: partsSent, total: partsTotal } : null;
      const errorCode = errorCodeOf({ status: r.status, data });
      const next = nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString();
      const s = targetStatusText({
        status: r.status,
        network: NETWORK_NAMES[r.platform as Platform],
        reason: r.error,
        errorCode,
        nextAttemptAt: next,
        parts,
      });
      const canRetry = s.canRetry && r.draftId !== null;
      // A publication keeps its row when its draft is deleted (the draft's id is set to null): it
      // was not a direct post, and says so.
      const draftDeleted = r.draftId === null && origin !== 'api';
      return { ...r, errorCode, nextAttemptAt: next, statusText: s.text, canRetry, parts, draftDeleted };
    });
  }
}
