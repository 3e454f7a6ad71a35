/**
 * Idempotent writes (docs/decisions.md §10): a POST that creates or publishes may carry an
 * `Idempotency-Key`; per user, for 24 h, the same request gets its first answer again, also after
 * a restart, and another request under the same key is refused.
 *
 * The rules, in one place:
 * - A key is 1-255 visible ASCII characters (0x21-0x7E); anything else is 400 INVALID_INPUT naming
 *   the header. Keys are per user: two users may use the same key.
 * - The request is known by a SHA-256 of method, path (with its query) and body; the body itself
 *   is never stored. Same key, other fingerprint: 422 IDEMPOTENCY_KEY_REUSED, whatever state the
 *   first is in. Same key and fingerprint while the first still runs: 409 IDEMPOTENCY_KEY_IN_USE.
 * - Which answers are kept (`storable`): 2xx, and the 4xx that say the request itself is wrong
 *   (400, 403, 404, 413, 415, 422, ...), because sending it again cannot change them. Not kept, so
 *   the key is free again and a retry really runs: 5xx (Herald's fault, a full disk, a network
 *   that failed: the request did not complete, and the outbox already knows what went out, so a
 *   retry sends only what is missing), 429 (it says "try later"; replaying it would make later
 *   never come), and the 4xx that depend on a state that passes: 401 (key), 402 (credits can be
 *   bought), 408, 409 (a conflict with the current state), 423, 425.
 * - A first request that never finished must not hold its key forever. Its row names its owner
 *   (process id and server instance): when that process is gone (a crash, a kill) or that server
 *   was closed, or the row is older than RUNNING_LEASE_MS (a handler that hung), the next request
 *   with the key takes the row over and runs. A request that loses its row this way stores nothing.
 * - Rows live 24 h from their first request; expired rows count as absent and are purged on the
 *   way in, at most once a minute (one indexed DELETE).
 *
 * Routes marked `idempotent: true`: POST /microblog/drafts, /microblog/drafts/batch,
 * /microblog/media/upload (its digest is a hash of the stored files), /microblog/publish,
 * /publish/multi-platform, /microblog/quote, /skyblog|fedblog|threadblog|problog/publish,
 * /microblog/schedule, /social-sets, /templates. Not marked: /auth/login, /auth/setup and the
 * sign-in flows (no user yet, and keys are per user; setup is one-shot already), /auth/api-keys
 * (its answer is the only copy of a secret key, which Herald never stores in clear: a replay would
 * need it at rest for 24 h), /auth/logout, /publish/review and /backup (repeating them is harmless
 * and they create nothing to duplicate), /credits (a read), /microblog/drafts/split (pure),
 * /<network>/auth (each starts a fresh single-use OAuth flow; connecting an account again updates
 * the same account).
 */
import crypto from 'node:crypto';
import { processUniqueId } from '../../core/ids.js';
import { HeraldError } from '../../core/errors.js';
import type { IdempotencyRepo, IdempotencyRow } from '../../db/repos/idempotency.repo.js';
import type { Deps } from '../deps.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longer than any request should run (a publish with its retries); after it a running row is abandoned. */
export const RUNNING_LEASE_MS = 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Server instances of this process that are open (a row owned by a closed one is abandoned). */
const liveInstances = new Set<string>();

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** A claimed key: the request runs, and its answer is offered to finish(). */
export interface IdempotencyTicket {
  userId: string;
  key: string;
  owner: string;
  createdAt: number;
}

export type IdempotencyStart = { run: IdempotencyTicket } | { replay: StoredAnswer };

/** Whether an answer with this status is kept and replayed (see the file comment). */
export function storable(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  if (status >= 400 && status < 500) return ![401, 402, 408, 409, 423, 425, 429].includes(status);
  return false;
}

export class IdempotencyService {
  // No ':' in it (the owner is split on ':'); a later process that reuses the pid still differs.
  private readonly instance = processUniqueId();
  private readonly owner = `${process.pid}:${this.instance}`;
  private lastPurge = -Infinity;

  constructor(
    private readonly deps: Deps,
    private readonly repo: IdempotencyRepo,
  ) {
    liveInstances.add(this.instance);
  }

  /** The server is closing: rows this instance still holds count as abandoned from now on. */
  close(): void {
    liveInstances.delete(this.instance);
  }

  /** The header's value, checked; absent answers undefined. */
  parseKey(value: string | string[] | undefined): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
      const message = `The ${IDEMPOTENCY_HEADER} header must be 1-255 visible ASCII characters (no spaces), sent once`;
      throw new HeraldError('INVALID_INPUT', message, {
        details: [{ path: `headers.${IDEMPOTENCY_HEADER.toLowerCase()}`, message }],
      });
    }
    return value;
  }

  /** SHA-256 of method, path and a digest of the body. */
  fingerprint(method: string, path: string, bodyDigest: string): string {
    return crypto.createHash('sha256').update(`${method.toUpperCase()}\n${path}\n${bodyDigest}`).digest('hex');
  }

  /** Claims the key for this request, or answers the first answer to replay; throws 409 or 422. */
  start(userId: string, key: string, fingerprint: string): IdempotencyStart {
    const now = this.deps.clock.now();
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      this.repo.purge(now);
    }
    const ticket: IdempotencyTicket = { userId, key, owner: this.owner, createdAt: now };
    const claim = { fingerprint, owner: this.owner, createdAt: now, expiresAt: now + IDEMPOTENCY_TTL_MS };
    return this.repo.claim(
      userId,
      key,
      (row): { replace?: boolean; insert?: typeof claim; result: IdempotencyStart } => {
        if (!row) return { insert: claim, result: { run: ticket } };
        if (row.expiresAt <= now) return { replace: true, insert: claim, result: { run: ticket } };
        if (row.fingerprint !== fingerprint) {
          throw new HeraldError(
            'IDEMPOTENCY_KEY_REUSED',
            `This ${IDEMPOTENCY_HEADER} was used for another request (method, path or body differ) in the ` +
              `last 24 hours; use a new key for a new request`,
          );
        }
        if (row.state === 'done')
          return { result: { replay: { status: row.status!, contentType: row.contentType, body: row.body ?? '' } } };
        if (this.abandoned(row, now)) return { replace: true, insert: claim, result: { run: ticket } };
        throw new HeraldError(
          'IDEMPOTENCY_KEY_IN_USE',
          `A request with this ${IDEMPOTENCY_HEADER} is still running; try again when it has answered`,
        );
      },
    );
  }

  /** The request answered: keeps the answer for replay if storable, else frees the key. */
  finish(ticket: IdempotencyTicket, answer: StoredAnswer): void {
    if (storable(answer.status)) this.repo.complete({ ...ticket, ...answer });
    else this.repo.release(ticket.userId, ticket.key, ticket.owner, ticket.createdAt);
  }

  /** Frees the key without an answer (the request could not be completed). */
  abandon(ticket: IdempotencyTicket): void {
    this.repo.release(ticket.userId, ticket.key, ticket.owner, ticket.createdAt);
  }

  private abandoned(row: IdempotencyRow, now: number): boolean {
    if (now - row.createdAt >= RUNNING_LEASE_MS) return true;
    const [pidText, instance] = row.owner.split(':');
    const pid = Number(pidText);
    if (pid === process.pid) return !liveInstances.has(instance);
    return !processAlive(pid);
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
