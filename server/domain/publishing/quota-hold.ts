/**
 * Whether a scheduled entry about to fire waits for a posting cap (quota-gate.ts): the requests
 * its post makes are counted from what is left to send of its begun publication, else from the
 * plan the scheduled runner made for it. A draft that cannot be planned is not held: firing it
 * says why.
 */
import type { Platform } from '../../core/config.js';
import type { OutboxRepo } from '../../db/repos/outbox.repo.js';
import type { EntryRow } from '../../db/repos/schedule.repo.js';
import type { Deps } from '../deps.js';
import type { Planned, Started } from './model.js';
import type { QuotaGate, QuotaHold, QuotaNeed } from './quota-gate.js';

export class QuotaHolds {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'platforms' | 'log'>,
    private readonly gate: QuotaGate,
    private readonly outbox: Pick<OutboxRepo, 'parts'>,
  ) {}

  /** The hold on `e`, begun as `started` or else planned as `planned` (neither: not held). */
  async check(e: EntryRow, started: Started | undefined, planned: Planned | undefined): Promise<QuotaHold | null> {
    const platform = e.platform as Platform;
    if (!this.deps.config.postingCaps) return null;
    let asksNetwork = false;
    try {
      asksNetwork = this.deps.platforms.get(platform).publishingQuota !== undefined;
    } catch {
      /* no adapter: firing says so */
    }
    if (this.gate.windows(platform).length === 0 && !asksNetwork) return null;
    const need = this.needOf(started, planned);
    if (!need) return null;
    try {
      return await this.gate.check(e.accountId, platform, need);
    } catch (err) {
      // Counting failed (the database busy): the post goes; the network refuses it if over, and that is retried.
      const why = (err as Error).message;
      this.deps.log.warn(`Herald could not check the posting quota of account ${e.accountId}: ${why}`);
      return null;
    }
  }

  private needOf(started: Started | undefined, planned: Planned | undefined): QuotaNeed | null {
    const need: QuotaNeed = { posts: 0, replies: 0 };
    const add = (position: number) => {
      if (position === 0) need.posts += 1;
      else need.replies += 1;
    };
    if (started) {
      for (const r of started.toRun) {
        for (const p of this.outbox.parts(r.pubId)) if (p.status !== 'sent') add(p.position);
      }
      return need;
    }
    if (!planned) return null;
    planned.targets[0]?.parts.forEach((_, i) => add(i));
    return need;
  }
}
