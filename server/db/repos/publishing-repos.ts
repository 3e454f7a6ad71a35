/** Repositories of publishing: the schedule, the outbox and publications, a draft's status. */
import type { Db, Sqlite } from '../connection.js';

export function createPublishingRepos(_sqlite: Sqlite, _db: Db) {
  return {};
}
