/**
 * Evergreen (docs/decisions.md, Evergreen): a draft's repeat settings, and the fill the queue
 * service runs: each free slot of a social set in the next 24 hours takes the due evergreen draft
 * published longest ago (evergreen-rule.ts), scheduled like a queued draft with `force` (each
 * repeat a new publication, in history like any other). The scheduler fires it as it fires every
 * entry. X, which refuses a text it was sent before, gets the first of the draft's text and its
 * variants that differs from every text that account was sent; with none left it is skipped: a
 * publication with status `skipped` and the reason, so progress and history show it. A draft with
 * no network left is marked stalled (shown) and not picked again until its settings change.
 */
import { HeraldError } from '../../core/errors.js';
import type { EvergreenRepo, EvergreenRow } from '../../db/repos/evergreen.repo.js';
import type { OutboxRepo } from '../../db/repos/outbox.repo.js';
import type { QueueRepo } from '../../db/repos/queue.repo.js';
import type { PublishInputsRepo } from '../../db/repos/publish-inputs.repo.js';
import type { ScheduleRepo } from '../../db/repos/schedule.repo.js';
import type { Deps } from '../deps.js';
import { loadDraft } from '../publishing/plan.js';
import { zoneOf, type SocialSetsService } from '../social-sets/social-sets.service.js';
import type { ScheduleService } from './schedule.service.js';
import { DAY_MS, pickForSlot, pickVariant, skipReason, type EvergreenCandidate } from './evergreen-rule.js';
import { countOptionsFromMeta, countText } from '../../../text/index.js';
import { nextSlots } from '../../../time/index.js';
import { settingsOf, writeEvergreen, type EvergreenInput, type EvergreenSettings } from '../drafts/draft-evergreen.js';

export type { EvergreenSettings } from '../drafts/draft-evergreen.js';

export interface EvergreenView extends EvergreenSettings {
  repeats: number;
  lastPublishedAt: string | null;
  /** Why no network is left for it (shown, not looped), else null. */
  stalled: string | null;
}

interface Skip {
  accountId: string;
  platform: string;
  reason: string;
  /** Its `skipped` publication, once recorded (removed again when the fill is cleared). */
  publicationId?: string;
}

/** A repeat's accounts, with the variant each gets instead of the draft's text, and those left out. */
interface TargetPlan {
  targets: string[];
  firstTexts: Record<string, string>;
  skipped: Skip[];
}

/** The `skipped` publications a fill recorded (its `skipped` JSON). */
const skipIds = (json: string) =>
  (JSON.parse(json) as Skip[]).flatMap((k) => (k.publicationId ? [k.publicationId] : []));

export interface EvergreenParts {
  evergreen: EvergreenRepo;
  queue: QueueRepo;
  publishInputs: PublishInputsRepo;
  schedule: ScheduleRepo;
  outbox: OutboxRepo;
}

export class EvergreenService {
  constructor(
    private readonly deps: Deps,
    private readonly repos: EvergreenParts,
    private readonly sets: SocialSetsService,
    private readonly scheduling: ScheduleService,
  ) {}

  get(userId: string, draftId: string): EvergreenView {
    loadDraft(this.repos.publishInputs, userId, draftId);
    return this.view(draftId, this.repos.evergreen.get(userId, draftId));
  }

  put(userId: string, draftId: string, body: EvergreenInput): EvergreenView {
    loadDraft(this.repos.publishInputs, userId, draftId);
    writeEvergreen(this.repos.evergreen, userId, draftId, body, new Date(this.deps.clock.now()).toISOString());
    return this.get(userId, draftId);
  }

  private view(draftId: string, row: EvergreenRow | undefined): EvergreenView {
    const last = this.repos.evergreen.lastPublishedAt(draftId);
    return {
      ...settingsOf(row),
      repeats: this.repos.evergreen.repeats(draftId),
      lastPublishedAt: last === null ? null : new Date(last).toISOString(),
      stalled: row?.stalled ?? null,
    };
  }

  /** The set's fills after now by slot instant (the queue marks them). */
  fillsOf(setId: string): Map<number, { draftId: string; skipped: Skip[] }> {
    const out = new Map<number, { draftId: string; skipped: Skip[] }>();
    for (const f of this.repos.evergreen.fills(setId, this.deps.clock.now()))
      if (f.status === 'queued')
        out.set(f.slotAt, {
          draftId: f.draftId,
          skipped: (JSON.parse(f.skipped) as Skip[]).map(({ publicationId: _, ...k }) => k),
        });
    return out;
  }

  /** Turns a fill back into an empty slot: its entries are cancelled, and the slot is not filled again. */
  clear(userId: string, setId: string, slotAt: number): { draftId: string } {
    const cleared = this.repos.evergreen.clear(userId, setId, slotAt);
    const draftId = cleared?.draftId;
    if (!draftId)
      throw new HeraldError('NOT_FOUND', 'No evergreen fill holds that slot', {
        details: [{ path: 'slot', message: 'not an evergreen fill of the set' }],
      });
    if (this.repos.queue.slotOf(draftId, setId) === slotAt) this.scheduling.cancel(userId, draftId);
    this.repos.evergreen.dropSkipped(skipIds(cleared.skipped));
    return { draftId };
  }

  /**
   * A fill's entries were cancelled another way (DELETE /microblog/schedule): the repeat will not
   * happen, so the fill lets go like Empty slot (the slot stays empty, its skips go, no repeat counted).
   */
  released(draftId: string, slots: { setId: string; slotAt: number }[]): void {
    for (const { setId, slotAt } of slots) {
      const fill = this.repos.evergreen.queuedAt(setId, slotAt, draftId);
      if (!fill) continue;
      this.repos.evergreen.release(fill.id);
      this.repos.evergreen.dropSkipped(skipIds(fill.skipped));
    }
  }

  /**
   * Queued drafts moved between slots of a set (QueueService.move, inside its transaction): a fill
   * follows its draft, so the queue and calendar show it at its new time and its old slot is free
   * for the rule again.
   */
  moved(setId: string, moves: { draftId: string; from: number; to: number }[]): void {
    const found = moves.flatMap((m) => {
      const fill = this.repos.evergreen.queuedAt(setId, m.from, m.draftId);
      return fill ? [{ id: fill.id, to: m.to, skipped: fill.skipped }] : [];
    });
    if (found.length === 0) return;
    this.repos.evergreen.moveFills(setId, found);
    for (const f of found) this.repos.evergreen.retimeSkips(skipIds(f.skipped), new Date(f.to).toISOString());
  }

  /** Fills every free slot of the next 24 hours; answers what it filled. */
  async fill(): Promise<{ draftId: string; setId: string; at: string; skipped: Skip[] }[]> {
    const done: { draftId: string; setId: string; at: string; skipped: Skip[] }[] = [];
    for (const userId of this.repos.evergreen.users()) {
      const rows = this.repos.evergreen.enabledOf(userId);
      for (const set of this.sets.list(userId)) {
        const slots = this.sets.slots(userId, set.id).slots;
        if (slots.length === 0) continue;
        const now = this.deps.clock.now();
        const taken = this.repos.queue.taken(set.id, now);
        for (const f of this.repos.evergreen.fills(set.id, now)) taken.add(f.slotAt);
        const free = nextSlots(zoneOf(this.sets.row(userId, set.id)), slots, now, 100, now + DAY_MS).filter(
          (at) => !taken.has(at),
        );
        for (const at of free) {
          const filled = await this.fillSlot(userId, set, rows, at);
          if (filled) done.push({ ...filled, setId: set.id, at: new Date(at).toISOString() });
        }
      }
    }
    return done;
  }

  private async fillSlot(
    userId: string,
    set: { id: string; isDefault: boolean; accounts: { accountId: string; platform: string }[] },
    rows: EvergreenRow[],
    at: number,
  ): Promise<{ draftId: string; skipped: Skip[] } | null> {
    const plans = new Map<string, TargetPlan>();
    const candidates: EvergreenCandidate[] = [];
    for (const r of rows) {
      const draft = loadDraft(this.repos.publishInputs, userId, r.draftId);
      if (draft.socialSetId ? draft.socialSetId !== set.id : !set.isDefault) continue;
      const plan = this.targets(draft, set, JSON.parse(r.variants) as string[]);
      plans.set(r.draftId, plan);
      candidates.push({
        draftId: r.draftId,
        enabled: true,
        minDaysBetween: r.minDaysBetween,
        maxRepeats: r.maxRepeats,
        lastPublishedAt: this.repos.evergreen.lastPublishedAt(r.draftId),
        repeats: this.repos.evergreen.repeats(r.draftId),
        queued: this.repos.schedule.hasActive(r.draftId),
        networksLeft: plan.targets.length,
      });
      const stalled =
        plan.targets.length === 0
          ? `No network left that takes it: ${plan.skipped.map((s) => s.reason).join('; ') || 'no accounts'}`
          : null;
      if (stalled !== r.stalled) this.repos.evergreen.setStalled(r.draftId, stalled);
    }
    const pick = pickForSlot(candidates, at);
    if (!pick) return null;
    const plan = plans.get(pick.draftId)!;
    // The slot is claimed first: a second server filling at once finds it taken.
    if (!this.repos.evergreen.addFill(userId, pick.draftId, set.id, at, '[]', this.deps.clock.now())) return null;
    const skipped = this.recordSkips(userId, pick.draftId, at, plan.skipped);
    this.repos.evergreen.setSkipped(set.id, at, JSON.stringify(skipped));
    await this.scheduling.schedule(
      userId,
      {
        draftId: pick.draftId,
        scheduledFor: new Date(at).toISOString(),
        targetAccounts: plan.targets.map((accountId) => ({ accountId })),
        force: true,
        applyJitter: false,
        firstTexts: plan.firstTexts,
      },
      set.id,
    );
    return { draftId: pick.draftId, skipped: skipped.map(({ publicationId: _, ...k }) => k) };
  }

  /** Each account left out of this repeat as a `skipped` publication with its reason (progress, history). */
  private recordSkips(userId: string, draftId: string, at: number, skipped: Skip[]): Skip[] {
    const { outbox } = this.repos;
    return skipped.map((k) => {
      const publicationId = outbox.create({
        userId,
        draftId,
        accountId: k.accountId,
        platform: k.platform,
        jobId: null,
        options: '{}',
        origin: 'schedule',
        scheduledFor: new Date(at).toISOString(),
        status: 'skipped',
      });
      outbox.finish(publicationId, 'skipped', { error: k.reason });
      return { ...k, publicationId };
    });
  }

  /** The accounts a repeat goes to, and those left out with why (X takes no text it was sent before). */
  private targets(
    draft: ReturnType<typeof loadDraft>,
    set: { accounts: { accountId: string; platform: string }[] },
    variants: string[],
  ): TargetPlan {
    const accounts =
      draft.selectedAccountIds.length > 0
        ? set.accounts.filter((a) => draft.selectedAccountIds.includes(a.accountId))
        : set.accounts;
    const targets: string[] = [];
    const firstTexts: Record<string, string> = {};
    const skipped: Skip[] = [];
    for (const a of accounts) {
      if (a.platform !== 'microblog') {
        targets.push(a.accountId);
        continue;
      }
      const own = draft.overrides.microblog?.split(/\n---\n/)[0] ?? draft.posts[0]?.plainText ?? '';
      const sent = this.repos.evergreen.sentTexts(a.accountId);
      const texts = [own, ...variants];
      const next = pickVariant(texts, sent, this.fitsX(a.accountId));
      if (next === null)
        skipped.push({ accountId: a.accountId, platform: a.platform, reason: skipReason(texts, sent) });
      else {
        targets.push(a.accountId);
        if (next !== own) firstTexts[a.accountId] = next;
      }
    }
    return { targets, firstTexts, skipped };
  }

  /** Whether a text fits an X account (its own limit when premium): a variant too long is passed over. */
  private fitsX(accountId: string): (text: string) => boolean {
    let meta: Record<string, unknown> = {};
    try {
      meta = JSON.parse(this.repos.publishInputs.account(accountId)?.meta ?? '{}') as Record<string, unknown>;
    } catch {
      /* no meta: X's default limit */
    }
    const opts = countOptionsFromMeta('microblog', meta);
    return (text) => countText('microblog', text, opts).valid;
  }
}
