/**
 * Hand-off (docs/decisions.md §14, "Mastodon hand-off"): a scheduled post due 10 minutes or more ahead,
 * on a network that can schedule posts itself (the adapter's optional `schedulePost`; Mastodon's
 * scheduled statuses), is created there with its time, so the network publishes it although
 * Herald is closed or the machine asleep. Its entry stays in Herald's queue, `handed_off` with
 * the network's id; when it falls due the scheduled runner confirms it instead of sending
 * (publishing/hand-off-confirm.ts), and marks it published with its URL.
 *
 * - Single posts only: a thread's later posts answer a post that does not exist until the first
 *   one is published, which the network cannot schedule; threads fire locally, and say so.
 * - Moved in Herald (scheduled again, or the queue reordered): the network's copy is moved
 *   (reschedulePost); moved to less than 10 minutes ahead, it is withdrawn and fires locally.
 * - Cancelled in Herald: withdrawn from the network (unschedulePost), from a table of
 *   withdrawals written with the cancel and tried until the network confirms.
 * - Refused (4xx, 5xx, no such API, the account's credentials): the entry fires locally, its
 *   note (shown in progress) saying why.
 *
 * One pass at a time (sync()); the scheduler runs one after every change to the queue and at
 * every sweep.
 */
import { createHash } from 'node:crypto';
import type { Platform } from '../../core/config.js';
import { nowIso } from '../../core/clock.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import type { PlatformAdapter, PostInput } from '../../platforms/adapter.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import type { Deps } from '../deps.js';
import { loadDraft, partsFor } from '../publishing/plan.js';
import { PublicationRunner } from '../publishing/runner.js';

/** How far ahead a post must be due to be handed off (docs/decisions.md §14). */
export const HAND_OFF_LEAD_MS = 10 * 60_000;
/** The networks Herald hands off to when their adapter can schedule (docs/decisions.md §14 names Mastodon). */
const HAND_OFF_PLATFORMS: Platform[] = ['fedblog'];

/** Entries looked at per pass: a pass never holds the thread long (each entry yields). */
const PER_PASS = 20;

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));
const turn = () => new Promise<void>((r) => setImmediate(r));

export class HandOffService {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly media: PublicationRunner;

  constructor(
    private readonly deps: Deps,
    private readonly repos: PublishingRepos,
    private readonly credentials: CredentialsService,
  ) {
    this.media = new PublicationRunner(deps, repos.outbox, repos.publishInputs, credentials, repos.usage);
  }

  /** Runs a pass (withdrawals, moves, new hand-offs); a call while one runs makes it run once more. Never rejects. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } catch (err) {
        this.deps.log.error('Herald could not hand scheduled posts to their networks; the next sweep tries again', err);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async pass(): Promise<void> {
    this.overtaken();
    await this.withdraw();
    await this.move();
    if (this.deps.config.fedblogHandOff) await this.handOff();
  }

  private adapter(platform: Platform): PlatformAdapter | undefined {
    try {
      return this.deps.platforms.get(platform);
    } catch {
      return undefined;
    }
  }

  /** Runs `fn` with the account's credentials; undefined when the account is gone. */
  private async call<T>(
    accountId: string,
    fn: Parameters<CredentialsService['withCredentials']>[1],
  ): Promise<T | undefined> {
    const account = this.repos.publishInputs.account(accountId);
    if (!account) return undefined;
    return (await this.credentials.withCredentials(account, fn)) as T;
  }

  /**
   * Handed-off posts published meanwhile another way (publish now): the entry ends, and the
   * network's copy is queued for withdrawal (below), so the post does not go out twice.
   */
  private overtaken(): void {
    const { handOff } = this.repos;
    const rows = handOff.overtaken();
    if (rows.length === 0) return;
    this.repos.commits.relaxed(() => {
      for (const e of rows) {
        handOff.finishOvertaken(e.id, `Published meanwhile; withdrawn from ${NETWORK_NAMES[e.platform]}`);
        handOff.addWithdrawal({
          id: this.deps.ids.uuid(),
          userId: e.userId,
          accountId: e.accountId,
          platform: e.platform,
          networkScheduledId: e.networkScheduledId,
          createdAt: nowIso(this.deps.clock),
        });
      }
    });
  }

  /** Posts whose entry was cancelled: withdrawn from the network, kept for the next pass when it fails. */
  private async withdraw(): Promise<void> {
    const { handOff } = this.repos;
    for (const w of handOff.withdrawals()) {
      const adapter = this.adapter(w.platform);
      try {
        if (!adapter?.unschedulePost || !this.repos.publishInputs.account(w.accountId)) {
          handOff.withdrawn(w.id);
          continue;
        }
        await this.call(w.accountId, (ctx) => adapter.unschedulePost!(ctx, w.networkScheduledId));
        handOff.withdrawn(w.id);
        this.deps.log.info(
          `Hand-off: withdrew scheduled post ${w.networkScheduledId} from ${NETWORK_NAMES[w.platform]} ` +
            `(cancelled in Herald)`,
        );
      } catch (err) {
        handOff.withdrawFailed(w.id, why(err));
        this.deps.log.warn(
          `Hand-off: ${NETWORK_NAMES[w.platform]} did not withdraw cancelled post ${w.networkScheduledId} (` +
            `${why(err)}); Herald tries again at the next sweep`,
        );
      }
    }
  }

  /** Handed-off entries moved in Herald: moved on the network, or withdrawn to fire locally when now too close. */
  private async move(): Promise<void> {
    const { handOff } = this.repos;
    const now = this.deps.clock.now();
    for (const e of handOff.moved()) {
      const adapter = this.adapter(e.platform);
      const id = e.networkScheduledId!;
      const name = NETWORK_NAMES[e.platform];
      if (adapter?.reschedulePost && e.fireAt >= now + HAND_OFF_LEAD_MS) {
        try {
          const held = await this.call<{ scheduledAt: number }>(e.accountId, (ctx) =>
            adapter.reschedulePost!(ctx, id, e.fireAt),
          );
          if (held && handOff.setHandedOff(e.id, id, e.fireAt)) continue;
          if (held) continue; // cancelled meanwhile: its withdrawal is queued
        } catch (err) {
          // Not held there any more (404): nothing to withdraw; anything else: withdrawn below.
          if (err instanceof PlatformError && err.status === 404) {
            handOff.keepLocal(
              e.id,
              `${name} no longer held the post when it was moved; Herald sends it itself at its time`,
            );
            continue;
          }
          this.deps.log.warn(
            `Hand-off: ${name} did not move scheduled post ${id} (${why(err)}); withdrawing it to send locally`,
          );
        }
      }
      try {
        if (adapter?.unschedulePost) await this.call(e.accountId, (ctx) => adapter.unschedulePost!(ctx, id));
        handOff.keepLocal(
          e.id,
          e.fireAt < now + HAND_OFF_LEAD_MS
            ? `Moved to less than 10 minutes ahead: withdrawn from ${name}; Herald sends it itself`
            : `${name} did not accept the new time: withdrawn from it; Herald sends it itself`,
        );
      } catch (err) {
        // Still held there for the old time: tried again at the next pass, never sent twice.
        this.deps.log.warn(
          `Hand-off: ${name} did not withdraw moved post ${id} (${why(err)}); Herald tries again at the next sweep`,
        );
      }
    }
  }

  /** Pending single posts due 10 minutes or more ahead: scheduled on their network. */
  private async handOff(): Promise<void> {
    const now = this.deps.clock.now();
    // Notes of entries kept local, written together at the end of the pass (relaxed: a crash
    // only means the next pass decides again).
    const local: [string, string][] = [];
    try {
      for (const e of this.repos.handOff.candidates(HAND_OFF_PLATFORMS, now + HAND_OFF_LEAD_MS, PER_PASS)) {
        await turn();
        const note = await this.handOffOne(e);
        if (note) local.push([e.id, note]);
      }
    } finally {
      if (local.length)
        this.repos.commits.relaxed(() => {
          for (const [id, note] of local) this.repos.handOff.keepLocal(id, note);
        });
    }
  }

  /** Hands one entry off; answers the note when it stays local. */
  private async handOffOne(e: EntryRow): Promise<string | undefined> {
    const adapter = this.adapter(e.platform);
    const name = NETWORK_NAMES[e.platform];
    if (!adapter?.schedulePost) return `${name} cannot schedule posts itself here; Herald sends it at its time`;
    const account = this.repos.publishInputs.account(e.accountId);
    if (!account) return 'Not handed off: the account was removed from Herald';
    // No call that cannot succeed: firing it locally says the same at its time.
    if (account.status === 'needs_reauth')
      return `Not handed off: the ${name} account needs connecting again; Herald sends it itself at its time`;
    let post: PostInput;
    try {
      const draft = loadDraft(this.repos.publishInputs, e.userId, e.draftId);
      const parts = partsFor(e.platform, draft);
      if (parts.length !== 1)
        return (
          `A thread: ${name} cannot schedule replies to a post not yet published, so Herald sends it itself at ` +
          `its time`
        );
      // The post's language, as a local send would give it (docs/decisions.md §16: on every path).
      const langs = [draft.language ?? this.deps.config.defaultLanguage];
      // The key names the entry, its text and language: handed off again after an edit, it is a new post.
      const version = createHash('sha256')
        .update(JSON.stringify([parts[0], langs]))
        .digest('hex')
        .slice(0, 16);
      post = {
        text: parts[0].text,
        media: this.media.resolveMedia(e.userId, parts[0].media),
        options: { langs },
        idempotencyKey: `hand-off-${e.id}-${version}`,
      };
    } catch (err) {
      // The draft or its media gone: firing it locally says why at its time.
      return `Not handed off (${why(err)})`;
    }
    return this.schedule(e, adapter, post);
  }

  private async schedule(e: EntryRow, adapter: PlatformAdapter, post: PostInput): Promise<string | undefined> {
    const name = NETWORK_NAMES[e.platform];
    const { handOff } = this.repos;
    let held: { id: string; scheduledAt: number } | undefined;
    try {
      held = await this.call(e.accountId, (ctx) => adapter.schedulePost!(ctx, post, e.fireAt));
    } catch (err) {
      // No answer (the adapter already repeated it with the same Idempotency-Key): the instance
      // may hold it, so it is not left to Herald yet; the next pass asks again with that key,
      // which answers the ScheduledStatus it made, if it made one.
      if (err instanceof PlatformError && err.kind === 'ambiguous') {
        this.deps.log.warn(
          `Hand-off of draft ${e.draftId}: ${name} did not answer (${why(err)}); Herald asks again at the next pass`,
        );
        return undefined;
      }
      const published = err instanceof PlatformError && err.opts.code === 'published_now';
      const note = published
        ? `${name} published the post at once instead of scheduling it; Herald will not send it again`
        : `${name} refused the hand-off (${why(err)}); Herald sends it itself at its time`;
      this.deps.log.warn(`Hand-off of draft ${e.draftId}: ${note}`);
      if (!published) return note;
      this.repos.schedule.finish(e.id, 'cancelled', note);
      return undefined;
    }
    if (!held) return 'Not handed off: the account was removed from Herald';
    // Durable (group commit, off this thread): lost, the entry would fire locally while the
    // network also publishes it. Cancelled or scheduled again while the network answered: what
    // it holds is withdrawn.
    let recorded = false;
    await this.repos.commits.durable(() => {
      recorded = handOff.setHandedOff(e.id, held.id, e.fireAt);
      if (!recorded)
        handOff.addWithdrawal({
          id: this.deps.ids.uuid(),
          userId: e.userId,
          accountId: e.accountId,
          platform: e.platform,
          networkScheduledId: held.id,
          createdAt: nowIso(this.deps.clock),
        });
    });
    if (!recorded) {
      this.again = true;
      return undefined;
    }
    this.deps.log.info(
      `Hand-off: draft ${e.draftId} handed to ${name} (scheduled post ${held.id}), goes out at ` +
        `${new Date(e.fireAt).toISOString()}`,
    );
    return undefined;
  }
}
