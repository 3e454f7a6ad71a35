/**
 * The queue: a social set's weekly slots (time.ts) filled by drafts. "Add to queue" schedules a
 * draft at the set's next free slot through the schedule service (jitter applies around the
 * slot, per entry); its entries carry the set id, so a slot is taken while a pending entry of
 * the set holds its instant. Moving a draft onto a taken slot swaps the two drafts.
 */
import { latestScheduleTime } from '../../contracts/common.js';
import { nowIso } from '../../core/clock.js';
import { HeraldError } from '../../core/errors.js';
import type { PublishingRepos } from '../../db/repos/publishing-repos.js';
import type { SetRow } from '../../db/repos/social-sets.repo.js';
import type { Deps } from '../deps.js';
import { loadDraft } from '../publishing/plan.js';
import { checkAltTexts } from '../publishing/alt-required.js';
import { zoneOf, type SocialSetsService } from '../social-sets/social-sets.service.js';
import { parseUtc, type ScheduleService } from './schedule.service.js';
import { formatLocal, nextFreeSlot, nextSlots, type Slot } from '../../../time/index.js';

const setError = (message: string) =>
  new HeraldError('INVALID_INPUT', message, { details: [{ path: 'socialSetId', message }] });

export class QueueService {
  /** One add at a time per set, so two adds never pick the same free slot. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: Deps,
    private readonly repos: Pick<PublishingRepos, 'queue' | 'publishInputs' | 'draftStatus' | 'tx'>,
    private readonly sets: SocialSetsService,
    private readonly scheduling: ScheduleService,
    /** The set's evergreen fills by slot (evergreen.service.ts), so the queue shows them. */
    private readonly fills: (setId: string) => Map<number, { draftId: string }> = () => new Map(),
    /** Fills free slots of the next 24 h with due evergreen drafts. */
    private readonly evergreenFill: () => Promise<unknown[]> = async () => [],
    /** Drafts moved between slots (inside the move's transaction): their evergreen fills follow. */
    private readonly fillsMoved: (setId: string, moves: { draftId: string; from: number; to: number }[]) => void = () =>
      undefined,
  ) {}

  /** Free slots of the next 24 hours take the due evergreen drafts (evergreen-rule.ts). */
  fillEvergreen(): Promise<unknown[]> {
    return this.evergreenFill();
  }

  private slotTime(zone: string, at: number) {
    return { at: new Date(at).toISOString(), ...formatLocal(zone, at), timeZone: zone };
  }

  /** The set asked for, else the draft's, else the default set; with its zone and slots. */
  private resolveSet(
    userId: string,
    socialSetId: string | undefined,
    draftSetId: string | null,
  ): { row: SetRow; zone: string; slots: Slot[] } {
    const id = socialSetId ?? draftSetId ?? this.sets.defaultSet(userId)?.id;
    if (!id) throw setError('No social set: pass socialSetId, or create a social set first');
    const row = this.sets.row(userId, id);
    return { row, zone: zoneOf(row), slots: this.sets.slots(userId, row.id).slots };
  }

  private serial<T>(key: string, run: () => Promise<T>): Promise<T> {
    const before = this.chains.get(key) ?? Promise.resolve();
    const next = before.then(run, run);
    const settled = next.catch(() => undefined);
    this.chains.set(key, settled);
    void settled.then(() => {
      if (this.chains.get(key) === settled) this.chains.delete(key);
    });
    return next;
  }

  /** Schedules the draft in the set's next free slot; answers like schedule() plus `slot`. */
  async add(
    userId: string,
    req: { draftId: string; socialSetId?: string; applyJitter?: boolean; dryRun?: boolean; force?: boolean },
  ) {
    const draft = loadDraft(this.repos.publishInputs, userId, req.draftId);
    checkAltTexts(draft.posts, this.deps.config.requireAltText);
    const set = this.resolveSet(userId, req.socialSetId, draft.socialSetId);
    if (set.slots.length === 0)
      throw setError(
        `The social set "${set.row.name}" has no queue slots: add some with PUT /social-sets/${set.row.id}/slots`,
      );
    return this.serial(set.row.id, async () => {
      const now = this.deps.clock.now();
      const taken = this.repos.queue.taken(set.row.id, now);
      const own = this.repos.queue.slotOf(draft.id, set.row.id);
      if (own !== null) taken.delete(own); // queued again: its own slot counts as free for it
      const at = nextFreeSlot(set.zone, set.slots, now, taken, latestScheduleTime(now));
      if (at === null) throw setError('The queue is full: every slot in the next two years holds a draft');
      // The draft's own selection, else the accounts of the set whose queue it joins.
      const targetAccounts =
        draft.selectedAccountIds.length > 0
          ? undefined
          : this.sets.get(userId, set.row.id).accounts.map((a) => ({ accountId: a.accountId }));
      if (targetAccounts?.length === 0)
        throw setError(`The social set "${set.row.name}" has no accounts and the draft selects none`);
      const result = await this.scheduling.schedule(
        userId,
        {
          draftId: draft.id,
          scheduledFor: new Date(at).toISOString(),
          targetAccounts,
          dryRun: req.dryRun,
          force: req.force,
          // A slot is a time the user chose: the post goes out then unless spreading is asked for.
          applyJitter: req.applyJitter ?? false,
        },
        set.row.id,
      );
      // A dry run answers the plan with the slot the draft would take; nothing was scheduled.
      if ('dryRun' in result) return { ...result, slot: this.slotTime(set.zone, at) };
      return {
        ...result,
        message: `Queued for ${formatLocal(set.zone, at).local} ${set.zone} on ${result.accountCount} account(s)`,
        slot: this.slotTime(set.zone, at),
      };
    });
  }

  /** The next `count` slots (and every later one holding a draft), each with its draft or null. */
  list(userId: string, req: { socialSetId?: string; count?: number }) {
    const set = this.resolveSet(userId, req.socialSetId, null);
    const now = this.deps.clock.now();
    const queued = this.repos.queue.queued(userId, set.row.id, now);
    const lastQueued = queued.length > 0 ? queued[queued.length - 1].slotAt : now;
    const count = req.count ?? 14;
    const slots = nextSlots(set.zone, set.slots, now, count, latestScheduleTime(now));
    // Extend to the last queued draft, so no queued draft is hidden behind `count`.
    if (slots.length > 0 && lastQueued > slots[slots.length - 1]) {
      slots.push(...nextSlots(set.zone, set.slots, slots[slots.length - 1], 10_000, lastQueued));
    }
    const slotSet = new Set(slots);
    const byAt = new Map<number, { id: string; title: string }[]>();
    for (const q of queued) {
      const list = byAt.get(q.slotAt) ?? [];
      list.push({ id: q.draftId, title: q.title });
      byAt.set(q.slotAt, list);
    }
    const times = [...new Set([...slots, ...byAt.keys()])].sort((a, b) => a - b);
    const fills = this.fills(set.row.id);
    const items = times.flatMap((at) => {
      const drafts = byAt.get(at) ?? [null];
      return drafts.map((draft) => ({
        ...this.slotTime(set.zone, at),
        draft,
        inSlots: slotSet.has(at),
        evergreen: !!draft && fills.get(at)?.draftId === draft.id,
      }));
    });
    return { socialSetId: set.row.id, timeZone: set.zone, items };
  }

  /** Moves a queued draft to a coming slot of its set; a draft already there takes its old slot. */
  move(userId: string, req: { draftId: string; toSlot: string; socialSetId?: string }) {
    const draft = loadDraft(this.repos.publishInputs, userId, req.draftId);
    const set = this.resolveSet(userId, req.socialSetId, draft.socialSetId);
    const from = this.repos.queue.slotOf(draft.id, set.row.id);
    if (from === null) {
      throw new HeraldError('INVALID_INPUT', `The draft is not in the queue of "${set.row.name}"`, {
        details: [{ path: 'draftId', message: 'not queued in this social set' }],
      });
    }
    const now = this.deps.clock.now();
    const to = parseUtc(req.toSlot);
    const isSlot = to > now && nextSlots(set.zone, set.slots, to - 1, 1, to)[0] === to;
    const others = this.repos.queue.draftsAt(set.row.id, to).filter((d) => d !== draft.id);
    if (!isSlot && others.length === 0) {
      throw new HeraldError('INVALID_INPUT', 'toSlot is not a coming slot of the set', {
        details: [
          { path: 'toSlot', message: "not a coming slot of the set (use an item's `at` from GET /microblog/queue)" },
        ],
      });
    }
    const at = nowIso(this.deps.clock);
    const earliest = now + 1000;
    this.repos.tx.run(() => {
      this.repos.queue.move(draft.id, set.row.id, to, earliest);
      this.repos.draftStatus.setScheduled(draft.id, userId, new Date(to).toISOString(), at);
      for (const other of others) {
        this.repos.queue.move(other, set.row.id, from, earliest);
        this.repos.draftStatus.setScheduled(other, userId, new Date(from).toISOString(), at);
      }
      this.fillsMoved(set.row.id, [
        { draftId: draft.id, from, to },
        ...others.map((d) => ({ draftId: d, from: to, to: from })),
      ]);
    });
    this.scheduling.onChange();
    const moved = [
      { draftId: draft.id, slot: this.slotTime(set.zone, to) },
      ...others.map((d) => ({ draftId: d, slot: this.slotTime(set.zone, from) })),
    ];
    return { message: others.length > 0 ? 'Moved; the draft in that slot took the old one' : 'Moved', moved };
  }
}
