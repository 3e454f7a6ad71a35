/**
 * Every repository, built once by createServices from the one connection: each prepares its
 * statements once, in its constructor. Nothing outside server/db writes SQL or calls .prepare().
 * The account, content and key repos are listed in store-repos.ts; the publishing ones (drafts'
 * status, schedule, outbox, publications) in publishing-repos.ts.
 */
import type { Db, Sqlite } from '../connection.js';
import { createPublishingRepos } from './publishing-repos.js';
import { createStoreRepos } from './store-repos.js';

export function createRepos(sqlite: Sqlite, db: Db) {
  return { ...createStoreRepos(sqlite, db), ...createPublishingRepos(sqlite, db) };
}

export type Repos = ReturnType<typeof createRepos>;
