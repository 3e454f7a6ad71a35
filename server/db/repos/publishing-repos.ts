/** Repositories of publishing: the schedule, the outbox and publications, a draft's status, the event stream. */
import type { Clock } from '../../core/clock.js';
import type { Ids } from '../../core/ids.js';
import { commitsFor } from '../commits.js';
import type { Sqlite } from '../connection.js';
import type { Transactions } from './transactions.js';
import { AfterPublishRepo } from './after-publish.repo.js';
import { MetricsRepo } from './metrics.repo.js';
import { DraftStatusRepo } from './draft-status.repo.js';
import type { DraftsRepo } from './drafts.repo.js';
import { EventsRepo } from './events.repo.js';
import { HandOffRepo } from './hand-off.repo.js';
import { OutboxRepo } from './outbox.repo.js';
import { PublicationsRepo } from './publications.repo.js';
import { PublishInputsRepo } from './publish-inputs.repo.js';
import { QueueRepo } from './queue.repo.js';
import { ScheduleRepo } from './schedule.repo.js';
import { UsageRepo } from './usage.repo.js';

/** `drafts`: the store's drafts repo, the one reader of drafts (the publisher reads through it). */
export function createPublishingRepos(
  sqlite: Sqlite,
  core: { clock: Clock; ids: Ids },
  tx: Transactions,
  drafts: DraftsRepo,
) {
  return {
    /** Transactions spanning several of these repos (the same as the store repos'). */
    tx,
    /** The connection's group commit (relaxed and durable transactions, db/commits.ts). */
    commits: commitsFor(sqlite),
    schedule: new ScheduleRepo(sqlite),
    queue: new QueueRepo(sqlite),
    /** Entries handed to their network to publish, and posts to withdraw from it (docs/decisions.md §14). */
    handOff: new HandOffRepo(sqlite),
    outbox: new OutboxRepo(sqlite, core.clock, core.ids),
    publications: new PublicationsRepo(sqlite),
    draftStatus: new DraftStatusRepo(sqlite),
    publishInputs: new PublishInputsRepo(sqlite, drafts),
    /** The event stream (GET /events): every state change of a post or of credits. */
    events: new EventsRepo(sqlite),
    /** Requests made on the networks: quota windows and X's spend. */
    usage: new UsageRepo(sqlite),
    /** Deletes and edits of published posts, and their metrics over time. */
    afterPublish: new AfterPublishRepo(sqlite),
    metrics: new MetricsRepo(sqlite),
  };
}

export type PublishingRepos = ReturnType<typeof createPublishingRepos>;
