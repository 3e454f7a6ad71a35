/**
 * A draft's status once its publishing has ended, decided here alone (the publish service after a
 * publish-now, the scheduled runner after a draft's last entry): from every account's latest
 * publication, and the entries that ended without their post going out (missed, or refused
 * before anything was begun). All published → `published`, some → `partially_published`, none
 * begun and all missed → back to `draft`, else `failed`. While a publish of the draft still runs
 * nothing is decided: it settles the draft itself when it ends.
 */
export type SettledStatus = 'published' | 'partially_published' | 'failed';

/** A draft's status once its targets have ended: all published, some, or none. */
export function draftStatusOf(published: number, targets: number): SettledStatus {
  return published === targets ? 'published' : published > 0 ? 'partially_published' : 'failed';
}

/**
 * `all`: each account's latest publication status; `unsent`: the draft's entries that ended
 * without going out (empty after a publish-now). Null: leave the draft as it is.
 */
export function settledDraftStatus(
  all: ReadonlyMap<string, string>,
  unsent: readonly { accountId: string; status: string }[] = [],
): SettledStatus | 'draft' | null {
  // A network an evergreen repeat left out on purpose does not make the draft less published.
  const latest = new Map([...all].filter(([, st]) => st !== 'skipped'));
  if ([...latest.values()].includes('publishing')) return null;
  // An entry whose account's post went out after all (published at once meanwhile) is not unsent.
  const notOut = new Map(
    unsent.filter((r) => latest.get(r.accountId) !== 'published').map((r) => [r.accountId, r.status]),
  );
  const accounts = new Set([...latest.keys(), ...notOut.keys()]);
  if (accounts.size === 0) return null;
  if (latest.size === 0 && [...notOut.values()].every((st) => st === 'missed')) return 'draft';
  const published = [...latest.values()].filter((st) => st === 'published').length;
  return draftStatusOf(published, accounts.size);
}
