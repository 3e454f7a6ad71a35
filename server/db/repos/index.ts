/**
 * Every repository, built once by createServices from the one connection: each prepares each of
 * its statements once, on first use (statements.ts). Nothing outside server/db writes SQL or calls .prepare().
 * The account, content and key repos are listed in store-repos.ts; the publishing ones (drafts'
 * status, schedule, outbox, publications) in publishing-repos.ts.
 */
import type { Clock } from '../../core/clock.js';
import type { Ids } from '../../core/ids.js';
import type { Sqlite } from '../connection.js';
import { createPublishingRepos } from './publishing-repos.js';
import { createStoreRepos } from './store-repos.js';
import { Transactions } from './transactions.js';

/**
 * `core`: the injected clock and ids (the outbox stamps times and makes ids). The connection stays
 * here: services get transactions from `tx` (one for both groups), never the connection itself.
 */
export function createRepos(sqlite: Sqlite, core: { clock: Clock; ids: Ids }) {
  const tx = new Transactions(sqlite);
  const store = createStoreRepos(sqlite, tx);
  return { ...store, ...createPublishingRepos(sqlite, core, tx, store.drafts) };
}

export type Repos = ReturnType<typeof createRepos>;
