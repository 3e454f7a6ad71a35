/**
 * The outbox: one publication per (draft, account) and one part per post of its thread. What the
 * database says survives a crash at any point: `sending` is committed durably (group commit, see
 * db/commits.ts) before a network call and `sent` with the network's id after. `sent` is a
 * relaxed commit: a kill keeps it; a power cut may drop it, leaving the part `sending`, which
 * the runner settles by asking the network (or by the Idempotency-Key), never by a blind resend.
 */
import type { Clock } from '../../core/clock.js';
import { crashPoint } from '../../core/crash.js';
import type { Ids } from '../../core/ids.js';
import { commitsFor, type Commits } from '../commits.js';
import type { Sqlite } from '../connection.js';
import { lazyStatements } from './statements.js';

export type PublicationStatus =
  'pending' | 'publishing' | 'published' | 'failed' | 'needs_review' | 'missed' | 'cancelled' | 'skipped';
export type PartStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface PublicationRow {
  id: string;
  userId: string;
  draftId: string | null;
  accountId: string;
  platform: string;
  status: PublicationStatus;
  attempts: number;
  error: string | null;
  url: string | null;
  data: string | null;
  jobId: string | null;
  options: string;
  origin: string;
  scheduledFor: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PartRow {
  id: string;
  publicationId: string;
  position: number;
  status: PartStatus;
  text: string;
  media: string;
  networkId: string | null;
  networkCid: string | null;
  url: string | null;
  idempotencyKey: string;
  error: string | null;
  sentAt: string | null;
}

const PUB_COLS = `id, user_id AS userId, draft_id AS draftId, account_id AS accountId, platform, status, attempts,
    error, url, data,
  job_id AS jobId, options, origin, scheduled_for AS scheduledFor, published_at AS publishedAt, created_at AS createdAt,
    updated_at AS updatedAt`;
const PART_COLS = `id, publication_id AS publicationId, position, status, text, media, network_id AS networkId,
    network_cid AS networkCid,
  url, idempotency_key AS idempotencyKey, error, sent_at AS sentAt`;

export class OutboxRepo {
  private readonly s;
  readonly commits: Commits;

  constructor(
    private readonly sqlite: Sqlite,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {
    const db = sqlite;
    this.commits = commitsFor(db);
    this.s = lazyStatements({
      // `+user_id`: the draft's (or job's) index, never the user's, which SQLite would otherwise pick
      // and then scan every publication the user ever made (one user owns them all).
      byDraftAccount: () =>
        db.prepare(
          `SELECT ${PUB_COLS} FROM publications WHERE +user_id = ? AND draft_id = ? AND account_id = ? ORDER BY
                        created_at DESC LIMIT 1`,
        ),
      byId: () => db.prepare(`SELECT ${PUB_COLS} FROM publications WHERE id = ?`),
      byDraft: () =>
        db.prepare(`SELECT ${PUB_COLS} FROM publications WHERE +user_id = ? AND draft_id = ? ORDER BY created_at, id`),
      byJob: () =>
        db.prepare(`SELECT ${PUB_COLS} FROM publications WHERE +user_id = ? AND job_id = ? ORDER BY created_at, id`),
      byStatus: () => db.prepare(`SELECT ${PUB_COLS} FROM publications WHERE status = ?`),
      insertPub: () =>
        db.prepare(`INSERT INTO publications (id, user_id, draft_id, account_id, platform, status, attempts, job_id,
                options, origin, scheduled_for, created_at, updated_at)
        VALUES (@id, @userId, @draftId, @accountId, @platform, @status, 0, @jobId, @options, @origin, @scheduledFor,
                @now, @now)`),
      setPub: () =>
        db.prepare(`UPDATE publications SET status = @status, error = @error, url = COALESCE(@url, url), data =
                COALESCE(@data, data),
        published_at = COALESCE(@publishedAt, published_at), updated_at = @now WHERE id = @id`),
      startPub: () =>
        db.prepare(`UPDATE publications SET status = 'publishing', attempts = attempts + 1, error = NULL, job_id =
                COALESCE(@jobId, job_id),
        options = @options, updated_at = @now WHERE id = @id`),
      parts: () => db.prepare(`SELECT ${PART_COLS} FROM publication_parts WHERE publication_id = ? ORDER BY position`),
      deleteUnsentParts: () =>
        db.prepare(`DELETE FROM publication_parts WHERE publication_id = ? AND status IN ('pending', 'failed')`),
      insertPart: () =>
        db.prepare(`INSERT INTO publication_parts (id, publication_id, position, status, text, media, idempotency_key)
        VALUES (@id, @publicationId, @position, 'pending', @text, @media, @idempotencyKey)`),
      partSending: () => db.prepare(`UPDATE publication_parts SET status = 'sending', error = NULL WHERE id = ?`),
      partSent: () =>
        db.prepare(
          `UPDATE publication_parts SET status = 'sent', network_id = @networkId, network_cid = @networkCid, url = @url,
                        sent_at = @now, error = NULL WHERE id = @id`,
        ),
      partFailed: () => db.prepare(`UPDATE publication_parts SET status = 'failed', error = ? WHERE id = ?`),
      partPending: () => db.prepare(`UPDATE publication_parts SET status = 'pending' WHERE id = ?`),
    });
  }

  private now() {
    return new Date(this.clock.now()).toISOString();
  }

  latest(userId: string, draftId: string, accountId: string): PublicationRow | undefined {
    return this.s.byDraftAccount.get(userId, draftId, accountId) as PublicationRow | undefined;
  }
  get(id: string): PublicationRow | undefined {
    return this.s.byId.get(id) as PublicationRow | undefined;
  }
  forDraft(userId: string, draftId: string): PublicationRow[] {
    return this.s.byDraft.all(userId, draftId) as PublicationRow[];
  }
  forJob(userId: string, jobId: string): PublicationRow[] {
    return this.s.byJob.all(userId, jobId) as PublicationRow[];
  }
  withStatus(status: PublicationStatus): PublicationRow[] {
    return this.s.byStatus.all(status) as PublicationRow[];
  }

  create(p: {
    userId: string;
    draftId: string | null;
    accountId: string;
    platform: string;
    jobId: string | null;
    options: string;
    origin: string;
    scheduledFor?: string | null;
    status?: PublicationStatus;
  }): string {
    const id = this.ids.uuid();
    this.s.insertPub.run({
      id,
      status: p.status ?? 'pending',
      scheduledFor: p.scheduledFor ?? null,
      now: this.now(),
      ...p,
    });
    return id;
  }

  start(id: string, jobId: string | null, options: string): void {
    this.s.startPub.run({ id, jobId, options, now: this.now() });
  }

  /**
   * Records how a publication ended. Inside a caller's transaction the crash point `finish` is
   * the caller's to hit, once that transaction has committed.
   */
  finish(
    id: string,
    status: PublicationStatus,
    f: { error?: string | null; url?: string | null; data?: unknown } = {},
  ): void {
    this.s.setPub.run({
      id,
      status,
      error: f.error ?? null,
      url: f.url ?? null,
      data: f.data === undefined ? null : JSON.stringify(f.data),
      publishedAt: status === 'published' ? this.now() : null,
      now: this.now(),
    });
    if (!this.sqlite.inTransaction) crashPoint('finish');
  }

  parts(publicationId: string): PartRow[] {
    return this.s.parts.all(publicationId) as PartRow[];
  }

  /**
   * Lays out the parts to send. Parts already sent (or being sent) are kept as they are: a
   * retry never changes what was published, it only adds what is missing after it.
   */
  planParts(publicationId: string, parts: { text: string; media: unknown[] }[]): PartRow[] {
    const tx = this.sqlite.transaction(() => {
      this.s.deleteUnsentParts.run(publicationId);
      const kept = this.parts(publicationId);
      const taken = new Set(kept.map((p) => p.position));
      parts.forEach((part, position) => {
        if (taken.has(position)) return;
        this.s.insertPart.run({
          id: this.ids.uuid(),
          publicationId,
          position,
          text: part.text,
          media: JSON.stringify(part.media),
          idempotencyKey: this.ids.uuid(),
        });
      });
      crashPoint('plan');
      return this.parts(publicationId);
    });
    return tx();
  }

  /** Resolves once `sending` is on disk (with every other part about to go out this turn). */
  async partSending(id: string): Promise<void> {
    await this.commits.durable(() => {
      this.s.partSending.run(id);
    });
    crashPoint('send');
  }
  /** `alsoWrite`: in the same transaction (the request's usage row, usage.repo.ts). */
  partSent(id: string, ref: { id: string; cid?: string; url: string }, alsoWrite?: () => void): void {
    crashPoint('answered');
    this.commits.relaxed(() => {
      this.s.partSent.run({ id, networkId: ref.id, networkCid: ref.cid ?? null, url: ref.url, now: this.now() });
      alsoWrite?.();
    });
    crashPoint('sent');
  }
  partFailed(id: string, error: string): void {
    this.s.partFailed.run(error, id);
  }
  partPending(id: string): void {
    this.s.partPending.run(id);
  }
}
