/**
 * Which evergreen draft fills a free queue slot (docs/decisions.md, Evergreen): among the
 * enabled drafts not already queued, with repeats left and a network left that takes them, the
 * ones due (at least minDaysBetween days since their last publication, counted to the slot);
 * of those, the one published longest ago. A draft never published is not a repeat: it waits for
 * its first publication. Pure, so its table test covers every case.
 */
export const DAY_MS = 86_400_000;

export interface EvergreenCandidate {
  draftId: string;
  enabled: boolean;
  minDaysBetween: number;
  maxRepeats: number | null;
  /** Epoch ms of its last publication, null when never published. */
  lastPublishedAt: number | null;
  /** Fills so far (fired or holding a slot). */
  repeats: number;
  /** It holds a queue slot already (its own or an earlier fill). */
  queued: boolean;
  /** Networks it could still go to; 0 = shown as stalled, never picked. */
  networksLeft: number;
}

export function isDue(c: EvergreenCandidate, slotAt: number): boolean {
  return (
    c.enabled &&
    !c.queued &&
    c.networksLeft > 0 &&
    (c.maxRepeats === null || c.repeats < c.maxRepeats) &&
    c.lastPublishedAt !== null &&
    slotAt - c.lastPublishedAt >= c.minDaysBetween * DAY_MS
  );
}

/** The draft for the slot at `slotAt`, or null when none is due. */
export function pickForSlot(candidates: readonly EvergreenCandidate[], slotAt: number): EvergreenCandidate | null {
  let best: EvergreenCandidate | null = null;
  for (const c of candidates) {
    if (!isDue(c, slotAt)) continue;
    if (
      !best ||
      c.lastPublishedAt! < best.lastPublishedAt! ||
      (c.lastPublishedAt === best.lastPublishedAt && c.draftId < best.draftId)
    )
      best = c;
  }
  return best;
}

const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

/**
 * For a network that refuses the same text twice (X): the first of the draft's text and its
 * variants that differs from every text already sent to that account and that `fits` the
 * network, or null (skip it).
 */
export function pickVariant(
  texts: readonly string[],
  sent: readonly string[],
  fits: (text: string) => boolean = () => true,
): string | null {
  const seen = new Set(sent.map(norm));
  return texts.find((t) => norm(t) !== '' && !seen.has(norm(t)) && fits(t)) ?? null;
}

/** Why a network that refuses a repeat is skipped: every text was sent, or those left do not fit it. */
export function skipReason(texts: readonly string[], sent: readonly string[]): string {
  const seen = new Set(sent.map(norm));
  return texts.some((t) => norm(t) !== '' && !seen.has(norm(t)))
    ? 'X refuses a text it was sent before, and the variants not sent yet are over its length limit'
    : 'X refuses a text it was sent before, and every text of this draft and its variants was sent';
}
