/**
 * Every repository, built once by createServices from the one connection: each prepares each of
 * its statements once, on first use (statements.ts). Nothing outside server/db writes SQL or calls .prepare().
 * The account, content and key repos are listed in store-repos.ts; the publishing ones (drafts'
 * status, schedule, outbox, publications) in publishing-repos.ts.
 */
import type { Clock } from '../../core/clock.js';
import type { Ids } from '../../core/ids.js';
import type { Db, Sqlite } from '../connection.js';
import { createPublishingRepos } from './publishing-repos.js';
import { createStoreRepos } from './store-repos.js';

/** `core`: the injected clock and ids (the outbox stamps times and makes ids). */
export function createRepos(sqlite: Sqlite, db: Db, core: { clock: Clock; ids: Ids }) {
  return { ...createStoreRepos(sqlite, db), ...createPublishingRepos(sqlite, db, core) };
}

export type Repos = ReturnType<typeof createRepos>;
