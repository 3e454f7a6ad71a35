/**
 * Whether a scheduled entry about to fire waits for a posting cap (quota-gate.ts): the requests
 * its post makes are counted from what is left to send of its begun publication, else from the
 * draft's plan. A draft that cannot be planned is not held: firing it says why.
 */
import type { Platform } from '../../core/config.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import type { QuotaHold, QuotaNeed } from './quota-gate.js';
import type { PublishService, Started } from './publish.service.js';

export async function holdForQuota(
  publishing: PublishService,
  e: EntryRow,
  started: Started | undefined,
): Promise<QuotaHold | null> {
  const platform = e.platform as Platform;
  const gate = publishing.quotas;
  if (!publishing.deps.config.postingCaps) return null;
  let asksNetwork = false;
  try {
    asksNetwork = publishing.deps.platforms.get(platform).publishingQuota !== undefined;
  } catch {
    /* no adapter: firing says so */
  }
  if (gate.windows(platform).length === 0 && !asksNetwork) return null;
  const need = needOf(publishing, e, started);
  if (!need) return null;
  try {
    return await gate.check(e.accountId, platform, need);
  } catch (err) {
    // Counting failed (the database busy): the post goes; the network refuses it if over, and that is retried.
    publishing.deps.log.warn(
      `Herald could not check the posting quota of account ${e.accountId}: ${(err as Error).message}`,
    );
    return null;
  }
}

function needOf(publishing: PublishService, e: EntryRow, started: Started | undefined): QuotaNeed | null {
  const need: QuotaNeed = { posts: 0, replies: 0 };
  const add = (position: number) => {
    if (position === 0) need.posts += 1;
    else need.replies += 1;
  };
  if (started) {
    for (const r of started.toRun)
      for (const p of publishing.repos.outbox.parts(r.pubId)) if (p.status !== 'sent') add(p.position);
    return need;
  }
  try {
    const { targets } = publishing.plan(e.userId, {
      draftId: e.draftId,
      targetAccounts: [{ accountId: e.accountId, platform: e.platform }],
    });
    targets[0]?.parts.forEach((_, i) => add(i));
    return need;
  } catch {
    return null;
  }
}
