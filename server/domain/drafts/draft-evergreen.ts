/**
 * A draft's evergreen settings as the draft itself carries them (docs/decisions.md, Evergreen):
 * read with the draft and written in the draft's own transaction, to the same row that
 * PUT .../evergreen writes, so one request can create an evergreen draft.
 */
import type { EvergreenRepo, EvergreenRow } from '../../db/repos/evergreen.repo.js';

export interface EvergreenSettings {
  enabled: boolean;
  minDaysBetween: number;
  maxRepeats: number | null;
  variants: string[];
}

/** A change: `enabled` always, the rest kept from before (or their defaults) when absent. */
export type EvergreenInput = Partial<EvergreenSettings> & { enabled: boolean };

/** The settings of a draft never marked evergreen. */
export const NOT_EVERGREEN: Readonly<EvergreenSettings> = Object.freeze({
  enabled: false,
  minDaysBetween: 30,
  maxRepeats: null,
  variants: [],
});

export function settingsOf(row: EvergreenRow | undefined): EvergreenSettings {
  if (!row) return { ...NOT_EVERGREEN, variants: [] };
  return {
    enabled: row.enabled === 1,
    minDaysBetween: row.minDaysBetween,
    maxRepeats: row.maxRepeats,
    variants: JSON.parse(row.variants) as string[],
  };
}

/** Writes a change over the draft's current settings (the caller checked the draft is the user's). */
export function writeEvergreen(
  repo: EvergreenRepo,
  userId: string,
  draftId: string,
  input: EvergreenInput,
  now: string,
): void {
  const old = settingsOf(repo.get(userId, draftId));
  const variants = (input.variants ?? old.variants).map((v) => v.trim()).filter(Boolean);
  repo.upsert({
    draftId,
    userId,
    enabled: input.enabled ? 1 : 0,
    minDaysBetween: input.minDaysBetween ?? old.minDaysBetween,
    maxRepeats: input.maxRepeats === undefined ? old.maxRepeats : input.maxRepeats,
    variants: JSON.stringify(variants),
    updatedAt: now,
  });
}

/** Every draft of the user that has settings, by draft id (one query for a whole list). */
export function evergreenByDraft(repo: EvergreenRepo, userId: string): Map<string, EvergreenSettings> {
  return new Map(repo.allOf(userId).map((r) => [r.draftId, settingsOf(r)]));
}

/** The settings a draft file carries: none for a draft never marked evergreen (files stay as they were). */
export function evergreenForFile(settings: EvergreenSettings | undefined): EvergreenSettings | undefined {
  if (!settings) return undefined;
  const untouched =
    !settings.enabled &&
    settings.minDaysBetween === NOT_EVERGREEN.minDaysBetween &&
    settings.maxRepeats === null &&
    settings.variants.length === 0;
  return untouched ? undefined : { ...settings, variants: [...settings.variants] };
}
